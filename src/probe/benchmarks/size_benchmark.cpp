// Cache size searches (thesis sec. 3.4): the onset of the verified change point of the
// latency-versus-footprint curve of each repetition.
#include "benchmark_support.hpp"
#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_size(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> sizes;
    double worst_p = 0;
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    std::int64_t largest_measured = 0;
    for (auto& [repetition, series] : by_repetition(b)) {
        std::vector<SizePoint> points;
        for (const auto* s : series) {
            if (s->size_bytes <= 0)
                bad_benchmark(b, "every size series needs size_bytes > 0");
            points.push_back({s->size_bytes, s->values});
        }
        std::sort(points.begin(), points.end(),
                  [](const auto& x, const auto& y) { return x.size_bytes < y.size_bytes; });
        largest_measured = std::max(largest_measured, points.back().size_bytes);
        const auto location = locate_size(points, context.options.change_point);
        LatencyCurve& curve = context.result.latency_curves.emplace_back();
        curve.benchmark = b.name;
        curve.memory = b.memory;
        curve.repetition = repetition;
        curve.unit = b.unit;
        for (const auto& point : points) {
            curve.footprint_bytes.push_back(static_cast<double>(point.size_bytes));
            curve.median_latency.push_back(point.timings.empty() ? 0.0 : median(point.timings));
        }
        if (!location)
            continue;
        curve.change_point_bytes = static_cast<double>(location->size_bytes);
        sizes.push_back(static_cast<double>(location->size_bytes));
        worst_p = std::max(worst_p, location->change.test.p_value);
        lower = location->size_bytes;
        upper = location->next_size_bytes;
    }
    if (sizes.empty()) {
        context.note(b, fmt::format("no verified change point up to {} B: the {} is at least that "
                                    "large (thesis sec. 3.4)",
                                    largest_measured, b.memory));
        return;
    }
    // A search at a forced carve-out: one value per carve-out, named by the shared
    // memory the kernel claimed (the carve-out held at least that much).
    const bool at_carveout = b.carveout_percent >= 0;
    const int shared_kib =
        at_carveout ? static_cast<int>((b.shared_bytes_per_block + 1023) / 1024) : -1;
    // The p-value enters with the level the CPD used (Bonferroni-corrected per split).
    Estimate e = summarize(sizes);
    e.p_value = worst_p;
    const auto reps = by_repetition(b).size();
    if (sizes.size() < reps) {
        e.confidence = Confidence::low;
        e.note = fmt::format("change verified in {} of {} repetitions", sizes.size(), reps);
    }
    if (at_carveout) {
        context.add(b, b.memory, fmt::format("size_bytes:shared_{}KiB", shared_kib), "B", e,
                    cache_size_bounds,
                    fmt::format("size in ({}, {}] B at carve-out preference {} % with {} B shared "
                                "memory per block",
                                lower, upper, b.carveout_percent, b.shared_bytes_per_block));
        context.result.values.back().carveout_shared_kib = shared_kib;
        return;
    }
    context.add(
        b, b.memory, "size_bytes", "B", e, cache_size_bounds,
        fmt::format("size in ({}, {}] B: onset of the verified change point", lower, upper));
}

} // namespace

std::vector<BenchmarkKind> size_kinds() {
    return {
        {"size", "size_bytes (size_bytes:shared_<K>KiB at a forced carve-out)",
         "fine_grained_chase<load kind>, one footprint per block (per-SM caches: batched over SMs, "
         "1 KiB to 1 MiB in 512 B steps; l2: random chain, one launch per footprint; constant: 64 "
         "B stride, one per launch), footprints chosen by search_cache_size (size_search.hpp)",
         AnalysisPass::measurement, analyse_size},
    };
}

} // namespace kerncast::probe::benchmarks
