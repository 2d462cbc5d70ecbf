#include "kerncast/runtime/statistics.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kerncast::runtime {

TimeSummary summarize_times(std::span<const double> times_s) {
    KERNCAST_CHECK(!times_s.empty(), "summary of no times");
    TimeSummary summary;
    summary.median_s = median(times_s);
    const auto [lowest, highest] = std::minmax_element(times_s.begin(), times_s.end());
    summary.min_s = *lowest;
    summary.max_s = *highest;
    const double n = static_cast<double>(times_s.size());
    summary.mean_s = std::accumulate(times_s.begin(), times_s.end(), 0.0) / n;
    if (times_s.size() > 1) {
        double squares = 0;
        for (double t : times_s)
            squares += (t - summary.mean_s) * (t - summary.mean_s);
        summary.stddev_s = std::sqrt(squares / (n - 1));
    }
    return summary;
}

double relative_error(double predicted, double measured) {
    KERNCAST_CHECK(measured > 0, "relative error against a non-positive measurement");
    return (predicted - measured) / measured;
}

namespace {

// The order of predictions: by value, then by tie-break where given.
struct PredictedOrder {
    std::span<const double> values;
    std::span<const double> tie_breaks; // empty or as long as values

    PredictedOrder(std::span<const double> v, std::span<const double> t)
        : values(v), tie_breaks(t) {
        KERNCAST_CHECK(t.empty() || t.size() == v.size(), "one tie-break for every prediction");
    }
    bool before(std::size_t a, std::size_t b) const {
        if (values[a] != values[b])
            return values[a] < values[b];
        return !tie_breaks.empty() && tie_breaks[a] < tie_breaks[b];
    }
    bool same(std::size_t a, std::size_t b) const {
        return values[a] == values[b] && (tie_breaks.empty() || tie_breaks[a] == tie_breaks[b]);
    }
};

} // namespace

std::vector<double> average_ranks(std::span<const double> values,
                                  std::span<const double> tie_breaks) {
    const PredictedOrder by(values, tie_breaks);
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return by.before(a, b); });
    std::vector<double> ranks(values.size());
    for (std::size_t begin = 0; begin < order.size();) {
        std::size_t end = begin + 1;
        while (end < order.size() && by.same(order[end], order[begin]))
            ++end;
        // Positions begin..end-1 (0-based) hold ranks begin+1..end; their average:
        const double rank = 0.5 * static_cast<double>(begin + 1 + end);
        for (std::size_t i = begin; i < end; ++i)
            ranks[order[i]] = rank;
        begin = end;
    }
    return ranks;
}

std::optional<double> spearman_rank_correlation(std::span<const double> x,
                                                std::span<const double> y,
                                                std::span<const double> x_tie_breaks) {
    KERNCAST_CHECK(x.size() == y.size(), "rank correlation of series of different lengths");
    if (x.size() < 2)
        return std::nullopt;
    const std::vector<double> rx = average_ranks(x, x_tie_breaks);
    const std::vector<double> ry = average_ranks(y);
    const double n = static_cast<double>(x.size());
    const double mean_rank = (n + 1) / 2; // the same for both sides, ties or not
    double covariance = 0, variance_x = 0, variance_y = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        covariance += (rx[i] - mean_rank) * (ry[i] - mean_rank);
        variance_x += (rx[i] - mean_rank) * (rx[i] - mean_rank);
        variance_y += (ry[i] - mean_rank) * (ry[i] - mean_rank);
    }
    if (variance_x == 0 || variance_y == 0)
        return std::nullopt;
    return covariance / std::sqrt(variance_x * variance_y);
}

PredictedBestPick predicted_best_pick(std::span<const double> predicted_times,
                                      std::span<const double> measured_times,
                                      std::span<const double> tie_breaks) {
    KERNCAST_CHECK(predicted_times.size() == measured_times.size() && !predicted_times.empty(),
                   "predicted-best fraction needs equally many predictions and measurements");
    const PredictedOrder by(predicted_times, tie_breaks);
    std::size_t best = 0;
    for (std::size_t i = 1; i < predicted_times.size(); ++i)
        if (by.before(i, best))
            best = i;
    PredictedBestPick pick;
    for (std::size_t i = 0; i < predicted_times.size(); ++i)
        if (by.same(i, best)) {
            if (pick.tied == 0 || measured_times[i] > measured_times[pick.index])
                pick.index = i;
            ++pick.tied;
        }
    return pick;
}

double predicted_best_fraction(std::span<const double> predicted_times,
                               std::span<const double> measured_times,
                               std::span<const double> tie_breaks) {
    const double measured_of_pick =
        measured_times[predicted_best_pick(predicted_times, measured_times, tie_breaks).index];
    const double best_measured = *std::min_element(measured_times.begin(), measured_times.end());
    KERNCAST_CHECK(best_measured > 0, "measured times must be positive");
    return best_measured / measured_of_pick;
}

AbsErrorSummary summarize_abs_errors(std::span<const double> relative_errors) {
    AbsErrorSummary summary;
    summary.samples = relative_errors.size();
    if (relative_errors.empty())
        return summary;
    std::vector<double> magnitudes;
    magnitudes.reserve(relative_errors.size());
    double log_sum = 0;
    bool zero = false;
    for (double error : relative_errors) {
        magnitudes.push_back(std::abs(error));
        zero = zero || error == 0;
        log_sum += error == 0 ? 0 : std::log(std::abs(error));
    }
    summary.median = median(magnitudes);
    summary.p90 = percentile(magnitudes, 90);
    summary.max = *std::max_element(magnitudes.begin(), magnitudes.end());
    summary.geometric_mean =
        zero ? 0.0 : std::exp(log_sum / static_cast<double>(magnitudes.size()));
    return summary;
}

NearBest near_best(std::span<const double> predicted_times,
                   std::span<const double> measured_times) {
    KERNCAST_CHECK(predicted_times.size() == measured_times.size() && !predicted_times.empty(),
                   "near-best count needs equally many predictions and measurements");
    const double best = *std::min_element(predicted_times.begin(), predicted_times.end());
    NearBest result;
    double fastest = 0, slowest = 0;
    for (std::size_t i = 0; i < predicted_times.size(); ++i) {
        if (predicted_times[i] > best / (1 - near_best_fraction))
            continue;
        fastest = result.count == 0 ? measured_times[i] : std::min(fastest, measured_times[i]);
        slowest = result.count == 0 ? measured_times[i] : std::max(slowest, measured_times[i]);
        ++result.count;
    }
    KERNCAST_CHECK(fastest > 0, "measured times must be positive");
    result.measured_spread = slowest / fastest - 1;
    return result;
}

MeasuredToNearBest measured_to_near_best(std::span<const double> predicted_times,
                                         std::span<const double> measured_times, double fraction,
                                         std::span<const double> tie_breaks) {
    KERNCAST_CHECK(predicted_times.size() == measured_times.size() && !predicted_times.empty(),
                   "equally many predictions and measurements");
    const PredictedOrder by(predicted_times, tie_breaks);
    const double best = *std::min_element(measured_times.begin(), measured_times.end());
    const auto near = [&](std::size_t i) { return measured_times[i] <= best * (1 + fraction); };
    std::vector<std::size_t> order(predicted_times.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // By predicted time (and tie-break); among equal predictions the near-best ones last.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (!by.same(a, b))
            return by.before(a, b);
        return !near(a) && near(b);
    });
    MeasuredToNearBest result;
    for (std::size_t k = 0; k < order.size(); ++k)
        if (near(order[k])) {
            result.in_predicted_order = k + 1;
            break;
        }
    const auto good = static_cast<double>(
        std::count_if(order.begin(), order.end(), [&](std::size_t i) { return near(i); }));
    result.random_order = (static_cast<double>(order.size()) + 1) / (good + 1);
    return result;
}

ValidationStatistics validation_statistics(std::span<const double> predicted_times,
                                           std::span<const double> measured_times,
                                           std::span<const double> tie_breaks) {
    KERNCAST_CHECK(predicted_times.size() == measured_times.size() && !predicted_times.empty(),
                   "validation needs equally many predictions and measurements");
    std::vector<double> errors;
    for (std::size_t i = 0; i < predicted_times.size(); ++i)
        errors.push_back(relative_error(predicted_times[i], measured_times[i]));
    const AbsErrorSummary summary = summarize_abs_errors(errors);
    ValidationStatistics stats;
    stats.configurations = predicted_times.size();
    stats.median_abs_relative_error = summary.median;
    stats.p90_abs_relative_error = summary.p90;
    stats.spearman = spearman_rank_correlation(predicted_times, measured_times, tie_breaks);
    stats.predicted_best_fraction =
        predicted_best_fraction(predicted_times, measured_times, tie_breaks);
    stats.near_best = near_best(predicted_times, measured_times);
    stats.to_near_best = measured_to_near_best(predicted_times, measured_times,
                                               autotuning_near_best_fraction, tie_breaks);
    return stats;
}

} // namespace kerncast::runtime
