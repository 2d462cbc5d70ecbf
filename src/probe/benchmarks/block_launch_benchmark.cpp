// The block launch rate: how many thread blocks the GPU's block scheduler starts per SM clock
// cycle, device-wide. It is the rate the volume model's "launch" limiter divides the thread
// blocks by (docs/volume-model.md, "Limiters"). Empty blocks of one warp, in grids large
// enough that the fixed cost of a launch is amortised: the blocks then run no longer than it
// takes to start them, so blocks over event time is the rate the scheduler starts them at. An
// empty block still holds its SM slot while it starts and retires, so this is the upper bound
// of starting blocks -- the bound the limiter needs.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <cmath>
#include <fmt/format.h>

namespace kerncast::probe::benchmarks {

namespace {

// Generous envelopes (statistics.hpp): a scheduler starting fewer than one block per 100
// cycles, or more than 16 per cycle, is a failed measurement (an optimised-away launch, a
// wrong clock), not a GPU.
constexpr PhysicalBounds block_launch_bounds{0.01, 16.0, "block launches per cycle"};
constexpr PhysicalBounds block_rate_bounds{1.0e6, 1.0e12, "block launches per second"};

// The threads of each block (one warp: the case the launch limiter is about) and the grids.
constexpr int block_launch_threads = 32;
constexpr int block_launch_grids[] = {1 << 18, 1 << 19, 1 << 20};
constexpr int block_launch_repetitions = 3;

// Blocks per second of one series [blocks, threads_per_block, milliseconds].
double blocks_per_second(const RawBenchmark& b, const RawSeries& s) {
    if (s.values.size() != 3)
        bad_benchmark(b, "each block_launch series holds [blocks, threads_per_block, "
                         "milliseconds]");
    const double blocks = s.values[0];
    const double threads = s.values[1];
    const double ms = s.values[2];
    if (!(blocks >= 1) || !std::isfinite(blocks) || blocks != std::floor(blocks))
        bad_benchmark(b,
                      fmt::format("blocks must be a whole number of at least 1, got {:g}", blocks));
    if (!(threads >= 1) || !std::isfinite(threads) || threads != std::floor(threads))
        bad_benchmark(
            b, fmt::format("threads_per_block must be a whole number of at least 1, got {:g}",
                           threads));
    if (!(ms > 0) || !std::isfinite(ms))
        bad_benchmark(b, fmt::format("milliseconds must be positive, got {:g}", ms));
    return blocks / (ms * 1e-3);
}

// Blocks per second of every series; blocks per cycle = that / the SM clock the clock kind
// measured (a calibration, analysed before this kind). Without a measured clock the rate per
// cycle is left out, and a note says so.
void analyse_block_launch(const RawBenchmark& b, AnalysisContext& context) {
    if (b.series.empty())
        bad_benchmark(b, "no series");
    std::vector<double> per_second;
    for (const auto& s : b.series)
        per_second.push_back(blocks_per_second(b, s));
    context.add(b, "", "block_launches_per_s", "blocks/s", summarize(per_second), block_rate_bounds,
                "empty blocks over cudaEvent time of the launch");
    const ProbeValue* clock = context.result.find("", "sm_clock_mhz");
    if (!clock || !clock->estimate.within_bounds || clock->estimate.value <= 0) {
        context.note(b, "no measured SM clock (clock benchmark), so blocks per second only");
        return;
    }
    std::vector<double> per_cycle;
    for (double rate : per_second)
        per_cycle.push_back(rate / (clock->estimate.value * 1e6));
    context.add(b, "", "block_launches_per_cycle", "blocks/cycle", summarize(per_cycle),
                block_launch_bounds,
                fmt::format("empty blocks per second over the measured SM clock ({:g} MHz); an "
                            "upper bound of starting blocks (an empty block holds its SM slot "
                            "only briefly)",
                            clock->estimate.value));
}

} // namespace

// ---- device plan ----

void record_block_launch(ProbeSession& session) {
    session.progress("block_launch: empty blocks of one warp");
    auto& b = session.add_benchmark("block_launch", "block_launch", "", "ms");
    for (int rep = 0; rep < block_launch_repetitions; ++rep)
        for (int blocks : block_launch_grids) {
            RawSeries s;
            s.repetition = rep;
            s.values = {static_cast<double>(blocks), static_cast<double>(block_launch_threads),
                        session.device.empty_blocks_ms(blocks, block_launch_threads)};
            b.series.push_back(std::move(s));
        }
}

// ---- registration ----

std::vector<BenchmarkKind> block_launch_kinds() {
    return {
        {"block_launch",
         "block_launches_per_s, block_launches_per_cycle: thread blocks the block scheduler "
         "starts per second and per SM cycle (upper bound: empty blocks)",
         "empty_block<<<G, 32>>> for G = 2^18, 2^19, 2^20 between two cudaEvents after a "
         "warm-up launch, 3 repetitions; each series is [blocks, threads_per_block, "
         "milliseconds]",
         AnalysisPass::measurement, analyse_block_launch},
    };
}

} // namespace kerncast::probe::benchmarks
