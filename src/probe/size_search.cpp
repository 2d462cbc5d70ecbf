#include "kerncast/probe/size_search.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace kerncast::probe {

bool timings_changed(const std::vector<double>& baseline, const std::vector<double>& timings,
                     const SizeSearchOptions& options) {
    const KsTestResult test = ks_two_sample_test(baseline, timings, options.alpha);
    return test.reject && test.statistic >= options.min_effect;
}

std::optional<SizeLocation> locate_size(const std::vector<SizePoint>& points,
                                        const ChangePointOptions& options) {
    std::vector<std::vector<double>> vectors;
    vectors.reserve(points.size());
    for (const auto& point : points)
        vectors.push_back(point.timings);
    const std::vector<double> reduced = geometric_reduction(vectors, options.reduction);
    const auto change = detect_change_point(reduced, options);
    if (!change)
        return std::nullopt;
    // Opt places a mean shift; misses in a set-associative cache grow gradually (a ramp),
    // and the shift lands inside the ramp. The onset is the start of the contiguous run of
    // points, ending at the change, each above the noise band (median + 3 robust sigmas) of
    // all points before it. Isolated early blips (thesis sec. 4.2.2) are not contiguous with
    // the change and stay ignored.
    std::size_t onset = change->index;
    while (onset > 2) {
        const std::span<const double> before(reduced.data(), onset - 1);
        const double band =
            median(before) + std::max(3.0 * 1.4826 * median_absolute_deviation(before), 1e-12);
        if (reduced[onset - 1] <= band)
            break;
        --onset;
    }
    SizeLocation location;
    location.change = *change;
    location.onset_index = onset;
    location.size_bytes = points[onset - 1].size_bytes;
    location.next_size_bytes = points[onset].size_bytes;
    return location;
}

namespace {

// The state of one search (thesis sec. 3.2-3.4): every size measured so far and the counts
// of the result. Each step is one method.
class SizeSearch {
public:
    SizeSearch(const MeasureSizes& measure, const SizeSearchOptions& options)
        : measure_(measure), options_(options) {}

    SizeSearchResult run() {
        ensure({options_.start_bytes});
        baseline_ = measured_.at(options_.start_bytes);
        auto [lower, upper] = double_until_change();
        if (upper == 0) {
            result_.exceeds_max = true;
            result_.lower_bytes = lower;
            result_.upper_bytes = options_.max_bytes;
        } else {
            std::tie(lower, upper) = narrow(lower, upper);
            result_.lower_bytes = lower;
            result_.upper_bytes = upper;
            sweep_around(lower, upper);
            refine();
        }
        for (auto& [size, timings] : measured_)
            result_.points.push_back({size, std::move(timings)});
        return std::move(result_);
    }

private:
    // Measures the sizes not measured yet, batch by batch.
    void ensure(std::vector<std::int64_t> sizes) {
        std::erase_if(sizes, [&](std::int64_t s) { return measured_.count(s) > 0; });
        for (std::size_t first = 0; first < sizes.size();
             first += static_cast<std::size_t>(options_.batch)) {
            const std::size_t last =
                std::min(sizes.size(), first + static_cast<std::size_t>(options_.batch));
            const std::vector<std::int64_t> chunk(sizes.begin() + static_cast<long>(first),
                                                  sizes.begin() + static_cast<long>(last));
            auto timings = measure_(chunk);
            KERNCAST_CHECK(timings.size() == chunk.size(), "one timing vector per size");
            ++result_.rounds;
            for (std::size_t k = 0; k < chunk.size(); ++k) {
                KERNCAST_CHECK(!timings[k].empty(), "a measurement returned no timings");
                measured_.emplace(chunk[k], std::move(timings[k]));
                ++result_.measurements;
            }
        }
    }

    bool changed(std::int64_t size) const {
        return timings_changed(baseline_, measured_.at(size), options_);
    }

    // Step 1 (sec. 3.2): double until the times differ from the baseline. With batches the
    // doubling sizes go out together, batch by batch, until one of them changed. Returns
    // (last unchanged, first changed); first changed is 0 when none did up to max_bytes.
    std::pair<std::int64_t, std::int64_t> double_until_change() {
        std::vector<std::int64_t> doubling;
        for (std::int64_t size = 2 * options_.start_bytes; size <= options_.max_bytes; size *= 2)
            doubling.push_back(size);
        std::int64_t lower = options_.start_bytes;
        for (std::size_t first = 0; first < doubling.size();
             first += static_cast<std::size_t>(options_.batch)) {
            const std::size_t last =
                std::min(doubling.size(), first + static_cast<std::size_t>(options_.batch));
            ensure({doubling.begin() + static_cast<long>(first),
                    doubling.begin() + static_cast<long>(last)});
            for (std::size_t k = first; k < last; ++k) {
                if (changed(doubling[k]))
                    return {lower, doubling[k]};
                lower = doubling[k];
            }
        }
        return {lower, 0};
    }

    // Step 2: bisection (batch 1) or k-ary search (batch k) on multiples of step_bytes until
    // the bracket is one step wide.
    std::pair<std::int64_t, std::int64_t> narrow(std::int64_t lower, std::int64_t upper) {
        while (upper - lower > options_.step_bytes) {
            const std::int64_t steps = (upper - lower) / options_.step_bytes;
            const std::int64_t probes = std::min<std::int64_t>(options_.batch, steps - 1);
            std::vector<std::int64_t> sizes;
            for (std::int64_t k = 1; k <= std::max<std::int64_t>(1, probes); ++k) {
                const std::int64_t offset = steps * k / (std::max<std::int64_t>(1, probes) + 1);
                sizes.push_back(lower + std::max<std::int64_t>(1, offset) * options_.step_bytes);
            }
            sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
            ensure(sizes);
            std::int64_t new_upper = upper;
            std::int64_t new_lower = lower;
            for (std::int64_t size : sizes) {
                if (changed(size)) {
                    new_upper = size;
                    break;
                }
                new_lower = size;
            }
            lower = new_lower;
            upper = new_upper;
        }
        return {lower, upper};
    }

    // Step 3 (sec. 3.4): sweep around the bracket so the CPD sees enough points on both
    // sides (a single bisection decision may be noise; the CPD over the sweep weighs all of
    // them).
    void sweep_around(std::int64_t lower, std::int64_t upper) {
        const std::int64_t span = options_.sweep_points_per_side * options_.step_bytes;
        std::vector<std::int64_t> sweep;
        for (std::int64_t size = std::max(options_.step_bytes, lower - span); size <= upper + span;
             size += options_.step_bytes)
            sweep.push_back(size);
        ensure(sweep);
    }

    // Step 4: CPD-driven refinement until the onset is bracketed by adjacent steps.
    void refine() {
        for (int round = 0; round < options_.max_refinements; ++round) {
            std::vector<SizePoint> points;
            for (const auto& [size, timings] : measured_)
                points.push_back({size, timings});
            const auto location = locate_size(points, options_.change_point);
            if (!location)
                break;
            result_.change = location->change;
            result_.size_bytes = location->size_bytes;
            const std::int64_t gap = location->next_size_bytes - location->size_bytes;
            if (gap <= options_.step_bytes)
                break;
            const std::int64_t steps = gap / options_.step_bytes;
            const std::int64_t probes =
                std::min<std::int64_t>(std::max(options_.batch, 7), steps - 1);
            std::vector<std::int64_t> inside;
            for (std::int64_t k = 1; k <= probes; ++k)
                inside.push_back(location->size_bytes +
                                 std::max<std::int64_t>(1, steps * k / (probes + 1)) *
                                     options_.step_bytes);
            inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
            ensure(inside);
        }
    }

    const MeasureSizes& measure_;
    const SizeSearchOptions& options_;
    SizeSearchResult result_;
    std::map<std::int64_t, std::vector<double>> measured_;
    std::vector<double> baseline_;
};

} // namespace

SizeSearchResult search_cache_size(const MeasureSizes& measure, const SizeSearchOptions& options) {
    KERNCAST_CHECK(options.start_bytes > 0 && options.step_bytes > 0, "sizes must be positive");
    KERNCAST_CHECK(options.max_bytes > options.start_bytes, "max_bytes must exceed start_bytes");
    KERNCAST_CHECK(options.start_bytes % options.step_bytes == 0,
                   "start_bytes must be a multiple of step_bytes");
    KERNCAST_CHECK(options.batch >= 1, "batch must be at least 1");
    return SizeSearch(measure, options).run();
}

SizeSearchResult search_cache_size(const MeasureSize& measure, const SizeSearchOptions& options) {
    SizeSearchOptions single = options;
    single.batch = 1;
    return search_cache_size(MeasureSizes([&](const std::vector<std::int64_t>& sizes) {
                                 std::vector<std::vector<double>> timings;
                                 for (std::int64_t size : sizes)
                                     timings.push_back(measure(size));
                                 return timings;
                             }),
                             single);
}

} // namespace kerncast::probe
