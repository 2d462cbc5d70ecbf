// The raw series of a probe run ("schema": "kerncast.probe-raw/1", docs/probe.md): what the
// GPU measured, before any analysis, with the device, clocks and settings it ran under.
// `kerncast probe` writes it; `kerncast probe --replay` redoes the analysis from it on any
// machine.
#pragma once

#include "kerncast/gpu/devices.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kerncast::probe {

inline constexpr const char* probe_raw_schema = "kerncast.probe-raw/1";

// One measured vector and the parameters it was measured with.
struct RawSeries {
    std::string label;           // role within its benchmark: "", "reference", "interfered",
                                 // "ca", "cg", "sm 12", "thread 33", ...
    int repetition = 0;          // independent repetition this vector belongs to
    std::int64_t size_bytes = 0; // array size (size sweeps, line sizes); 0 when not applicable
    int stride_bytes = 0;        // distance between consecutive chase elements
    std::int64_t blocks = 0;     // launch (bandwidth, departure delay); 0 when not applicable
    std::int64_t threads = 0;    // threads per block
    std::int64_t bytes = 0;      // bytes moved (bandwidth)
    double sm_clock_mhz = 0;     // SM clock measured around this vector (0 = not recorded)
    std::vector<double> values;  // the timings, in the benchmark's unit
    bool operator==(const RawSeries&) const = default;
};

// Benchmark kinds and what their series hold (docs/probe.md, "Raw series"):
//   size         fine-grained chase times per array size           -> size of memory
//   line         fine-grained times over an array beyond the cache  -> line size
//   latency      cycles per load of a plain chase, per repetition   -> latency (minus overhead)
//   overhead     cycles per iteration of the same loop without load -> timer+address overhead
//   caching      "ca" and "cg" times of one small array             -> L1 caches global loads?
//   sharing      "reference" and "interfered" times                 -> one physical cache?
//   count_per_sm "reference" and one "thread T" series per thread   -> instances per SM
//   bandwidth    milliseconds per launch, per (blocks, threads)     -> sustained GB/s
//   departure    cycles for W warps issuing together, per W (blocks) -> departure delay
//   issue_rate   cycles of one block of W warps, per W and iteration count (label
//                "iterations N x I instructions") -> Issue_cycles
//   l2_partition cycles per L2 hit seen from each SM ("sm N")       -> near/far latency
//   clock        clock64 cycles (values[0]) over event milliseconds (values[1]) -> SM MHz
//   tlb          fine-grained times of a chase with one load per stride_bytes over a
//                footprint of size_bytes, per (stride, footprint, repetition) -> TLB levels
//   block_launch [blocks, threads_per_block, milliseconds] of empty blocks -> block launches
//                per second and per SM cycle
struct RawBenchmark {
    std::string name;         // unique in the record: "l1.size", "sharing.l1.texture", ...
    std::string kind;         // one of the kinds above
    std::string memory;       // l1, texture, readonly, constant_l1, constant_l15, shared, l2, dram
    std::string other_memory; // sharing: the interfering memory
    std::string direction;    // bandwidth: "load" or "store"; departure: "coalesced"/"uncoalesced"
    std::string chain;        // "sequential" or "random" pointer chain
    std::string unit;         // "cycles" or "ms"
    std::string note;
    std::vector<RawSeries> series;
    // Size searches at a forced carve-out (docs/probe.md, "Carve-outs"): the preference set
    // on the kernel (-1: none recorded, the record-wide setting applies) and the shared
    // memory each block claimed (dynamic + static + system-reserved), which the carve-out
    // must hold.
    int carveout_percent = -1;
    std::int64_t shared_bytes_per_block = 0;
    bool operator==(const RawBenchmark&) const = default;
};

struct ProbeRecord {
    gpu::DeviceInfo device;
    double sm_clock_measured_mhz = 0;        // clock64 cycles over cudaEvent time (the clock run)
    int carveout_percent = -1;               // cudaFuncAttributePreferredSharedMemoryCarveout asked
    std::int64_t l1_shared_bytes_per_sm = 0; // unified L1/shared array the carve-out splits
    std::string date;                        // ISO 8601 UTC
    std::string command;                     // the command line that produced it
    std::string tool_version;                // kerncast version
    std::string host;                        // host name
    std::vector<RawBenchmark> benchmarks;

    const RawBenchmark* benchmark(const std::string& name) const;
};

nlohmann::json probe_record_to_json(const ProbeRecord& record);

// Parses a record; errors name origin, line:column and the JSON path.
ProbeRecord parse_probe_record(const std::string& text, const std::string& origin);

// The record as text: indented JSON with one series per line.
std::string format_probe_record(const ProbeRecord& record);

// A record directory holds raw.json (the record) plus nothing else kerncast needs.
inline constexpr const char* probe_raw_file_name = "raw.json";
void write_probe_record(const ProbeRecord& record, const std::string& directory);
ProbeRecord read_probe_record(const std::string& directory_or_file);

} // namespace kerncast::probe
