#include "kerncast/runtime/validation.hpp"

#include "kerncast/error.hpp"
#include "kerncast/report/table_builder.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace kerncast::runtime {

namespace fs = std::filesystem;

std::vector<LoadedRecord> load_measurement_directory(const std::string& directory) {
    std::error_code error;
    if (!fs::is_directory(directory, error))
        throw_input_error("'" + directory + "' is not a directory of measurement records",
                          SourceLocation{directory, 0, 0, {}, {}});
    std::vector<std::string> paths;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
        std::error_code entry_error; // a dangling link or a link loop (ELOOP)
        const bool regular = entry.is_regular_file(entry_error);
        if (entry_error && entry.path().extension() == ".json")
            throw_input_error("cannot read the record: " + entry_error.message(),
                              SourceLocation{entry.path().string(), 0, 0, {}, {}});
        if (regular && entry.path().extension() == ".json")
            paths.push_back(entry.path().string());
    }
    if (error)
        throw_input_error("cannot list '" + directory + "': " + error.message(),
                          SourceLocation{directory, 0, 0, {}, {}});
    if (paths.empty())
        throw_input_error("'" + directory + "' holds no measurement records (*.json)",
                          SourceLocation{directory, 0, 0, {}, {}});
    std::sort(paths.begin(), paths.end());
    std::vector<LoadedRecord> records;
    for (const auto& path : paths)
        records.push_back({path, load_measurement_file(path)});
    return records;
}

std::string configuration_label(const KernelRecord& kernel) {
    const auto dims = [](const Dim3& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    std::string label = "block=" + dims(kernel.launch.block) + " fold=" + dims(kernel.launch.fold);
    for (const auto& [name, value] : kernel.parameters) {
        label += " " + name + "=";
        if (const auto* integer = std::get_if<std::int64_t>(&value)) {
            label += std::to_string(*integer);
        } else {
            char text[32];
            std::snprintf(text, sizeof text, "%.17g", std::get<double>(value));
            label += text;
        }
    }
    return label;
}

ValidationReport validate_predictions(const std::vector<LoadedRecord>& records,
                                      const PredictionSource& predict) {
    ValidationReport report;
    std::map<std::string, std::vector<double>> counter_errors;
    std::vector<double> predicted_times, measured_times;
    for (const auto& record : records) {
        std::optional<Prediction> prediction;
        try {
            prediction = predict(record.measurement.kernel);
        } catch (const Error& e) {
            // Name the record whose configuration could not be predicted.
            if (e.kind() == ErrorKind::internal)
                throw;
            throw_input_error(e.message(), SourceLocation{record.path, 0, 0, {}, {}}, e.notes());
        }
        if (!prediction) {
            report.unpredicted.push_back(record.path);
            continue;
        }
        ValidationRow row;
        row.record_path = record.path;
        row.configuration = configuration_label(record.measurement.kernel);
        row.predicted_time_s = prediction->time_s;
        row.measured_time_s = record.measurement.results.median_s;
        for (const auto& [metric, predicted] : prediction->counters) {
            CounterComparison comparison{predicted, std::nullopt};
            const auto measured = record.measurement.counters.find(metric);
            if (measured != record.measurement.counters.end()) {
                comparison.measured = measured->second.value;
                if (measured->second.value > 0)
                    counter_errors[metric].push_back(
                        std::abs(relative_error(predicted, measured->second.value)));
            }
            row.counters[metric] = comparison;
        }
        predicted_times.push_back(row.predicted_time_s);
        measured_times.push_back(row.measured_time_s);
        report.rows.push_back(std::move(row));
    }
    if (!report.rows.empty())
        report.time_statistics = validation_statistics(predicted_times, measured_times);
    for (const auto& [metric, errors] : counter_errors)
        report.counter_accuracy[metric] = {errors.size(), median(errors), percentile(errors, 90)};
    return report;
}

namespace {

// Predicted and measured value of each metric; blank where the row lacks the metric.
std::vector<report::Cell> counter_cells(const ValidationRow& row,
                                        const std::vector<std::string>& metrics) {
    std::vector<report::Cell> cells;
    for (const auto& metric : metrics) {
        const auto found = row.counters.find(metric);
        const bool known = found != row.counters.end();
        cells.push_back(known ? report::Cell{found->second.predicted} : report::Cell{});
        cells.push_back(known ? report::make_cell(found->second.measured) : report::Cell{});
    }
    return cells;
}

report::Table configurations_table(const ValidationReport& report) {
    std::vector<std::string> metrics;
    for (const auto& row : report.rows)
        for (const auto& [metric, comparison] : row.counters)
            if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
                metrics.push_back(metric);
    std::sort(metrics.begin(), metrics.end());

    report::TableBuilder t("configurations",
                           "Per configuration (measured: median of the record's repetitions)");
    t.columns({"configuration",
               {"predicted_time_us", "predicted", "us", 3},
               {"measured_time_us", "measured", "us", 3},
               {"relative_error", "rel. error", "", 3}});
    for (const auto& metric : metrics)
        t.column({metric + ".predicted", metric + " pred."})
            .column({metric + ".measured", metric + " meas."});
    t.column("record");
    for (const auto& row : report.rows)
        t.row(row.configuration, row.predicted_time_s * 1e6, row.measured_time_s * 1e6,
              relative_error(row.predicted_time_s, row.measured_time_s),
              counter_cells(row, metrics), row.record_path);
    return t.build();
}

report::Table time_statistics_table(const ValidationStatistics& s) {
    report::TableBuilder t("time_statistics", "Accuracy of the predicted times");
    t.columns({"configurations",
               {"median_abs_relative_error", "median |rel. error|", "", 3},
               {"p90_abs_relative_error", "p90 |rel. error|", "", 3},
               {"spearman", "Spearman rho", "", 3},
               {"predicted_best_fraction", "predicted best / best", "", 3}});
    t.row(s.configurations, s.median_abs_relative_error, s.p90_abs_relative_error, s.spearman,
          s.predicted_best_fraction);
    return t.build();
}

report::Table counter_accuracy_table(const std::map<std::string, CounterAccuracy>& accuracies) {
    report::TableBuilder t("counter_accuracy", "Accuracy of the predicted counters");
    t.columns({"metric",
               "compared",
               {"median_abs_relative_error", "median |rel. error|", "", 3},
               {"p90_abs_relative_error", "p90 |rel. error|", "", 3}});
    for (const auto& [metric, accuracy] : accuracies)
        t.row(metric, accuracy.compared, accuracy.median_abs_relative_error,
              accuracy.p90_abs_relative_error);
    return t.build();
}

} // namespace

report::Document validation_view(const ValidationReport& report) {
    report::Document doc;
    doc.schema = "kerncast.validation/1";
    doc.title = "Predictions vs measurements";
    doc.tables.push_back(configurations_table(report));
    if (report.time_statistics)
        doc.tables.push_back(time_statistics_table(*report.time_statistics));
    if (!report.counter_accuracy.empty())
        doc.tables.push_back(counter_accuracy_table(report.counter_accuracy));
    doc.notes.push_back("relative error = (predicted - measured) / measured; percentiles by "
                        "linear interpolation between closest ranks (docs/gpu-runtime.md)");
    doc.notes.push_back("predicted best / best: measured performance of the configuration with "
                        "the smallest predicted time, as a fraction of the best measured one");
    for (const auto& path : report.unpredicted)
        doc.notes.push_back("no prediction for " + path);
    return doc;
}

} // namespace kerncast::runtime
