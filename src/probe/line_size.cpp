#include "kerncast/probe/line_size.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/change_point.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace kerncast::probe {

std::optional<MissClassification> classify_misses(std::span<const double> timings, double alpha) {
    if (timings.size() < 4)
        return std::nullopt;
    std::vector<double> sorted(timings.begin(), timings.end());
    std::sort(sorted.begin(), sorted.end());
    ChangePointOptions options;
    // Absolute deviation: rare outliers far above the misses (interrupts, TLB walks) join
    // the miss cluster instead of forming their own.
    options.cost = SegmentCost::absolute_deviation;
    options.min_segment_length = 1;
    options.alpha = alpha;
    const auto split = opt_single_change_point(sorted, options);
    if (!split)
        return std::nullopt;
    const std::span<const double> low(sorted.data(), split->index);
    const std::span<const double> high(sorted.data() + split->index, sorted.size() - split->index);
    MissClassification classes;
    classes.hit_latency = median(low);
    classes.miss_latency = median(high);
    // Two clusters only when they are far apart relative to the hit latency: noise within
    // one cluster also has a "best" split, but its halves lie close together.
    if (classes.miss_latency - classes.hit_latency <
        0.25 * std::max(1.0, std::abs(classes.hit_latency)))
        return std::nullopt;
    classes.threshold = 0.5 * (classes.hit_latency + classes.miss_latency);
    classes.misses = static_cast<std::size_t>(std::count_if(
        timings.begin(), timings.end(), [&](double t) { return t > classes.threshold; }));
    return classes;
}

std::optional<LineSizeResult> line_size_from_misses(std::span<const double> timings,
                                                    int stride_bytes, double alpha) {
    KERNCAST_CHECK(stride_bytes > 0, "stride must be positive");
    const auto classes = classify_misses(timings, alpha);
    if (!classes || classes->misses < 3)
        return std::nullopt;
    std::vector<std::size_t> miss_positions;
    for (std::size_t k = 0; k < timings.size(); ++k)
        if (timings[k] > classes->threshold)
            miss_positions.push_back(k);
    std::map<std::size_t, std::size_t> spacing_counts;
    for (std::size_t k = 1; k < miss_positions.size(); ++k)
        ++spacing_counts[miss_positions[k] - miss_positions[k - 1]];
    const auto mode =
        std::max_element(spacing_counts.begin(), spacing_counts.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    LineSizeResult result;
    result.classes = *classes;
    result.spacings = miss_positions.size() - 1;
    result.line_bytes = static_cast<int>(mode->first) * stride_bytes;
    result.agreement = static_cast<double>(mode->second) / static_cast<double>(result.spacings);
    return result;
}

} // namespace kerncast::probe
