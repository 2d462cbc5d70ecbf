#include "probe_session.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/chain_layout.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <set>
#include <unistd.h>

namespace kerncast::probe {
namespace {

std::string iso_date_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string host_name() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

} // namespace

ProbeSession::ProbeSession(ProbeDevice& probe_device, const ProbeOptions& probe_options)
    : device(probe_device), options(probe_options) {}

void ProbeSession::setup() {
    record.device = device.info();
    record.date = iso_date_utc();
    record.command = options.command;
    record.tool_version = KERNCAST_VERSION;
    record.host = host_name();
    record.carveout_percent = options.carveout_percent;

    const auto& d = record.device;
    sm_count = d.sm_count;
    batch = std::min(sm_count, max_batch);
    l2_bytes = std::max<std::int64_t>(d.l2_cache_bytes, 1 * MiB);
    const std::int64_t free_bytes = device.free_memory_bytes();
    // Layout: [batch regions | sweep region | cold region]; one allocation for the run.
    sweep_bytes = std::max<std::int64_t>(4 * l2_bytes, 256 * MiB);
    std::int64_t total = batch_region_bytes * max_batch + sweep_bytes + cold_bytes;
    const auto budget = static_cast<std::int64_t>(0.6 * static_cast<double>(free_bytes));
    if (total > budget) {
        sweep_bytes =
            std::max<std::int64_t>(64 * MiB, budget - batch_region_bytes * max_batch - cold_bytes);
        total = batch_region_bytes * max_batch + sweep_bytes + cold_bytes;
        progress(
            fmt::format("sweep region reduced to {} MiB by free device memory", sweep_bytes / MiB));
    }
    sweep_first = static_cast<std::uint32_t>(batch_region_bytes * max_batch / 4);
    cold_first = static_cast<std::size_t>((batch_region_bytes * max_batch + sweep_bytes) / 4);
    // One texture object over the batch and sweep regions (within the 2^27-element limit
    // of linear textures).
    const std::int64_t texture_elements =
        std::min<std::int64_t>(device.attribute(ProbeAttribute::max_texture_1d_linear_elements),
                               sweep_first + sweep_bytes / 4);
    device.allocate(static_cast<std::size_t>(total / 4), texture_elements, max_batch, max_measure);
    set_carveout();
    progress(fmt::format("{} ({} SMs, CC {}.{}), {} MiB allocated, carve-out {} %", d.name,
                         d.sm_count, d.cc_major, d.cc_minor, total / MiB,
                         options.carveout_percent));
}

void ProbeSession::progress(const std::string& line) const {
    if (options.progress)
        options.progress(line);
}

RawBenchmark& ProbeSession::add_benchmark(std::string name, std::string kind, std::string memory,
                                          std::string unit) {
    RawBenchmark b;
    b.name = std::move(name);
    b.kind = std::move(kind);
    b.memory = std::move(memory);
    b.unit = std::move(unit);
    record.benchmarks.push_back(std::move(b));
    return record.benchmarks.back();
}

void ProbeSession::build_chain(std::uint32_t first, std::int64_t bytes, int stride_bytes,
                               bool random) {
    const auto count = static_cast<std::uint32_t>(chain::chain_count(bytes, stride_bytes));
    const std::uint64_t multiplier = random ? chain::coprime_multiplier(count) : 1;
    device.build_chain(first, count, static_cast<std::uint32_t>(stride_bytes / 4), multiplier);
}

std::vector<BlockTimes>
ProbeSession::fine_grained(ProbeLoad load, const std::vector<std::int64_t>& sizes_bytes,
                           int stride_bytes, std::uint32_t measure_count, bool warm, bool random,
                           std::uint32_t region_first, std::int64_t region_bytes,
                           std::uint32_t wrap_elements) {
    const auto blocks = static_cast<unsigned>(sizes_bytes.size());
    FineChase chase;
    chase.load = load;
    chase.starts.resize(blocks);
    chase.lengths.resize(blocks);
    for (unsigned b = 0; b < blocks; ++b) {
        KERNCAST_CHECK(sizes_bytes[b] <= region_bytes, "size exceeds its region");
        chase.starts[b] =
            static_cast<std::uint32_t>(chain::batch_region_first(region_first, b, region_bytes));
        chase.lengths[b] =
            static_cast<std::uint32_t>(chain::chain_count(sizes_bytes[b], stride_bytes));
        if (load != ProbeLoad::constant)
            build_chain(chase.starts[b], sizes_bytes[b], stride_bytes, random);
    }
    if (load == ProbeLoad::constant) {
        // One sequential chain over constant memory, cut at the size (wrap).
        KERNCAST_CHECK(blocks == 1, "constant chases run one size per launch");
        chase.starts[0] = 0;
        wrap_elements = static_cast<std::uint32_t>(sizes_bytes[0] / 4);
    }
    KERNCAST_CHECK(blocks <= static_cast<unsigned>(max_batch) && measure_count <= max_measure,
                   "launch exceeds the scratch arrays");
    chase.wrap_elements = wrap_elements;
    chase.measure_count = measure_count;
    chase.warm = warm;
    // A forced carve-out claims more shared memory than the times need (carveout group).
    chase.dynamic_shared_bytes =
        std::max<std::size_t>(measure_count * sizeof(std::uint32_t), forced_dynamic_shared);
    return device.fine_grained_chase(chase);
}

std::vector<std::vector<double>>
ProbeSession::measure_batch(ProbeLoad load, const std::vector<std::int64_t>& sizes_bytes,
                            int stride_bytes, std::uint32_t measure_count, RawBenchmark& bench,
                            int repetition, bool per_sm) {
    const std::int64_t region = per_sm ? batch_region_bytes : sweep_bytes;
    const std::uint32_t first = per_sm ? 0u : sweep_first;
    const bool random = load == ProbeLoad::global_cg;
    auto result =
        fine_grained(load, sizes_bytes, stride_bytes, measure_count, true, random, first, region);
    std::set<std::uint32_t> seen;
    for (std::size_t k = 0; k < sizes_bytes.size(); ++k)
        if (!seen.insert(result[k].sm).second) {
            const auto alone = fine_grained(load, {sizes_bytes[k]}, stride_bytes, measure_count,
                                            true, random, first, region);
            result[k].times = alone[0].times;
            result[k].sm_clock_mhz = alone[0].sm_clock_mhz;
        }
    std::vector<std::vector<double>> times;
    for (std::size_t k = 0; k < sizes_bytes.size(); ++k) {
        RawSeries s;
        s.repetition = repetition;
        s.size_bytes = sizes_bytes[k];
        s.stride_bytes = stride_bytes;
        s.sm_clock_mhz = result[k].sm_clock_mhz;
        s.values = result[k].times;
        bench.series.push_back(std::move(s));
        times.push_back(std::move(result[k].times));
    }
    return times;
}

SweepPlan ProbeSession::plan_for(const std::string& memory) const {
    SweepPlan plan;
    plan.repetitions = std::max(1, options.repetitions);
    if (memory == "l2") {
        plan.per_sm = false;
        plan.repetitions = 1; // one search is seconds; the CPD's p-value qualifies it
        plan.search.start_bytes = 1 * MiB;
        plan.search.step_bytes =
            std::max<std::int64_t>(64 * KiB, (l2_bytes / 512) / (64 * KiB) * (64 * KiB));
        plan.search.start_bytes =
            (plan.search.start_bytes / plan.search.step_bytes) * plan.search.step_bytes;
        if (plan.search.start_bytes == 0)
            plan.search.start_bytes = plan.search.step_bytes;
        plan.search.max_bytes = std::min<std::int64_t>(4 * l2_bytes, sweep_bytes);
        plan.search.batch = 1;
    } else {
        plan.search.start_bytes = 1 * KiB;
        plan.search.step_bytes = 512;
        plan.search.max_bytes = batch_region_bytes;
        plan.search.batch = batch;
    }
    return plan;
}

std::int64_t ProbeSession::size_or(const std::string& memory, std::int64_t fallback) const {
    const auto it = sizes.find(memory);
    return it == sizes.end() ? fallback : it->second;
}

} // namespace kerncast::probe
