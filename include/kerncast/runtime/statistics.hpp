// Statistics of kernel timings (one run's repetitions) and of model validation (predicted vs
// measured over many configurations). Pure functions; definitions in docs/gpu-runtime.md.
#pragma once

#include "kerncast/support/statistics.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace kerncast::runtime {

// median and percentile (Hyndman & Fan definition 7) live in the support layer.
using support::median;
using support::percentile;

struct TimeSummary {
    double median_s = 0;
    double min_s = 0;
    double max_s = 0;
    double mean_s = 0;
    double stddev_s = 0; // sample standard deviation (divisor n - 1); 0 for one sample
};

// Summary of per-repetition kernel times (seconds; non-empty).
TimeSummary summarize_times(std::span<const double> times_s);

// (predicted - measured) / measured; measured must be > 0. Positive: over-prediction.
double relative_error(double predicted, double measured);

// Predicted times may come with tie-breaks: a second key (the volume model's next-largest
// limit, models::LimiterResult) that orders configurations of equal predicted time, the one
// with the smaller tie-break first. Empty: none; configurations of equal time tie.

// 1-based ranks in ascending order; tied values share the average of the ranks they span
// (e.g. {10, 20, 20, 30} -> {1, 2.5, 2.5, 4}). With tie_breaks, equal values are ordered by
// them and tie only when both are equal.
std::vector<double> average_ranks(std::span<const double> values,
                                  std::span<const double> tie_breaks = {});

// Spearman's rank correlation with ties: Pearson's correlation of the average ranks.
// Empty when it is undefined (fewer than two values, or all values of one side equal).
std::optional<double> spearman_rank_correlation(std::span<const double> x,
                                                std::span<const double> y,
                                                std::span<const double> x_tie_breaks = {});

// How good is the configuration the model would pick? The measured performance (1 / time) of
// the configuration with the smallest predicted time, as a fraction of the best measured
// performance: min(measured) / measured[argmin predicted]; 1 means the model picked the
// fastest. When several configurations tie for the smallest prediction, the slowest of them
// (measured) counts, so the result does not depend on the order of configurations.
double predicted_best_fraction(std::span<const double> predicted_times,
                               std::span<const double> measured_times,
                               std::span<const double> tie_breaks = {});

// The configuration predicted_best_fraction counts: of those with the smallest predicted time,
// the slowest measured (the first of equals); `tied` is how many share that prediction (and
// its tie-break).
struct PredictedBestPick {
    std::size_t index = 0;
    std::size_t tied = 0;
};
PredictedBestPick predicted_best_pick(std::span<const double> predicted_times,
                                      std::span<const double> measured_times,
                                      std::span<const double> tie_breaks = {});

// Summary of |relative error| over a set of predictions (model fits and validation share it).
struct AbsErrorSummary {
    std::size_t samples = 0;
    double median = 0;
    double p90 = 0; // percentile(|e|, 90), definition above
    double max = 0;
    double geometric_mean = 0; // exp(mean log |e|) (Fleming & Wallace 1986); 0 if any e is 0
};

// Of relative errors (signed); all zero for none.
AbsErrorSummary summarize_abs_errors(std::span<const double> relative_errors);

// Predictions this close to the best one (a fraction of its throughput) are closer than the
// volume model's accuracy separates configurations (its time errors on measured GPUs are
// 5-25 %, docs/accuracy.md): explore notes them, validate counts them.
inline constexpr double near_best_fraction = 0.01;

// The configurations whose predicted throughput is within near_best_fraction of the best
// (predicted time <= best / (1 - near_best_fraction)), and how far apart they measured
// (slowest / fastest - 1).
struct NearBest {
    std::size_t count = 0;
    double measured_spread = 0;
};
NearBest near_best(std::span<const double> predicted_times, std::span<const double> measured_times);

// The autotuning metric (issue 44): measuring the configurations in order of predicted time,
// how many until one measures within `fraction` of the best measured time (measured <= best
// * (1 + fraction)). Configurations that tie in prediction are measured near-best last (the
// count does not depend on their order). `random_order` is the expected count in random
// order: (N + 1) / (G + 1) with G of the N configurations within the fraction.
struct MeasuredToNearBest {
    std::size_t in_predicted_order = 0;
    double random_order = 0;
};
inline constexpr double autotuning_near_best_fraction = 0.05;
MeasuredToNearBest measured_to_near_best(std::span<const double> predicted_times,
                                         std::span<const double> measured_times,
                                         double fraction = autotuning_near_best_fraction,
                                         std::span<const double> tie_breaks = {});

struct ValidationStatistics {
    std::size_t configurations = 0;
    double median_abs_relative_error = 0; // median of |relative_error|
    double p90_abs_relative_error = 0;    // 90th percentile of |relative_error| (definition above)
    std::optional<double> spearman;       // rank correlation of predicted and measured times
    double predicted_best_fraction = 0;
    NearBest near_best;
    MeasuredToNearBest to_near_best; // within autotuning_near_best_fraction
};

// predicted and measured times (seconds, > 0) of the same configurations, same order; the
// rankings (Spearman, predicted best, to near best) use the predictions' tie-breaks if given.
ValidationStatistics validation_statistics(std::span<const double> predicted_times,
                                           std::span<const double> measured_times,
                                           std::span<const double> tie_breaks = {});

} // namespace kerncast::runtime
