// Load and store bandwidths: the best launch shape's bytes over its median time.
#include "benchmark_support.hpp"
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

std::vector<BenchmarkKind> bandwidth_kinds() {
    return {
        {"bandwidth", "<direction>_bandwidth_gbs",
         "read_stream/write_stream (dram, l2), read_slices/write_slices (l1), "
         "read_shared/write_shared (shared); blocks = SMs x {1, 2, 4 (, 8)}, threads 256/512/1024, "
         "5 cudaEvent-timed launches each (unit ms)",
         AnalysisPass::measurement, analyse_bandwidth},
    };
}

} // namespace kerncast::probe::benchmarks
