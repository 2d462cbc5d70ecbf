// Load and store bandwidths: the best launch shape's bytes over its median time.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/probe_device.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <utility>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_bandwidth(const RawBenchmark& b, AnalysisContext& context) {
    if (b.direction != "load" && b.direction != "store")
        bad_benchmark(b, "direction must be \"load\" or \"store\"");
    if (b.unit != "ms")
        bad_benchmark(b, "bandwidth series are in milliseconds (unit \"ms\")");
    const RawSeries* best = nullptr;
    double best_gbs = 0;
    for (const auto& s : b.series) {
        if (s.bytes <= 0)
            bad_benchmark(b, "bandwidth series need bytes > 0");
        const double gbs = static_cast<double>(s.bytes) / (median(s.values) * 1e-3) / 1e9;
        if (gbs > best_gbs) {
            best_gbs = gbs;
            best = &s;
        }
    }
    if (!best)
        bad_benchmark(b, "no series");
    std::vector<double> per_launch;
    for (double ms : best->values)
        per_launch.push_back(static_cast<double>(best->bytes) / (ms * 1e-3) / 1e9);
    context.add(b, b.memory, b.direction + "_bandwidth_gbs", "GB/s", summarize(per_launch),
                bandwidth_bounds,
                fmt::format("best of {} launch shapes: {} blocks x {} threads, {} B",
                            b.series.size(), best->blocks, best->threads, best->bytes));
}

// "L:S" (loads and stores a point) -> {L, S}; nullopt when the label is not that.
std::optional<std::pair<int, int>> parse_mix(const std::string& label) {
    int loads = -1, stores = -1;
    char colon = 0;
    std::istringstream in(label);
    if (!(in >> loads >> colon >> stores) || colon != ':' || !in.eof() || loads < 0 || stores < 0 ||
        loads + stores == 0)
        return std::nullopt;
    return std::pair{loads, stores};
}

// The DRAM's bandwidth by the load bytes in flight: each launch of one block an SM (there the
// threads an SM are the block's, which neither registers nor the block limit can lower: the
// block launched) keeps threads x loads x mix_stream_steps_in_flight x 16 B of loads in flight
// an SM; one value per launch shape, the bytes over each launch's time.
void add_in_flight_bandwidths(const RawBenchmark& b, AnalysisContext& context,
                              std::pair<int, int> mix,
                              const std::vector<const RawSeries*>& series) {
    const auto [loads, stores] = mix;
    for (const RawSeries* s : series) {
        if (s->blocks != context.record.device.sm_count || s->threads <= 0)
            continue;
        std::vector<double> per_launch;
        for (double ms : s->values)
            per_launch.push_back(static_cast<double>(s->bytes) / (ms * 1e-3) / 1e9);
        const double in_flight = static_cast<double>(s->threads) * loads *
                                 mix_stream_steps_in_flight * mix_stream_load_bytes;
        context.add(b, b.memory, "in_flight_bandwidth_gbs", "GB/s", summarize(per_launch),
                    bandwidth_bounds,
                    fmt::format("{} load(s) and {} store(s) a point, {} blocks x {} threads: {:g} "
                                "B of loads in flight an SM",
                                loads, stores, s->blocks, s->threads, in_flight));
        context.result.values.back().store_fraction =
            static_cast<double>(stores) / static_cast<double>(loads + stores);
        context.result.values.back().loads_in_flight_bytes_per_sm = in_flight;
    }
}

// Per mix (series label "L:S"), the best launch shape's bytes (loads plus stores) over its
// median time; one value per mix, at store fraction S / (L + S).
void analyse_mixed_bandwidth(const RawBenchmark& b, AnalysisContext& context) {
    if (b.unit != "ms")
        bad_benchmark(b, "bandwidth series are in milliseconds (unit \"ms\")");
    // By store fraction (then loads), so the values come in the machine file's order.
    const auto by_fraction = [](const std::pair<int, int>& x, const std::pair<int, int>& y) {
        return std::pair{x.second * (y.first + y.second), x.first} <
               std::pair{y.second * (x.first + x.second), y.first};
    };
    std::map<std::pair<int, int>, std::vector<const RawSeries*>, decltype(by_fraction)> mixes(
        by_fraction);
    for (const auto& s : b.series) {
        const auto mix = parse_mix(s.label);
        if (!mix)
            bad_benchmark(b, fmt::format("series label \"{}\" is not a mix \"LOADS:STORES\" of "
                                         "counts a point, at least one of them positive",
                                         s.label));
        if (s.bytes <= 0 || s.values.empty())
            bad_benchmark(b, fmt::format("mix {}: series need bytes > 0 and timings", s.label));
        mixes[*mix].push_back(&s);
    }
    if (mixes.empty())
        bad_benchmark(b, "no series");
    for (const auto& [mix, series] : mixes) {
        const RawSeries* best = nullptr;
        double best_gbs = 0;
        for (const RawSeries* s : series) {
            const double gbs = static_cast<double>(s->bytes) / (median(s->values) * 1e-3) / 1e9;
            if (gbs > best_gbs) {
                best_gbs = gbs;
                best = s;
            }
        }
        std::vector<double> per_launch;
        for (double ms : best->values)
            per_launch.push_back(static_cast<double>(best->bytes) / (ms * 1e-3) / 1e9);
        const auto [loads, stores] = mix;
        context.add(
            b, b.memory, "mixed_bandwidth_gbs", "GB/s", summarize(per_launch), bandwidth_bounds,
            fmt::format("{} load(s) and {} store(s) a point; best of {} launch shapes: "
                        "{} blocks x {} threads, {} B",
                        loads, stores, series.size(), best->blocks, best->threads, best->bytes));
        context.result.values.back().store_fraction =
            static_cast<double>(stores) / static_cast<double>(loads + stores);
        if (b.memory == "dram" && loads > 0)
            add_in_flight_bandwidths(b, context, mix, series);
    }
}

} // namespace

// ---- device plans ----

namespace {

// One benchmark: per block factor and thread count, a warm-up launch then 5 timed ones.
// bytes_per_launch > 0: bytes every launch moves; < 0: bytes per block (times blocks).
void record_bandwidth_sweep(ProbeSession& session, const std::string& memory,
                            const std::string& direction, const std::vector<int>& block_factors,
                            std::int64_t bytes_per_launch, const StreamLaunch& launch) {
    session.progress(fmt::format("{}: {} bandwidth", memory, direction));
    auto& b =
        session.add_benchmark(memory + "." + direction + "_bandwidth", "bandwidth", memory, "ms");
    b.direction = direction;
    for (int factor : block_factors) {
        for (int threads : {256, 512, 1024}) {
            const int blocks = session.sm_count * factor;
            session.device.stream(launch, blocks, threads); // warm-up
            session.device.synchronize();
            RawSeries s;
            s.blocks = blocks;
            s.threads = threads;
            s.bytes = bytes_per_launch < 0 ? -bytes_per_launch * blocks : bytes_per_launch;
            for (int rep = 0; rep < 5; ++rep)
                s.values.push_back(session.device.timed_stream_ms(launch, blocks, threads));
            b.series.push_back(std::move(s));
        }
    }
}

StreamLaunch stream_launch(StreamKernel kernel, std::int64_t count, int passes) {
    StreamLaunch launch;
    launch.kernel = kernel;
    launch.count = static_cast<std::size_t>(count);
    launch.passes = passes;
    return launch;
}

} // namespace

// The bandwidth of `memory` for each load/store mix (mix_stream_mixes) over slices of
// `slice_bytes` in the stream region, `slice_passes` / (loads + stores) passes a launch
// (so every mix moves about the same bytes), blocks = SMs x `block_factors`, threads
// 256/512/1024, and with `few_threads` also one block an SM of 64 and 128 threads (the DRAM's
// bandwidth by loads in flight where a kernel keeps few); the bytes of a launch are its loads
// plus its stores.
void record_mixed_bandwidths(ProbeSession& session, const std::string& memory,
                             std::int64_t slice_bytes, int slice_passes,
                             const std::vector<int>& block_factors, bool few_threads) {
    session.progress(fmt::format("{}: bandwidth of load/store mixes over slices of {}", memory,
                                 slice_bytes % MiB == 0
                                     ? fmt::format("{} MiB", slice_bytes / MiB)
                                     : fmt::format("{} KiB", slice_bytes / KiB)));
    auto& b = session.add_benchmark(memory + ".mixed_bandwidth", "mixed_bandwidth", memory, "ms");
    const std::int64_t count = slice_bytes / 16;
    for (const auto& [loads, stores] : mix_stream_mixes) {
        const int passes = std::max(1, slice_passes / (loads + stores));
        StreamLaunch launch = stream_launch(StreamKernel::mix_stream, count, passes);
        launch.loads = loads;
        launch.stores = stores;
        for (int factor : block_factors)
            for (int threads : {64, 128, 256, 512, 1024}) {
                if (threads < 256 && (factor != 1 || !few_threads))
                    continue;
                const int blocks = session.sm_count * factor;
                session.device.stream(launch, blocks, threads); // warm-up
                session.device.synchronize();
                RawSeries s;
                s.label = fmt::format("{}:{}", loads, stores);
                s.blocks = blocks;
                s.threads = threads;
                s.bytes = chain::stream_bytes(count, passes) * (loads + stores);
                for (int rep = 0; rep < 5; ++rep)
                    s.values.push_back(session.device.timed_stream_ms(launch, blocks, threads));
                b.series.push_back(std::move(s));
            }
    }
}

// The DRAM streams: loads alone and stores alone, then each load/store mix. They run in a
// region of their own, 5 slices of up to 1 GiB (as large as half the free memory allows), so
// a launch moves gigabytes: over the probe buffer (436 MB on the H200) a launch took 0.1 ms
// and its fixed time cost 4 % (lab/measured/h200-2026-11-27b). Below 640 MiB free the
// loads and stores alone stream over the probe buffer and the mixes are skipped.
void record_dram_bandwidths(ProbeSession& session) {
    using K = StreamKernel;
    const std::int64_t free_bytes = session.device.free_memory_bytes();
    const std::int64_t slice_bytes =
        std::min<std::int64_t>(1024 * MiB, free_bytes / 2 / mix_stream_max_slices / MiB * MiB);
    if (slice_bytes < 64 * MiB) {
        session.progress("dram: less than 640 MiB of device memory free; loads and stores "
                         "stream over the probe buffer, mixed bandwidths skipped");
        const std::int64_t dram_bytes =
            session.sweep_bytes + ProbeSession::batch_region_bytes * ProbeSession::max_batch;
        const std::int64_t dram_count = dram_bytes / 16;
        const std::int64_t dram_moved = chain::stream_bytes(dram_count, 1);
        record_bandwidth_sweep(session, "dram", "load", {1, 2, 4, 8}, dram_moved,
                               stream_launch(K::read_stream, dram_count, 1));
        record_bandwidth_sweep(session, "dram", "store", {1, 2, 4, 8}, dram_moved,
                               stream_launch(K::write_stream, dram_count, 1));
        return;
    }
    const std::int64_t region_bytes = slice_bytes * mix_stream_max_slices;
    session.device.allocate_stream_region(region_bytes);
    const std::int64_t count = region_bytes / 16;
    for (const auto& [direction, kernel] :
         {std::pair{"load", K::read_stream}, std::pair{"store", K::write_stream}}) {
        StreamLaunch launch = stream_launch(kernel, count, 1);
        launch.in_stream_region = true;
        record_bandwidth_sweep(session, "dram", direction, {1, 2, 4, 8},
                               chain::stream_bytes(count, 1), launch);
    }
    record_mixed_bandwidths(session, "dram", slice_bytes, 1, {1, 2, 4, 8}, true);
    session.device.release_stream_region();
}

// The L2 of each load/store mix: the slices of all mixes fit in a quarter of L2 (as the L2 load
// stream's array; within the near partition of a two-partition L2), so after the warm-up launch
// every load and store is an L2 hit; 100 / (loads + stores) passes a launch move 5 x the L2's
// size, as many bytes as a launch of the L2 load stream. A stencil's L2 traffic is a few
// stores among many loads (1 to 2-5 on the star), which an L2 may serve apart from the loads
// (lab/measured/h100-2026-11-26b/l2-mix, docs/accuracy.md).
void record_l2_mixed_bandwidths(ProbeSession& session) {
    const std::int64_t slice_bytes = session.l2_bytes / 4 / mix_stream_max_slices / 16 * 16;
    if (slice_bytes < 16 * KiB)
        return;
    session.device.allocate_stream_region(slice_bytes * mix_stream_max_slices);
    record_mixed_bandwidths(session, "l2", slice_bytes, 100, {1, 2, 4}, false);
    session.device.release_stream_region();
}

void record_bandwidths(ProbeSession& session) {
    using K = StreamKernel;
    record_dram_bandwidths(session);
    // L2: a quarter of L2, re-read 20 times (resident after the warm-up launch), with loads
    // that bypass L1 (each SM's share of it fits in L1: bandwidth_kernels.cuh).
    const std::int64_t l2_array = session.l2_bytes / 4 / 16 * 16;
    const int l2_passes = 20;
    const std::int64_t l2_moved = chain::stream_bytes(l2_array / 16, l2_passes);
    record_bandwidth_sweep(session, "l2", "load", {1, 2, 4}, l2_moved,
                           stream_launch(K::read_stream_l2, l2_array / 16, l2_passes));
    record_bandwidth_sweep(session, "l2", "store", {1, 2, 4}, l2_moved,
                           stream_launch(K::write_stream, l2_array / 16, l2_passes));
    record_l2_mixed_bandwidths(session);
    // L1: each block re-reads its own 16 KiB slice; bytes scale with the blocks (per block
    // here, record_bandwidth_sweep multiplies by the blocks: chain::slices_bytes).
    const std::int64_t slice = 16 * KiB;
    const int l1_passes = 100;
    const std::int64_t slice_moved = chain::slices_bytes(1, slice / 16, l1_passes);
    record_bandwidth_sweep(session, "l1", "load", {1, 2, 4}, -slice_moved,
                           stream_launch(K::read_slices, slice / 16, l1_passes));
    record_bandwidth_sweep(session, "l1", "store", {1, 2, 4}, -slice_moved,
                           stream_launch(K::write_slices, slice / 16, l1_passes));
    const std::int64_t shared_bytes = 32 * KiB;
    const std::int64_t shared_moved = chain::slices_bytes(1, shared_bytes / 16, l1_passes);
    record_bandwidth_sweep(session, "shared", "load", {1, 2, 4}, -shared_moved,
                           stream_launch(K::read_shared, shared_bytes / 16, l1_passes));
    record_bandwidth_sweep(session, "shared", "store", {1, 2, 4}, -shared_moved,
                           stream_launch(K::write_shared, shared_bytes / 16, l1_passes));
}

// ---- registration ----

std::vector<BenchmarkKind> bandwidth_kinds() {
    return {
        {"bandwidth", "<direction>_bandwidth_gbs",
         "read_stream/write_stream (dram, l2; L2 loads ld.global.cg), read_slices/write_slices "
         "(l1), "
         "read_shared/write_shared (shared); blocks = SMs x {1, 2, 4 (, 8)}, threads 256/512/1024, "
         "5 cudaEvent-timed launches each (unit ms)",
         AnalysisPass::measurement, analyse_bandwidth},
        {"mixed_bandwidth",
         "mixed_bandwidth_gbs (one per load/store mix); dram: in_flight_bandwidth_gbs (one per mix "
         "with loads and launch of one block an SM)",
         "mix_stream<L, S> (ld/st.global.cg, 4 grid-stride steps' loads in flight a thread; "
         "dram: slices of up to 1 GiB, one pass, blocks = SMs x {1, 2, 4, 8}, and one block an "
         "SM of 64 and 128 threads; l2: 5 slices in a quarter of L2, 100 / (L + S) passes, "
         "blocks = SMs x {1, 2, 4}), mixes L:S 1:0, 4:1, 3:1, 2:1, 3:2, 1:1, 1:2, 0:1; threads "
         "256/512/1024, 5 cudaEvent-timed launches each (unit ms)",
         AnalysisPass::measurement, analyse_mixed_bandwidth},
    };
}

} // namespace kerncast::probe::benchmarks
