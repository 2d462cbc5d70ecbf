// Load and store bandwidths: the best launch shape's bytes over its median time.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

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

void record_bandwidths(ProbeSession& session) {
    using K = StreamKernel;
    const std::int64_t dram_bytes =
        session.sweep_bytes + ProbeSession::batch_region_bytes * ProbeSession::max_batch;
    const std::int64_t dram_count = dram_bytes / 16;
    const std::int64_t dram_moved = chain::stream_bytes(dram_count, 1);
    record_bandwidth_sweep(session, "dram", "load", {1, 2, 4, 8}, dram_moved,
                           stream_launch(K::read_stream, dram_count, 1));
    record_bandwidth_sweep(session, "dram", "store", {1, 2, 4, 8}, dram_moved,
                           stream_launch(K::write_stream, dram_count, 1));
    // L2: a quarter of L2, re-read 20 times (resident after the warm-up launch), with loads
    // that bypass L1 (each SM's share of it fits in L1: bandwidth_kernels.cuh).
    const std::int64_t l2_array = session.l2_bytes / 4 / 16 * 16;
    const int l2_passes = 20;
    const std::int64_t l2_moved = chain::stream_bytes(l2_array / 16, l2_passes);
    record_bandwidth_sweep(session, "l2", "load", {1, 2, 4}, l2_moved,
                           stream_launch(K::read_stream_l2, l2_array / 16, l2_passes));
    record_bandwidth_sweep(session, "l2", "store", {1, 2, 4}, l2_moved,
                           stream_launch(K::write_stream, l2_array / 16, l2_passes));
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
    };
}

} // namespace kerncast::probe::benchmarks
