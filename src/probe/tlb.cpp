#include "kerncast/probe/tlb.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace kerncast::probe {

std::vector<std::int64_t> tlb_footprints(std::int64_t stride_bytes, std::int64_t max_bytes,
                                         int points_per_octave, std::int64_t min_pages) {
    KERNCAST_CHECK(stride_bytes > 0 && points_per_octave > 0 && min_pages > 0,
                   "TLB footprints need a positive stride, density and start");
    const std::int64_t max_pages = max_bytes / stride_bytes;
    std::vector<std::int64_t> footprints;
    for (int k = 0;; ++k) {
        const auto pages = static_cast<std::int64_t>(
            std::llround(static_cast<double>(min_pages) *
                         std::exp2(static_cast<double>(k) / points_per_octave)));
        if (pages > max_pages)
            break;
        if (footprints.empty() || footprints.back() != pages * stride_bytes)
            footprints.push_back(pages * stride_bytes);
    }
    return footprints;
}

std::vector<std::int64_t> tlb_refinement_footprints(const std::vector<SizePoint>& points,
                                                    const std::vector<StaircaseStep>& steps,
                                                    std::int64_t stride_bytes,
                                                    int max_points_per_step) {
    KERNCAST_CHECK(stride_bytes > 0 && max_points_per_step > 0, "bad refinement request");
    std::vector<std::int64_t> footprints;
    for (const auto& step : steps) {
        KERNCAST_CHECK(step.onset_index > 0 && step.onset_index < points.size(),
                       "step outside the curve");
        const std::int64_t below = points[step.onset_index - 1].size_bytes / stride_bytes;
        const std::int64_t above = points[step.onset_index].size_bytes / stride_bytes;
        const std::int64_t gap = above - below; // in pages
        if (gap <= 1)
            continue;
        const std::int64_t count = std::min<std::int64_t>(max_points_per_step, gap - 1);
        for (std::int64_t k = 1; k <= count; ++k)
            footprints.push_back((below + std::max<std::int64_t>(1, gap * k / (count + 1))) *
                                 stride_bytes);
    }
    std::sort(footprints.begin(), footprints.end());
    footprints.erase(std::unique(footprints.begin(), footprints.end()), footprints.end());
    std::erase_if(footprints, [&](std::int64_t f) {
        return std::any_of(points.begin(), points.end(),
                           [&](const SizePoint& p) { return p.size_bytes == f; });
    });
    return footprints;
}

TlbCurve measure_tlb_curve(const MeasureFootprints& measure, std::int64_t stride_bytes,
                           std::int64_t max_bytes, const TlbCurveOptions& options) {
    TlbCurve curve;
    const auto add = [&](const std::vector<std::int64_t>& footprints) {
        auto timings = measure(footprints);
        KERNCAST_CHECK(timings.size() == footprints.size(), "one timing vector per footprint");
        ++curve.launches;
        for (std::size_t k = 0; k < footprints.size(); ++k) {
            KERNCAST_CHECK(!timings[k].empty(), "a footprint without timings");
            curve.points.push_back({footprints[k], std::move(timings[k])});
        }
        std::sort(curve.points.begin(), curve.points.end(),
                  [](const auto& a, const auto& b) { return a.size_bytes < b.size_bytes; });
    };
    const auto coarse =
        tlb_footprints(stride_bytes, max_bytes, options.points_per_octave, options.min_pages);
    if (coarse.empty())
        return curve;
    add(coarse);
    for (int round = 0; round < options.max_refinements; ++round) {
        std::vector<std::vector<double>> vectors;
        for (const auto& p : curve.points)
            vectors.push_back(p.timings);
        const auto more =
            tlb_refinement_footprints(curve.points, find_steps(vectors, options.staircase),
                                      stride_bytes, options.max_points_per_step);
        if (more.empty())
            break;
        add(more);
    }
    return curve;
}

std::vector<TlbStep> tlb_steps(const std::vector<SizePoint>& points,
                               const StaircaseOptions& options) {
    std::vector<std::vector<double>> vectors;
    vectors.reserve(points.size());
    for (const auto& p : points)
        vectors.push_back(p.timings);
    std::vector<TlbStep> result;
    for (const auto& step : find_steps(vectors, options)) {
        TlbStep s;
        s.reach_bytes = points[step.onset_index - 1].size_bytes;
        s.next_bytes = points[step.onset_index].size_bytes;
        s.miss_cycles = step.height;
        s.p_value = step.test.p_value;
        s.alpha = step.test.alpha;
        result.push_back(s);
    }
    return result;
}

std::optional<PageSizeInference> infer_page_size(const std::vector<StrideReach>& reaches,
                                                 double tolerance) {
    if (reaches.empty())
        return std::nullopt;
    std::vector<StrideReach> sorted = reaches;
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.stride_bytes < b.stride_bytes; });
    std::optional<PageSizeInference> best;
    for (const auto& candidate : sorted) {
        const auto page = static_cast<double>(candidate.stride_bytes);
        // E fitted as the median of reach / max(s, P): one disagreeing stride cannot move it.
        std::vector<double> entries;
        for (const auto& r : sorted)
            entries.push_back(r.reach_bytes / std::max(page, static_cast<double>(r.stride_bytes)));
        const double fitted = median(entries);
        int agreeing = 0;
        for (const auto& r : sorted) {
            const double predicted = fitted * std::max(page, static_cast<double>(r.stride_bytes));
            agreeing += std::abs(r.reach_bytes / predicted - 1.0) <= tolerance;
        }
        if (!best || agreeing > best->agreeing_strides) {
            PageSizeInference inference;
            inference.page_bytes = candidate.stride_bytes;
            inference.entries = fitted;
            inference.agreeing_strides = agreeing;
            best = inference;
        }
    }
    best->strides = static_cast<int>(sorted.size());
    best->at_least = best->page_bytes == sorted.back().stride_bytes;
    best->at_most = best->page_bytes == sorted.front().stride_bytes;
    return best;
}

} // namespace kerncast::probe
