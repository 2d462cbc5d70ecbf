// Predictions against measurements: loading a directory of measurement records, pairing each
// with a prediction for the same configuration, and the accuracy report.
#pragma once

#include "kerncast/report/document.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/statistics.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::runtime {

struct LoadedRecord {
    std::string path;
    Measurement measurement;
};

// Every *.json file directly in `directory`, in file-name order, read strictly. A missing
// directory, one without records, or a bad record is an input Error naming the file.
std::vector<LoadedRecord> load_measurement_directory(const std::string& directory);

// "block=32x4x4 fold=1x1x2 nx=640 ny=512": identifies a configuration of one kernel.
std::string configuration_label(const KernelRecord& kernel);

// What a model predicts for one configuration.
struct Prediction {
    double time_s = 0;
    // Predicted values of counters, keyed by the Nsight Compute metric they are compared with
    // and in that metric's unit (e.g. "dram__bytes_read.sum" in bytes).
    std::map<std::string, double> counters;
};

// A model: the prediction for a recorded configuration, or nothing when it cannot predict it.
using PredictionSource = std::function<std::optional<Prediction>(const KernelRecord&)>;

struct CounterComparison {
    double predicted = 0;
    std::optional<double> measured; // absent when the record has no such counter
};

struct ValidationRow {
    std::string record_path;
    std::string configuration;
    double predicted_time_s = 0;
    double measured_time_s = 0; // the record's median
    std::map<std::string, CounterComparison> counters;
};

struct CounterAccuracy {
    std::size_t compared = 0;
    double median_abs_relative_error = 0;
    double p90_abs_relative_error = 0;
};

struct ValidationReport {
    std::vector<ValidationRow> rows;
    std::vector<std::string> unpredicted; // record paths the source had no prediction for
    std::optional<ValidationStatistics> time_statistics; // absent without any row
    std::map<std::string, CounterAccuracy> counter_accuracy;
};

// Pairs every record with its prediction and computes the statistics (statistics.hpp).
ValidationReport validate_predictions(const std::vector<LoadedRecord>& records,
                                      const PredictionSource& predict);

// Schema "kerncast.validation/1": predicted vs measured per configuration, the time
// statistics and the per-counter accuracy.
report::Document validation_view(const ValidationReport& report);

} // namespace kerncast::runtime
