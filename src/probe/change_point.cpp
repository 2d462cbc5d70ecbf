#include "kerncast/probe/change_point.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>

namespace kerncast::probe {

MissThreshold miss_threshold(std::span<const double> baseline, double sigmas, double fraction) {
    MissThreshold reference;
    reference.hit_latency = median(baseline);
    const double robust_sigma = 1.4826 * median_absolute_deviation(baseline);
    reference.threshold =
        reference.hit_latency +
        std::max(sigmas * robust_sigma, fraction * std::abs(reference.hit_latency));
    return reference;
}

ReducedTiming reduce_timing(std::span<const double> timings, const MissThreshold& reference) {
    KERNCAST_CHECK(!timings.empty(), "cannot reduce an empty timing vector");
    const double n = static_cast<double>(timings.size());
    double excess_squares = 0;
    double misses = 0;
    double sum = 0;
    double squares = 0;
    for (double t : timings) {
        const double excess = t - reference.hit_latency;
        excess_squares += excess * excess;
        misses += t > reference.threshold ? 1.0 : 0.0;
        sum += t;
        squares += t * t;
    }
    ReducedTiming reduced;
    reduced.rms_excess = std::sqrt(excess_squares / n);
    reduced.miss_distance = std::sqrt(misses / n);
    // cos(angle) = <x, 1> / (|x| |1|).
    const double norm = std::sqrt(squares) * std::sqrt(n);
    reduced.angle_rad = norm > 0 ? std::acos(std::clamp(sum / norm, -1.0, 1.0)) : 0.0;
    return reduced;
}

std::vector<double> geometric_reduction(const std::vector<std::vector<double>>& timing_vectors,
                                        Reduction kind) {
    std::vector<double> reduced;
    if (timing_vectors.empty())
        return reduced;
    const MissThreshold reference = miss_threshold(timing_vectors.front());
    reduced.reserve(timing_vectors.size());
    for (const auto& timings : timing_vectors) {
        const ReducedTiming r = reduce_timing(timings, reference);
        reduced.push_back(kind == Reduction::miss_distance ? r.miss_distance : r.rms_excess);
    }
    return reduced;
}

double segment_cost(std::span<const double> values, std::size_t begin, std::size_t end,
                    SegmentCost cost) {
    KERNCAST_CHECK(begin < end && end <= values.size(), "segment out of range");
    const auto segment = values.subspan(begin, end - begin);
    double total = 0;
    if (cost == SegmentCost::squared_error) {
        const double m = mean(segment);
        for (double v : segment)
            total += (v - m) * (v - m);
    } else {
        const double m = median(segment);
        for (double v : segment)
            total += std::abs(v - m);
    }
    return total;
}

namespace {

// cost[t] = c(values[0 .. t)) for t = 0 .. T, in one pass.
std::vector<double> prefix_costs(const std::vector<double>& values, SegmentCost cost) {
    const std::size_t total = values.size();
    std::vector<double> result(total + 1, 0.0);
    if (cost == SegmentCost::squared_error) {
        // Welford's running mean and sum of squared deviations (no cancellation).
        double running_mean = 0;
        double deviations = 0;
        for (std::size_t k = 0; k < total; ++k) {
            const double delta = values[k] - running_mean;
            running_mean += delta / static_cast<double>(k + 1);
            deviations += delta * (values[k] - running_mean);
            result[k + 1] = std::max(0.0, deviations);
        }
        return result;
    }
    // Running median with two heaps; sum |x - median| = (sum_upper - n_upper * med) +
    // (n_lower * med - sum_lower) for any median between the two heap tops.
    std::priority_queue<double> lower;                                      // max-heap
    std::priority_queue<double, std::vector<double>, std::greater<>> upper; // min-heap
    double lower_sum = 0;
    double upper_sum = 0;
    for (std::size_t k = 0; k < total; ++k) {
        const double v = values[k];
        if (lower.empty() || v <= lower.top()) {
            lower.push(v);
            lower_sum += v;
        } else {
            upper.push(v);
            upper_sum += v;
        }
        if (lower.size() > upper.size() + 1) {
            upper_sum += lower.top();
            lower_sum -= lower.top();
            upper.push(lower.top());
            lower.pop();
        } else if (upper.size() > lower.size()) {
            lower_sum += upper.top();
            upper_sum -= upper.top();
            lower.push(upper.top());
            upper.pop();
        }
        const double med = lower.top();
        result[k + 1] = std::max(0.0, (upper_sum - static_cast<double>(upper.size()) * med) +
                                          (static_cast<double>(lower.size()) * med - lower_sum));
    }
    return result;
}

} // namespace

std::optional<ChangePoint> opt_single_change_point(std::span<const double> series,
                                                   const ChangePointOptions& options) {
    const std::size_t total = series.size();
    const std::size_t min_length = std::max<std::size_t>(1, options.min_segment_length);
    if (total < 2 * min_length)
        return std::nullopt;
    const std::vector<double> forward(series.begin(), series.end());
    const std::vector<double> backward(series.rbegin(), series.rend());
    const std::vector<double> head = prefix_costs(forward, options.cost);  // c(0, t)
    const std::vector<double> tail = prefix_costs(backward, options.cost); // c(T-t, T)
    ChangePoint best;
    double best_cost = 0;
    for (std::size_t t = min_length; t + min_length <= total; ++t) {
        const double c = head[t] + tail[total - t];
        // A relative tolerance keeps ties (equal up to rounding) on the smallest t.
        if (best.index == 0 || c < best_cost - 1e-12 * std::max(1.0, std::abs(best_cost))) {
            best_cost = c;
            best.index = t;
        }
    }
    best.cost = best_cost;
    const std::size_t candidates = total - 2 * min_length + 1;
    const double level = options.correct_for_selection
                             ? options.alpha / static_cast<double>(candidates)
                             : options.alpha;
    best.test = ks_two_sample_test(series.subspan(0, best.index), series.subspan(best.index),
                                   std::max(level, 1e-300));
    best.test.alpha = level;
    return best;
}

std::optional<ChangePoint> detect_change_point(std::span<const double> series,
                                               const ChangePointOptions& options) {
    auto candidate = opt_single_change_point(series, options);
    if (!candidate || !candidate->significant())
        return std::nullopt;
    return candidate;
}

std::vector<std::size_t> detect_change_points(std::span<const double> series,
                                              const ChangePointOptions& options,
                                              std::size_t max_points) {
    std::vector<std::size_t> found;
    std::function<void(std::size_t, std::size_t)> split = [&](std::size_t begin, std::size_t end) {
        if (found.size() >= max_points)
            return;
        const auto change = detect_change_point(series.subspan(begin, end - begin), options);
        if (!change)
            return;
        const std::size_t at = begin + change->index;
        found.push_back(at);
        split(begin, at);
        split(at, end);
    };
    split(0, series.size());
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace kerncast::probe
