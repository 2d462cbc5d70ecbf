// L2 partitions: near and far hit latencies seen from every SM.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/change_point.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_l2_partition(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> pooled;
    for (const auto& s : b.series)
        pooled.insert(pooled.end(), s.values.begin(), s.values.end());
    if (pooled.size() < 8)
        bad_benchmark(b, "needs at least 8 L2 hit times");
    std::sort(pooled.begin(), pooled.end());
    ChangePointOptions split;
    split.cost = SegmentCost::absolute_deviation;
    split.min_segment_length = std::max<std::size_t>(2, pooled.size() / 20);
    split.correct_for_selection = false;
    const auto change = opt_single_change_point(pooled, split);
    const std::span<const double> all(pooled);
    const double near = change ? median(all.subspan(0, change->index)) : median(all);
    const double far = change ? median(all.subspan(change->index)) : near;
    const bool two = change && far > near * (1 + context.options.min_partition_gap);
    context.add(b, b.memory, "partitions", "", summarize(std::vector<double>{two ? 2.0 : 1.0}),
                count_bounds,
                two ? fmt::format("L2 hits split into near {:.0f} and far {:.0f} cycles", near, far)
                    : fmt::format("one latency cluster ({:.0f} cycles)", near));
    if (two) {
        context.add(b, b.memory, "near_latency_cycles", "cycles",
                    summarize(all.subspan(0, change->index)), latency_bounds,
                    "L2 hit, near partition");
        context.add(b, b.memory, "far_latency_cycles", "cycles",
                    summarize(all.subspan(change->index)), latency_bounds, "L2 hit, far partition");
    }
}

} // namespace

// ---- device plans ----

// Every SM chases the same 4 MiB random chain in L2 (.cg skips L1): the per-load times split
// by the partition each line lives in.
void record_l2_partition(ProbeSession& session) {
    session.progress("l2: near/far latency from every SM");
    auto& b = session.add_benchmark("l2.partition", "l2_partition", "l2");
    b.chain = "random";
    const std::int64_t bytes = 4 * MiB;
    session.build_chain(session.sweep_first, bytes, 128, true);
    const auto blocks = static_cast<std::size_t>(session.sm_count);
    FineChase chase;
    chase.load = ProbeLoad::global_cg;
    chase.starts.assign(blocks, session.sweep_first);
    chase.lengths.assign(blocks, static_cast<std::uint32_t>(bytes / 128));
    chase.measure_count = 256;
    chase.warm = true;
    chase.dynamic_shared_bytes = chase.measure_count * 4;
    for (const BlockTimes& block : session.device.fine_grained_chase(chase)) {
        RawSeries s;
        s.label = "sm " + std::to_string(block.sm);
        s.size_bytes = bytes;
        s.stride_bytes = 128;
        s.sm_clock_mhz = block.sm_clock_mhz;
        s.values = block.times;
        b.series.push_back(std::move(s));
    }
}

// ---- registration ----

std::vector<BenchmarkKind> l2_partition_kinds() {
    return {
        {"l2_partition", "partitions, near_latency_cycles, far_latency_cycles",
         "fine_grained_chase<global_cg>, one block per SM over the same 4 MiB random chain, 256 "
         "timed loads each",
         AnalysisPass::measurement, analyse_l2_partition},
    };
}

} // namespace kerncast::probe::benchmarks
