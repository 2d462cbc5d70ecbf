// Load latencies: the median chase step minus the chase overhead (thesis sec. 4.4).
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_latency(const RawBenchmark& b, AnalysisContext& context) {
    if (b.series.empty())
        bad_benchmark(b, "no series");
    std::vector<const RawSeries*> all;
    for (const auto& s : b.series)
        all.push_back(&s);
    std::vector<double> cycles = medians(all);
    double overhead_cycles = 0;
    std::string source = "none recorded";
    if (auto it = context.overheads.find(b.memory); it != context.overheads.end()) {
        overhead_cycles = it->second;
        source = "\"" + b.memory + "\" overhead";
    } else if (auto common = context.overheads.find(""); common != context.overheads.end()) {
        overhead_cycles = common->second;
        source = "common overhead";
    }
    for (auto& c : cycles)
        c -= overhead_cycles;
    context.add(b, b.memory, "latency_cycles", "cycles", summarize(cycles), latency_bounds,
                fmt::format("plain chase, {} chain; minus {:g} cycles overhead ({})",
                            b.chain.empty() ? "sequential" : b.chain, overhead_cycles, source));
}

} // namespace

std::vector<BenchmarkKind> latency_kinds() {
    return {
        {"latency", "latency_cycles: plain chase step minus the overhead",
         "plain_chase<<<1, 32>>>, 4096 steps of 128 B (l2: 4 MiB random chain; dram: random over "
         "4x L2 after evicting it with write_stream; constant: wrap at 1 / 16 KiB, 64 B stride); "
         "shared_chase<<<1, 32>>> for shared",
         AnalysisPass::measurement, analyse_latency},
    };
}

} // namespace kerncast::probe::benchmarks
