// The charts of the validation report (docs/output.md#html-reports): predicted against measured
// per metric with the diagonal (the peer's predictions beside kerncast's where a published
// record has them), predicted against measured throughput per ranking group, and the
// distribution of the relative errors.
#include "kerncast/runtime/statistics.hpp"
#include "kerncast/validate/validation.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace kerncast::validate {

namespace {

void add_point(report::ChartSeries& series, double x, double y, const std::string& label) {
    series.x.push_back(x);
    series.y.push_back(y);
    series.point_labels.push_back(label);
}

// Log axes when every value is positive (counter totals span decades).
void choose_scales(report::Chart& chart) {
    bool positive = true;
    for (const auto& series : chart.series)
        for (size_t k = 0; k < series.x.size(); ++k)
            positive = positive && series.x[k] > 0 && series.y[k] > 0;
    chart.x_axis.logarithmic = chart.y_axis.logarithmic = positive;
}

report::Chart comparison_chart(std::string key, std::string title, std::string quantity,
                               std::string unit) {
    report::Chart chart;
    chart.key = std::move(key);
    chart.title = std::move(title);
    chart.kind = report::ChartKind::scatter;
    chart.x_axis = {"measured " + quantity, unit, false};
    chart.y_axis = {"predicted " + quantity, unit, false};
    chart.diagonal = true;
    return chart;
}

std::vector<std::string> measured_metrics(const ValidationReport& report) {
    std::vector<std::string> metrics;
    for (const auto& row : report.rows)
        for (const auto& [metric, comparison] : row.counters)
            if (comparison.measured && *comparison.measured > 0 &&
                std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
                metrics.push_back(metric);
    std::sort(metrics.begin(), metrics.end());
    return metrics;
}

// Signed relative errors in 5 % bins from -50 % to +50 %, the outer bins open.
constexpr int error_bins = 22;

int error_bin(double relative_error) {
    const int bin = static_cast<int>(std::floor(relative_error / 0.05)) + 11;
    return std::clamp(bin, 0, error_bins - 1);
}

std::vector<std::string> error_bin_labels() {
    std::vector<std::string> labels;
    labels.push_back("< -50 %");
    for (int bin = 1; bin < error_bins - 1; ++bin)
        labels.push_back(fmt::format("{} to {} %", (bin - 11) * 5, (bin - 10) * 5));
    labels.push_back(">= +50 %");
    return labels;
}

} // namespace

std::vector<report::Chart> validation_charts(const ValidationReport& report) {
    std::vector<report::Chart> charts;
    report::Chart errors;
    errors.key = "error_distribution";
    errors.title = "Distribution of the relative errors (predicted - measured) / measured";
    errors.kind = report::ChartKind::bar;
    errors.x_axis = {"relative error", "", false};
    errors.y_axis = {"configurations", "", false};
    errors.categories = error_bin_labels();
    const auto count_error = [&](const std::string& name, double predicted, double measured) {
        auto& series = errors.series_named(name);
        if (series.y.empty())
            series.y.assign(error_bins, 0.0);
        series.y[static_cast<size_t>(error_bin(runtime::relative_error(predicted, measured)))] += 1;
    };

    report::Chart times = comparison_chart("time", "Predicted against measured time", "time", "us");
    for (const auto& row : report.rows)
        if (row.measured_time_s && *row.measured_time_s > 0) {
            add_point(times.series_named("kerncast"), *row.measured_time_s * 1e6,
                      row.predicted_time_s * 1e6, row.configuration);
            count_error("time", row.predicted_time_s, *row.measured_time_s);
        }
    if (!times.series.empty()) {
        // The predicted and the measured best of the table "time_extremes", marked.
        for (const TimeExtreme& extreme : report.time_extremes) {
            const bool predicted = extreme.role.rfind("predicted best", 0) == 0;
            if (!predicted && extreme.role != "measured best")
                continue;
            report::ChartSeries& marked =
                times.series_named(predicted ? "predicted best" : "measured best");
            marked.highlight = true;
            add_point(marked, extreme.measured_time_s * 1e6, extreme.predicted_time_s * 1e6,
                      extreme.configuration);
        }
        choose_scales(times);
        charts.push_back(std::move(times));
    }

    for (const auto& metric : measured_metrics(report)) {
        report::Chart chart = comparison_chart("counter_" + metric,
                                               "Predicted against measured " + metric, metric, "");
        for (const auto& row : report.rows) {
            const auto found = row.counters.find(metric);
            if (found == row.counters.end() || !found->second.measured ||
                *found->second.measured <= 0)
                continue;
            const double measured = *found->second.measured;
            add_point(chart.series_named("kerncast"), measured, found->second.predicted,
                      row.configuration);
            count_error(metric, found->second.predicted, measured);
            if (found->second.peer_predicted)
                add_point(chart.series_named("peer (published prediction)"), measured,
                          *found->second.peer_predicted, row.configuration);
        }
        choose_scales(chart);
        charts.push_back(std::move(chart));
    }

    report::Chart throughput =
        comparison_chart("throughput", "Predicted against measured throughput, per ranking group",
                         "throughput", "GFlop/s");
    for (const auto& row : report.rows)
        if (row.predicted_flops_per_s && row.measured_flops_per_s)
            add_point(throughput.series_named(row.group), *row.measured_flops_per_s / 1e9,
                      *row.predicted_flops_per_s / 1e9, row.configuration);
    if (!throughput.series.empty()) {
        choose_scales(throughput);
        charts.push_back(std::move(throughput));
    }
    if (!errors.series.empty())
        charts.push_back(std::move(errors));
    return charts;
}

} // namespace kerncast::validate
