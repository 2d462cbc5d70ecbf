#include "kerncast/probe/staircase.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace kerncast::probe {

std::vector<double> staircase_levels(const std::vector<std::vector<double>>& timing_vectors) {
    std::vector<double> levels;
    levels.reserve(timing_vectors.size());
    for (const auto& timings : timing_vectors) {
        KERNCAST_CHECK(!timings.empty(), "a staircase point without timings");
        levels.push_back(mean(timings));
    }
    return levels;
}

namespace {

std::vector<double> pooled(const std::vector<std::vector<double>>& vectors, std::size_t begin,
                           std::size_t end) {
    std::vector<double> all;
    for (std::size_t k = begin; k < end; ++k)
        all.insert(all.end(), vectors[k].begin(), vectors[k].end());
    return all;
}

double required_height(double lower_level, const StaircaseOptions& options) {
    return std::max(options.min_height, options.min_relative_height * std::abs(lower_level));
}

// Binary segmentation: Opt on [begin, end) of the reduced curve, verified by the pooled KS
// test and the minimum rise; recurse into both sides of a verified step. Sorted by index.
std::vector<StaircaseStep> segment(const std::vector<std::vector<double>>& timing_vectors,
                                   std::span<const double> all, const StaircaseOptions& options) {
    std::vector<StaircaseStep> steps;
    std::function<void(std::size_t, std::size_t)> split = [&](std::size_t begin, std::size_t end) {
        if (steps.size() >= options.max_steps)
            return;
        const auto candidate =
            opt_single_change_point(all.subspan(begin, end - begin), options.change_point);
        if (!candidate)
            return;
        const std::size_t at = begin + candidate->index;
        const double lower = median(all.subspan(begin, at - begin));
        const double upper = median(all.subspan(at, end - at));
        if (upper - lower < required_height(lower, options))
            return; // no rise worth a level: flat, drifting or falling
        const std::size_t candidates =
            end - begin - 2 * options.change_point.min_segment_length + 1;
        const double level = options.change_point.correct_for_selection
                                 ? options.change_point.alpha / static_cast<double>(candidates)
                                 : options.change_point.alpha;
        const std::vector<double> below = pooled(timing_vectors, begin, at);
        const std::vector<double> above = pooled(timing_vectors, at, end);
        KsTestResult test = ks_two_sample_test(below, above, std::max(level, 1e-300));
        test.alpha = level;
        if (!test.reject)
            return;
        StaircaseStep step;
        step.index = at;
        step.test = test;
        steps.push_back(step);
        split(begin, at);
        split(at, end);
    };
    split(0, all.size());
    std::sort(steps.begin(), steps.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    return steps;
}

// The standard error of point k's mean (0 for a single timing).
double standard_error(const std::vector<std::vector<double>>& timing_vectors,
                      std::span<const double> levels, std::size_t k) {
    const auto& v = timing_vectors[k];
    if (v.size() < 2)
        return 0.0;
    const double m = levels[k];
    double squares = 0;
    for (double t : v)
        squares += (t - m) * (t - m);
    return std::sqrt(squares / static_cast<double>(v.size() - 1) / static_cast<double>(v.size()));
}

// Onsets and levels once every step is known (a level is measured between its own two steps
// only). The onset walks back from the split over the contiguous points that already stand
// above the noise band of the level below: its median plus 3 robust sigmas of its points or 3
// standard errors of the point's own mean, whichever is larger (rare outliers move a mean
// more than the spread of a few plateau points shows).
void place(std::vector<StaircaseStep>& steps,
           const std::vector<std::vector<double>>& timing_vectors, std::span<const double> all) {
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const std::size_t floor = s == 0 ? 0 : steps[s - 1].index;
        std::size_t onset = steps[s].index;
        while (onset > floor + 2) {
            const auto below = all.subspan(floor, onset - 1 - floor);
            const double sigma = std::max(1.4826 * median_absolute_deviation(below),
                                          standard_error(timing_vectors, all, onset - 1));
            if (all[onset - 1] <= median(below) + std::max(3.0 * sigma, 1e-12))
                break;
            --onset;
        }
        steps[s].onset_index = onset;
    }
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const std::size_t floor = s == 0 ? 0 : steps[s - 1].index;
        const std::size_t ceiling = s + 1 < steps.size() ? steps[s + 1].onset_index : all.size();
        steps[s].lower_level = median(all.subspan(floor, steps[s].onset_index - floor));
        steps[s].upper_level = median(all.subspan(steps[s].index, ceiling - steps[s].index));
        steps[s].height = steps[s].upper_level - steps[s].lower_level;
    }
}

// Ramps merged: binary segmentation cuts a gradual rise (misses of a set-associative
// structure grow over several footprints) into several steps, but between two real levels
// lies a plateau.
void merge_ramps(std::vector<StaircaseStep>& steps,
                 const std::vector<std::vector<double>>& timing_vectors,
                 std::span<const double> all, const StaircaseOptions& options) {
    for (std::size_t s = 1; s < steps.size();) {
        const std::size_t begin = steps[s - 1].index;
        const std::size_t end = steps[s].onset_index; // the plateau between the two steps
        // The plateau's rise: median of its second half minus median of its first half
        // (robust to a point that already belongs to a ramp or carries outliers).
        bool plateau = end - begin >= options.min_plateau_points;
        if (plateau) {
            const std::size_t half = (end - begin) / 2;
            const double rise =
                median(all.subspan(end - half, half)) - median(all.subspan(begin, half));
            const double noise = 3.0 * std::max(standard_error(timing_vectors, all, begin),
                                                standard_error(timing_vectors, all, end - 1));
            plateau =
                rise <= std::max(noise, 0.25 * std::min(steps[s - 1].height, steps[s].height));
        }
        if (plateau) {
            ++s;
            continue;
        }
        // One ramp: the merged step rises from the first onset to the last split; its test is
        // the weaker of the two.
        steps[s - 1].index = steps[s].index;
        if (steps[s].test.p_value > steps[s - 1].test.p_value)
            steps[s - 1].test = steps[s].test;
        steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(s));
        place(steps, timing_vectors, all);
        s = 1;
    }
}

} // namespace

std::vector<StaircaseStep> find_steps(const std::vector<std::vector<double>>& timing_vectors,
                                      const StaircaseOptions& options) {
    const std::vector<double> levels = staircase_levels(timing_vectors);
    const std::span<const double> all(levels);
    std::vector<StaircaseStep> steps = segment(timing_vectors, all, options);
    place(steps, timing_vectors, all);
    merge_ramps(steps, timing_vectors, all, options);
    return steps;
}

} // namespace kerncast::probe
