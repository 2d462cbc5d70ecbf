// Line sizes from the spacing of misses in a 4-byte-stride chase (thesis sec. 4.3).
#include "benchmark_support.hpp"
#include "kerncast/probe/line_size.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_line(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> lines;
    double worst_agreement = 1;
    for (const auto& s : b.series) {
        if (s.stride_bytes <= 0)
            bad_benchmark(b, "line series need stride_bytes > 0");
        const auto found = line_size_from_misses(s.values, s.stride_bytes, context.options.alpha);
        if (!found)
            continue;
        lines.push_back(found->line_bytes);
        worst_agreement = std::min(worst_agreement, found->agreement);
    }
    if (lines.empty()) {
        context.note(b, "no hit/miss pattern in the times (array not beyond the cache?)");
        return;
    }
    Estimate e = summarize(lines);
    if (worst_agreement < context.options.min_line_agreement) {
        e.confidence = Confidence::low;
        e.note = fmt::format("only {:.0f} % of miss spacings agree", 100 * worst_agreement);
    }
    const int bytes = static_cast<int>(e.value);
    if (bytes > 0 && (bytes & (bytes - 1)) != 0) {
        e.confidence = Confidence::low;
        e.note = "not a power of two";
    }
    context.add(
        b, b.memory, "line_bytes", "B", e, line_size_bounds,
        fmt::format("most frequent miss spacing; {:.0f} % agreement", 100 * worst_agreement));
}

} // namespace

std::vector<BenchmarkKind> line_kinds() {
    return {
        {"line", "line_bytes: most frequent miss spacing",
         "fine_grained_chase with a 4 B stride over twice the cache, 2048 timed loads, 2 "
         "repetitions (l2: cold misses over 64 KiB never touched before; constant_l1: 4x its size)",
         AnalysisPass::measurement, analyse_line},
    };
}

} // namespace kerncast::probe::benchmarks
