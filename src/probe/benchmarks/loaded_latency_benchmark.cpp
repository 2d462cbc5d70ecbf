// DRAM latency under load (docs/probe.md, "Latency under load"): the unloaded chase of the
// dram latency benchmark, timed while the rest of the GPU streams a load/store mix at a chosen
// concurrency. Two values per (mix, streaming blocks), at the bandwidth the streams reached
// meanwhile: the chase's cycles per load minus the chase overhead, and the standard deviation
// of single loads timed one by one after it.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace kerncast::probe::benchmarks {

namespace {

// Series labels: the streams' loads and stores a point; the hop-by-hop series of the same
// launch carry the suffix.
constexpr const char* loads_alone = "1:0";
constexpr const char* loads_and_stores = "1:1";
constexpr const char* hops_suffix = " hops";

// The standard deviation of one hop-by-hop series (population; its timing overhead, the same
// for every hop, does not enter it).
double standard_deviation(const std::vector<double>& values) {
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double sum = 0;
    for (double v : values)
        sum += (v - mean) * (v - mean);
    return std::sqrt(sum / static_cast<double>(values.size()));
}

constexpr PhysicalBounds spread_bounds{0.0, 10000.0, "latency spread in cycles"};

// Groups the repetitions of one (label, blocks, threads) and gives each its latency (cycles
// per load minus the overhead), bandwidth (bytes over both chases' milliseconds) and, from the
// hop-by-hop series, spread.
void analyse_loaded_latency(const RawBenchmark& b, AnalysisContext& context) {
    if (b.unit != "cycles")
        bad_benchmark(b, "loaded-latency series are in cycles (unit \"cycles\")");
    if (b.series.empty())
        bad_benchmark(b, "no series");
    const ChaseOverhead overhead = chase_overhead_of(b.memory, context);
    using Key = std::tuple<double, std::int64_t, std::int64_t>;
    std::map<Key, std::vector<const RawSeries*>> groups, hop_groups;
    for (const auto& s : b.series) {
        const bool hops = s.label.ends_with(hops_suffix);
        const std::string mix =
            hops ? s.label.substr(0, s.label.size() - std::string(hops_suffix).size()) : s.label;
        double store_fraction = -1;
        if (mix == loads_alone)
            store_fraction = 0;
        else if (mix == loads_and_stores)
            store_fraction = 0.5;
        else
            bad_benchmark(b, fmt::format("series label \"{}\" is not a mix \"{}\" or \"{}\" "
                                         "(with \"{}\" for the hop-by-hop times)",
                                         s.label, loads_alone, loads_and_stores, hops_suffix));
        if (hops) {
            if (s.values.size() < 2)
                bad_benchmark(b, fmt::format("{}, {} blocks: a hop-by-hop series needs at least "
                                             "two hops",
                                             s.label, s.blocks));
            hop_groups[{store_fraction, s.blocks, s.threads}].push_back(&s);
            continue;
        }
        if (s.values.size() != 2 || !(s.values[1] > 0) || s.blocks < 0 || s.bytes < 0 ||
            (s.blocks > 0) != (s.threads > 0))
            bad_benchmark(b, fmt::format("mix {}, {} blocks: a series holds [cycles per load, "
                                         "chase milliseconds > 0], streaming blocks and threads "
                                         "(both 0 when nothing streams) and bytes >= 0",
                                         s.label, s.blocks));
        groups[{store_fraction, s.blocks, s.threads}].push_back(&s);
    }
    for (const auto& [key, series] : hop_groups)
        if (!groups.count(key))
            bad_benchmark(b, fmt::format("hop-by-hop series of {} blocks x {} threads without "
                                         "their launch's series",
                                         std::get<1>(key), std::get<2>(key)));
    for (const auto& [key, series] : groups) {
        const auto& [store_fraction, blocks, threads] = key;
        std::vector<double> latencies, bandwidths;
        for (const RawSeries* s : series) {
            latencies.push_back(s->values[0] - overhead.cycles);
            bandwidths.push_back(static_cast<double>(s->bytes) / (s->values[1] * 1e-3) / 1e9);
        }
        const double bandwidth_gbs = median(bandwidths);
        const std::string load =
            blocks == 0
                ? std::string("nothing streaming beside it")
                : fmt::format("while {} blocks x {} threads streamed {} at {:.1f} GB/s "
                              "(median of {})",
                              blocks, threads, store_fraction == 0 ? "loads" : "a store a load",
                              bandwidth_gbs, series.size());
        context.add(b, b.memory, "loaded_latency_cycles", "cycles", summarize(latencies),
                    latency_bounds,
                    fmt::format("{}; minus {:g} cycles overhead ({})", load, overhead.cycles,
                                overhead.source));
        context.result.values.back().store_fraction = store_fraction;
        context.result.values.back().bandwidth_gbs = bandwidth_gbs;
        const auto hops = hop_groups.find(key);
        if (hops == hop_groups.end())
            continue; // a record from before the hop-by-hop chase
        std::vector<double> deviations;
        for (const RawSeries* s : hops->second)
            deviations.push_back(standard_deviation(s->values));
        context.add(b, b.memory, "loaded_latency_stddev_cycles", "cycles", summarize(deviations),
                    spread_bounds,
                    fmt::format("standard deviation of {} hops timed one by one, median of {}",
                                hops->second.front()->values.size(), deviations.size()));
        context.result.values.back().store_fraction = store_fraction;
        context.result.values.back().bandwidth_gbs = bandwidth_gbs;
    }
}

} // namespace

// ---- device plans ----

// The dram latency chain (random over 4x L2, evicted from L2 once), chased 2048 loads at a
// time, each chase going on where the last one stopped (on lines no chase loaded), while 0..31
// blocks of 64 threads an SM stream loads alone and a store a load over two slices of up to 1 GiB.
// Each stream thread keeps 4 loads of 16 B in flight, so the steps run from no load to beyond
// what saturates the DRAM (Little's law: an H200's 4.5 TB/s at 1.4 us is about 48 kB in
// flight an SM, 12 blocks). After the 2048 loads timed together (the latency), 1024 more are
// timed one by one (its spread, which a block's slowest warp depends on: docs/accuracy.md,
// notes 2026-11-27d). Three repetitions of each.
void record_loaded_latency(ProbeSession& session) {
    const std::int64_t free_bytes = session.device.free_memory_bytes();
    const std::int64_t slice_bytes =
        std::min<std::int64_t>(1024 * MiB, free_bytes / 2 / 2 / MiB * MiB);
    if (slice_bytes < 64 * MiB) {
        session.progress("dram: less than 256 MiB of device memory free; latency under load "
                         "skipped");
        return;
    }
    constexpr int stream_threads = 64;
    const int capacity = session.device.loaded_chase_blocks_per_sm(stream_threads);
    const std::int64_t chain_bytes =
        std::min<std::int64_t>(4 * session.l2_bytes, session.sweep_bytes);
    session.progress(
        fmt::format("dram: latency under load (streams over slices of {} MiB)", slice_bytes / MiB));
    session.build_chain(session.sweep_first, chain_bytes, 128, true);
    StreamLaunch evict; // as the dram latency benchmark: over the batch regions, > 2x L2
    evict.kernel = StreamKernel::write_stream;
    evict.count =
        static_cast<std::size_t>(ProbeSession::batch_region_bytes * ProbeSession::max_batch / 16);
    session.device.stream(evict, session.sm_count * 4, 512);
    session.device.synchronize();
    session.device.allocate_stream_region(2 * slice_bytes);
    auto& b = session.add_benchmark("dram.loaded_latency", "loaded_latency", "dram");
    b.chain = "random";
    b.note = "the dram latency chain, chased while other blocks stream; values: [cycles per "
             "load, milliseconds of both chases]; \" hops\" series: each timed hop's cycles";
    LoadedChase chase;
    chase.start = session.sweep_first;
    chase.iterations = 2048;
    chase.hop_iterations = 1024;
    chase.stream_threads = stream_threads;
    chase.slice_count = static_cast<std::size_t>(slice_bytes / 16);
    for (int stores : {0, 1})
        for (int per_sm : {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 31}) {
            // The chase's block takes one of an SM's slots.
            if (per_sm > 0 && per_sm > capacity - 1)
                break;
            chase.stores = stores;
            chase.stream_blocks = per_sm * session.sm_count;
            for (int rep = 0; rep < std::max(3, session.options.repetitions); ++rep) {
                const LoadedChaseTiming t = session.device.loaded_chase(chase);
                chase.start = t.next_start;
                RawSeries s;
                s.label = stores == 0 ? loads_alone : loads_and_stores;
                s.repetition = rep;
                s.size_bytes = chain_bytes;
                s.stride_bytes = 128;
                s.blocks = chase.stream_blocks;
                s.threads = per_sm > 0 ? stream_threads : 0;
                s.bytes = t.streamed_bytes;
                s.sm_clock_mhz = t.sm_clock_mhz;
                s.values = {t.cycles_per_load, t.chase_ms};
                RawSeries hops = s;
                hops.label += hops_suffix;
                hops.bytes = 0;
                hops.values = t.hop_cycles;
                b.series.push_back(std::move(s));
                b.series.push_back(std::move(hops));
            }
        }
    session.device.release_stream_region();
}

// ---- registration ----

std::vector<BenchmarkKind> loaded_latency_kinds() {
    return {
        {"loaded_latency",
         "loaded_latency_cycles and loaded_latency_stddev_cycles (one each per mix and "
         "streaming blocks, with the bandwidth the streams reached)",
         "loaded_chase<<<1 + SMs x k, 64>>>: block 0's thread 0 chases 2048 loads "
         "(ld.global.cg) of the dram latency chain after 200 us of streaming, then 1024 more "
         "each timed alone; blocks 1.. stream loads (1:0) or a store a load (1:1; "
         "ld/st.global.cg, 16 B, 4 loads in flight a thread) over two slices of up to 1 GiB "
         "until the chase ends; k = 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 31 (as an SM holds); 3 "
         "repetitions; values [cycles per load, ms of both chases], bytes = bytes streamed "
         "meanwhile; \"<mix> hops\" series: the timed hops' cycles",
         AnalysisPass::measurement, analyse_loaded_latency},
    };
}

} // namespace kerncast::probe::benchmarks
