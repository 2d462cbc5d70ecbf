#include "kerncast/probe/tag_line.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace kerncast::probe {

namespace {

// A stride "missed" when at least half of its loads did (the chase's tags overflowed).
constexpr double missed_fraction = 0.5;
// Clean: the strides up to the line missed, and those beyond hit, in at least 90 % of loads.
constexpr double clean_fraction = 0.9;

std::map<int, std::vector<double>> pooled_by_stride(std::span<const StrideTimings> series) {
    std::map<int, std::vector<double>> pooled;
    for (const StrideTimings& s : series) {
        if (s.stride_bytes <= 0)
            throw_input_error(fmt::format("tag line: stride {} B is not positive", s.stride_bytes));
        auto& times = pooled[s.stride_bytes];
        times.insert(times.end(), s.timings.begin(), s.timings.end());
    }
    int previous = 0;
    for (const auto& [stride, times] : pooled) {
        if (previous != 0 && stride != 2 * previous)
            throw_input_error(
                fmt::format("tag line: strides must double from the smallest ({} B follows {} B)",
                            stride, previous));
        previous = stride;
    }
    return pooled;
}

bool is_clean(const std::vector<StrideMisses>& strides, int line_bytes) {
    return std::all_of(strides.begin(), strides.end(), [&](const StrideMisses& s) {
        return s.stride_bytes <= line_bytes ? s.miss_fraction >= clean_fraction
                                            : s.miss_fraction <= 1 - clean_fraction;
    });
}

} // namespace

TagLineResult tag_line_from_strides(std::span<const StrideTimings> over_capacity,
                                    std::span<const double> reference_hits, double alpha) {
    const auto pooled = pooled_by_stride(over_capacity);
    TagLineResult result;
    std::vector<double> all(reference_hits.begin(), reference_hits.end());
    for (const auto& [stride, times] : pooled)
        all.insert(all.end(), times.begin(), times.end());
    const auto classes = classify_misses(all, alpha);
    if (pooled.empty() || !classes) {
        result.problem = "the times form one cluster (every load a hit, or every one a miss)";
        return result;
    }
    result.classes = *classes;
    for (const auto& [stride, times] : pooled) {
        const auto misses = std::count_if(times.begin(), times.end(),
                                          [&](double t) { return t > classes->threshold; });
        result.strides.push_back(
            {stride,
             times.empty() ? 0.0 : static_cast<double>(misses) / static_cast<double>(times.size()),
             times.size()});
    }
    const auto first_hit =
        std::find_if(result.strides.begin(), result.strides.end(),
                     [](const StrideMisses& s) { return s.miss_fraction < missed_fraction; });
    if (first_hit == result.strides.begin()) {
        result.problem = fmt::format("the chase at the smallest stride ({} B) hit: the array "
                                     "fits the cache, so its size was not beyond the capacity",
                                     first_hit->stride_bytes);
        return result;
    }
    if (first_hit == result.strides.end()) {
        result.problem = fmt::format(
            "every stride up to {} B missed: the tags never sufficed (a line beyond that, or "
            "sets picked by low address bits, which a power-of-two stride fills unevenly)",
            result.strides.back().stride_bytes);
        return result;
    }
    result.line_bytes = std::prev(first_hit)->stride_bytes;
    result.clean = is_clean(result.strides, result.line_bytes);
    return result;
}

} // namespace kerncast::probe
