// One probe run on a device (probe_device.hpp): the record being written, the memory layout
// of the probe buffer and the measuring steps the benchmark plans share (building chains,
// fine-grained chases, batched size measurements). The plans themselves live with their
// benchmark kinds (src/probe/benchmarks/, benchmark_plans.hpp); probe_driver.cpp orders them.
#pragma once

#include "kerncast/probe/probe_device.hpp"
#include "kerncast/probe/runner.hpp"
#include "kerncast/probe/size_search.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kerncast::probe {

inline constexpr std::int64_t KiB = 1024;
inline constexpr std::int64_t MiB = 1024 * KiB;

// How one cache's size is searched: the search options and the chase that measures it.
struct SweepPlan {
    SizeSearchOptions search;
    int stride_bytes = 128;
    std::uint32_t measure_count = 512;
    bool per_sm = true; // batched, one block per SM in its own region
    int repetitions = 1;
};

class ProbeSession {
public:
    static constexpr int max_batch = 160;                       // SMs of one batched launch
    static constexpr std::uint32_t max_measure = 2048;          // timed loads per block
    static constexpr std::int64_t batch_region_bytes = 1 * MiB; // per block of a batch
    static constexpr std::int64_t cold_bytes = 64 * MiB;        // never cached before use

    ProbeSession(ProbeDevice& probe_device, const ProbeOptions& probe_options);

    // Records the device and run facts, lays out and allocates the probe buffer
    // ([batch regions | sweep region | cold region]) and sets the carve-out.
    void setup();

    void progress(const std::string& line) const;
    RawBenchmark& add_benchmark(std::string name, std::string kind, std::string memory,
                                std::string unit = "cycles");

    // A chain over `bytes` from element `first`, stride_bytes apart, sequential or random.
    void build_chain(std::uint32_t first, std::int64_t bytes, int stride_bytes, bool random);

    // Block b chases sizes[b] in its own region (region_first + b * region_bytes); constant
    // chases run one size per launch over the __constant__ chain, cut at the size.
    std::vector<BlockTimes> fine_grained(ProbeLoad load, const std::vector<std::int64_t>& sizes,
                                         int stride_bytes, std::uint32_t measure_count, bool warm,
                                         bool random, std::uint32_t region_first,
                                         std::int64_t region_bytes,
                                         std::uint32_t wrap_elements = 0xffffffffu);

    // Batched measurement for caches private to an SM: one block per size, and sizes whose
    // block shared an SM with another (their caches would interfere) measured again alone.
    // Every size's timings are appended to `bench` as a series of `repetition`.
    std::vector<std::vector<double>>
    measure_batch(ProbeLoad load, const std::vector<std::int64_t>& sizes, int stride_bytes,
                  std::uint32_t measure_count, RawBenchmark& bench, int repetition, bool per_sm);

    SweepPlan plan_for(const std::string& memory) const;
    // The size found for `memory` by an earlier search, else fallback.
    std::int64_t size_or(const std::string& memory, std::int64_t fallback) const;
    // The carve-out the options ask for, on every chase kernel.
    void set_carveout() { device.set_carveout_percent(options.carveout_percent); }

    ProbeDevice& device;
    const ProbeOptions& options;
    ProbeRecord record;
    std::map<std::string, std::int64_t> sizes; // median size found per memory
    int sm_count = 0;
    int batch = 1;
    std::int64_t l2_bytes = 0;
    std::int64_t sweep_bytes = 0;
    std::uint32_t sweep_first = 0;
    std::size_t cold_first = 0;
    std::size_t forced_dynamic_shared = 0; // carveout group: shared memory a chase block claims
};

} // namespace kerncast::probe
