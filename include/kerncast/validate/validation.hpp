// Predictions against measurements: pairing each measurement record with a model's prediction
// (models::Prediction) of the same configuration, and the accuracy report.
#pragma once

#include "kerncast/models/prediction/prediction.hpp"
#include "kerncast/report/document.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/measurement_records.hpp"
#include "kerncast/runtime/statistics.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::validate {

// A model: the prediction (models::Prediction) for a recorded configuration, or nothing when
// it cannot predict it.
using PredictionSource =
    std::function<std::optional<models::Prediction>(const runtime::KernelRecord&)>;

struct CounterComparison {
    double predicted = 0;
    std::optional<double> measured; // absent when the record has no such counter
    // A published record's peer prediction of the same counter (its peer_pred_* value x the
    // normalisation points, in the metric's unit): NOT a measurement.
    std::optional<double> peer_predicted;
};

struct ValidationRow {
    std::string record_path;
    std::string kernel; // the record's kernel name
    std::string configuration;
    // Published (transcribed, /provenance) rather than measured by kerncast.
    bool published = false;
    // The ranking group: the kernel, and for published records the notebook and cell.
    std::string group;
    double predicted_time_s = 0;
    double predicted_tie_break_s = 0;            // models::Prediction::tie_break_s
    std::optional<double> measured_time_s;       // the record's median; absent: no times recorded
    std::optional<double> predicted_flops_per_s; // models::Prediction::flops / time_s
    std::optional<double> measured_flops_per_s;  // a "flop/s" entry of results.throughput
    std::map<std::string, CounterComparison> counters;
};

// Median and 90th percentile of |relative error| over the rows with the counter measured (> 0);
// the peer's over those of them that also have a peer prediction (published records only).
struct CounterAccuracy {
    std::size_t compared = 0;
    double median_abs_relative_error = 0;
    double p90_abs_relative_error = 0;
    std::size_t peer_compared = 0;
    std::optional<double> peer_median_abs_relative_error;
    std::optional<double> peer_p90_abs_relative_error;
};

// Within one group of rows with a measured and a predicted throughput: how well the predicted
// throughputs order the configurations.
struct ThroughputRanking {
    std::string group;
    std::size_t configurations = 0;
    std::optional<double> spearman; // rank correlation, ties averaged (statistics.hpp)
    // Measured throughput of the configuration with the highest predicted throughput, as a
    // fraction of the highest measured throughput (ties in the prediction: the slowest counts).
    double predicted_best_fraction = 0;
    // Configuration labels; predicted_best is the shape predicted_best_fraction counts (the
    // slowest measured of a tie, with " (slowest of N tied)").
    std::string predicted_best;
    std::string measured_best;
    // Configurations predicted within runtime::near_best_fraction of the best, and their
    // measured spread.
    runtime::NearBest near_best;
};

// A timed configuration behind the time figures: the one predicted best (as
// predicted_best_fraction counts it), the one measured best, and the worst predicted.
struct TimeExtreme {
    std::string role; // "predicted best", "measured best", "worst predicted"
    std::string kernel;
    std::string configuration;
    double predicted_time_s = 0;
    double measured_time_s = 0;
    double relative_error = 0; // (predicted - measured) / measured
};

// The rows named by time_extremes: predicted best, measured best, then the
// `worst` rows of the largest |relative error| (fewer when there are fewer rows).
inline constexpr std::size_t worst_predicted_rows = 3;

struct ValidationReport {
    std::vector<ValidationRow> rows;
    std::vector<TimeExtreme> time_extremes; // empty without any timed row
    std::vector<std::string> unpredicted;   // record paths the source had no prediction for
    std::size_t published_rows = 0;
    std::optional<runtime::ValidationStatistics> time_statistics; // absent without any timed row
    std::map<std::string, CounterAccuracy> counter_accuracy;
    std::vector<ThroughputRanking> throughput_rankings; // in group-name order
};

// The peer prediction of every counter a published record allows (published_volume_columns:
// peer_pred_<column> x normalisation_points / bytes per unit), keyed by metric.
std::map<std::string, double> peer_counter_predictions(const runtime::Measurement& measurement);

// Pairs every record with its prediction and computes the statistics (statistics.hpp).
ValidationReport validate_predictions(const std::vector<runtime::LoadedRecord>& records,
                                      const PredictionSource& predict);

// Schema "kerncast.validation/1": predicted vs measured per configuration, the time
// statistics and the per-counter accuracy.
report::Document validation_view(const ValidationReport& report);

// Its charts (drawn in HTML reports): predicted against measured time, each measured counter
// (with the peer's predictions) and throughput per ranking group, each with the diagonal; the
// distribution of the signed relative errors in 5 % bins.
std::vector<report::Chart> validation_charts(const ValidationReport& report);

} // namespace kerncast::validate
