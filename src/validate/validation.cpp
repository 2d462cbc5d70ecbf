// Predictions against measurements (validation.hpp).
#include "kerncast/validate/validation.hpp"

#include "kerncast/error.hpp"
#include "kerncast/report/table_builder.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <span>

namespace kerncast::validate {

namespace fs = std::filesystem;

std::map<std::string, double> peer_counter_predictions(const runtime::Measurement& measurement) {
    std::map<std::string, double> peer;
    if (!measurement.provenance || !measurement.provenance->normalisation_points)
        return peer;
    const auto points = static_cast<double>(*measurement.provenance->normalisation_points);
    for (const auto& column : runtime::published_volume_columns()) {
        const auto found = measurement.provenance->peer_predictions.find(
            "peer_pred_" + std::string(column.column));
        if (found != measurement.provenance->peer_predictions.end())
            peer[column.metric] = found->second * points / column.bytes_per_unit;
    }
    return peer;
}

namespace {

// A "flop/s" throughput of the record (the first, by name), if any.
std::optional<double> measured_flops_per_s(const runtime::Measurement& m) {
    for (const auto& [name, value] : m.results.throughput)
        if (value.unit == "flop/s")
            return value.value;
    return std::nullopt;
}

std::string ranking_group(const runtime::Measurement& m) {
    if (!m.provenance)
        return m.kernel.name;
    return m.kernel.name + " (" + m.provenance->notebook + " cell " + m.provenance->cell + ")";
}

std::vector<ThroughputRanking> throughput_rankings(const std::vector<ValidationRow>& rows) {
    std::map<std::string, std::vector<const ValidationRow*>> groups;
    for (const auto& row : rows)
        if (row.measured_flops_per_s && row.predicted_flops_per_s &&
            *row.measured_flops_per_s > 0 && *row.predicted_flops_per_s > 0)
            groups[row.group].push_back(&row);
    std::vector<ThroughputRanking> rankings;
    for (const auto& entry : groups) {
        const std::string& group = entry.first; // named: clang 14 lambdas cannot capture
        const auto& members = entry.second;     // structured bindings
        if (members.size() < 2)
            continue;
        std::vector<double> measured, predicted_time, measured_time, tie_break;
        for (const auto* row : members) {
            measured.push_back(*row->measured_flops_per_s);
            // Per unit of work, 1 / throughput orders like a time; so does the tie-break over
            // the work (the time's share of it: tie_break_s / time_s).
            predicted_time.push_back(1 / *row->predicted_flops_per_s);
            measured_time.push_back(1 / *row->measured_flops_per_s);
            tie_break.push_back(row->predicted_time_s > 0
                                    ? row->predicted_tie_break_s / row->predicted_time_s /
                                          *row->predicted_flops_per_s
                                    : 0.0);
        }
        ThroughputRanking ranking;
        ranking.group = group;
        ranking.configurations = members.size();
        // Ranks of times ascending correlate as those of throughputs descending.
        ranking.spearman =
            runtime::spearman_rank_correlation(predicted_time, measured_time, tie_break);
        ranking.predicted_best_fraction =
            runtime::predicted_best_fraction(predicted_time, measured_time, tie_break);
        // The label names the configuration the fraction counts, and how many tie with it.
        const runtime::PredictedBestPick pick =
            runtime::predicted_best_pick(predicted_time, measured_time, tie_break);
        ranking.predicted_best = members[pick.index]->configuration;
        if (pick.tied > 1)
            ranking.predicted_best += fmt::format(" (slowest of {} tied)", pick.tied);
        ranking.measured_best =
            members[static_cast<std::size_t>(std::max_element(measured.begin(), measured.end()) -
                                             measured.begin())]
                ->configuration;
        ranking.near_best = runtime::near_best(predicted_time, measured_time);
        rankings.push_back(std::move(ranking));
    }
    return rankings;
}

// The timed rows (in the order their times were collected) behind the time figures.
std::vector<TimeExtreme> time_extremes(const std::vector<ValidationRow>& rows,
                                       std::span<const double> predicted,
                                       std::span<const double> measured,
                                       std::span<const double> tie_breaks) {
    std::vector<const ValidationRow*> timed;
    for (const auto& row : rows)
        if (row.measured_time_s)
            timed.push_back(&row);
    KERNCAST_CHECK(timed.size() == predicted.size(), "timed rows and times disagree");
    const auto extreme = [&](std::string role, std::size_t k) {
        const ValidationRow& row = *timed[k];
        return TimeExtreme{std::move(role),   row.kernel,
                           row.configuration, predicted[k],
                           measured[k],       runtime::relative_error(predicted[k], measured[k])};
    };
    std::vector<TimeExtreme> out;
    const runtime::PredictedBestPick pick =
        runtime::predicted_best_pick(predicted, measured, tie_breaks);
    out.push_back(extreme(pick.tied > 1
                              ? fmt::format("predicted best (slowest of {} tied)", pick.tied)
                              : std::string("predicted best"),
                          pick.index));
    out.push_back(extreme("measured best", static_cast<std::size_t>(
                                               std::min_element(measured.begin(), measured.end()) -
                                               measured.begin())));
    std::vector<std::size_t> order(timed.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    const auto error_of = [&](std::size_t k) {
        return std::abs(runtime::relative_error(predicted[k], measured[k]));
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return error_of(a) > error_of(b); });
    for (std::size_t k = 0; k < std::min(worst_predicted_rows, order.size()); ++k)
        out.push_back(extreme("worst predicted", order[k]));
    return out;
}

} // namespace

ValidationReport validate_predictions(const std::vector<runtime::LoadedRecord>& records,
                                      const PredictionSource& predict) {
    ValidationReport report;
    std::map<std::string, std::vector<double>> counter_errors, peer_errors;
    std::vector<double> predicted_times, measured_times, tie_breaks;
    for (const auto& record : records) {
        const runtime::Measurement& m = record.measurement;
        std::optional<models::Prediction> prediction;
        try {
            prediction = predict(m.kernel);
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
        row.kernel = m.kernel.name;
        row.configuration = runtime::configuration_label(m.kernel);
        row.published = m.published();
        row.group = ranking_group(m);
        row.predicted_time_s = prediction->time_s;
        row.predicted_tie_break_s = prediction->tie_break_s;
        if (m.has_times())
            row.measured_time_s = m.results.median_s;
        if (prediction->flops && prediction->time_s > 0)
            row.predicted_flops_per_s = *prediction->flops / prediction->time_s;
        row.measured_flops_per_s = measured_flops_per_s(m);
        const std::map<std::string, double> peer = peer_counter_predictions(m);
        for (const auto& [metric, predicted] : prediction->counters) {
            CounterComparison comparison{predicted, std::nullopt, std::nullopt};
            const auto measured = m.counters.find(metric);
            if (measured != m.counters.end()) {
                comparison.measured = measured->second.value;
                if (measured->second.value > 0)
                    counter_errors[metric].push_back(
                        std::abs(runtime::relative_error(predicted, measured->second.value)));
                const auto peer_value = peer.find(metric);
                if (peer_value != peer.end()) {
                    comparison.peer_predicted = peer_value->second;
                    if (measured->second.value > 0)
                        peer_errors[metric].push_back(std::abs(
                            runtime::relative_error(peer_value->second, measured->second.value)));
                }
            }
            row.counters[metric] = comparison;
        }
        if (row.measured_time_s) {
            predicted_times.push_back(row.predicted_time_s);
            tie_breaks.push_back(row.predicted_tie_break_s);
            measured_times.push_back(*row.measured_time_s);
        }
        if (row.published)
            ++report.published_rows;
        report.rows.push_back(std::move(row));
    }
    if (!predicted_times.empty()) {
        report.time_statistics =
            runtime::validation_statistics(predicted_times, measured_times, tie_breaks);
        report.time_extremes =
            time_extremes(report.rows, predicted_times, measured_times, tie_breaks);
    }
    for (const auto& [metric, errors] : counter_errors) {
        CounterAccuracy accuracy;
        accuracy.compared = errors.size();
        accuracy.median_abs_relative_error = runtime::median(errors);
        accuracy.p90_abs_relative_error = runtime::percentile(errors, 90);
        const auto peer = peer_errors.find(metric);
        if (peer != peer_errors.end()) {
            accuracy.peer_compared = peer->second.size();
            accuracy.peer_median_abs_relative_error = runtime::median(peer->second);
            accuracy.peer_p90_abs_relative_error = runtime::percentile(peer->second, 90);
        }
        report.counter_accuracy[metric] = accuracy;
    }
    report.throughput_rankings = throughput_rankings(report.rows);
    return report;
}

namespace {

// Predicted, measured (and, where any row has one, the peer's) value of each metric; blank
// where the row lacks the metric.
std::vector<report::Cell> counter_cells(const ValidationRow& row,
                                        const std::vector<std::string>& metrics,
                                        const std::vector<bool>& with_peer) {
    std::vector<report::Cell> cells;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const auto found = row.counters.find(metrics[i]);
        const bool known = found != row.counters.end();
        cells.push_back(known ? report::Cell{found->second.predicted} : report::Cell{});
        cells.push_back(known ? report::make_cell(found->second.measured) : report::Cell{});
        if (with_peer[i])
            cells.push_back(known ? report::make_cell(found->second.peer_predicted)
                                  : report::Cell{});
    }
    return cells;
}

report::Table configurations_table(const ValidationReport& report) {
    // The metrics some row measured (all predicted ones when no row measured any): a metric
    // the records do not have (e.g. the srcunit_tex metrics beside the all-units ones) would
    // only add columns of predictions.
    std::vector<std::string> metrics, measured_metrics;
    for (const auto& row : report.rows)
        for (const auto& [metric, comparison] : row.counters) {
            if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end())
                metrics.push_back(metric);
            if (comparison.measured && std::find(measured_metrics.begin(), measured_metrics.end(),
                                                 metric) == measured_metrics.end())
                measured_metrics.push_back(metric);
        }
    if (!measured_metrics.empty())
        metrics = measured_metrics;
    std::sort(metrics.begin(), metrics.end());
    std::vector<bool> with_peer;
    for (const auto& metric : metrics)
        with_peer.push_back(std::any_of(report.rows.begin(), report.rows.end(), [&](const auto& r) {
            const auto found = r.counters.find(metric);
            return found != r.counters.end() && found->second.peer_predicted;
        }));
    const bool any_throughput =
        std::any_of(report.rows.begin(), report.rows.end(),
                    [](const auto& r) { return r.measured_flops_per_s.has_value(); });

    report::TableBuilder t("configurations",
                           report.published_rows > 0
                               ? "Per configuration (measured: median of the record's "
                                 "repetitions; source published: transcribed from a "
                                 "publication, not measured by kerncast)"
                               : "Per configuration (measured: median of the record's "
                                 "repetitions)");
    t.columns({"kernel",
               "configuration",
               {"source", "source"},
               {"predicted_time_us", "predicted", "us", 3},
               {"measured_time_us", "measured", "us", 3},
               {"relative_error", "rel. error", "", 3}});
    if (any_throughput)
        t.column({"predicted_gflops", "pred. GFlop/s", "GFlop/s", 1})
            .column({"measured_gflops", "meas. GFlop/s", "GFlop/s", 1});
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        t.column({metrics[i] + ".predicted", metrics[i] + " pred."})
            .column({metrics[i] + ".measured", metrics[i] + " meas."});
        if (with_peer[i])
            t.column({metrics[i] + ".peer", metrics[i] + " peer pred. (not measured)"});
    }
    t.column("record");
    const auto scaled = [](const std::optional<double>& value, double factor) {
        return value ? std::optional<double>(*value * factor) : std::nullopt;
    };
    for (const auto& row : report.rows) {
        std::optional<double> error;
        if (row.measured_time_s && *row.measured_time_s > 0)
            error = runtime::relative_error(row.predicted_time_s, *row.measured_time_s);
        std::vector<report::Cell> throughput_cells;
        if (any_throughput)
            throughput_cells = {report::make_cell(scaled(row.predicted_flops_per_s, 1e-9)),
                                report::make_cell(scaled(row.measured_flops_per_s, 1e-9))};
        t.row(row.kernel, row.configuration, row.published ? "published" : "kerncast",
              row.predicted_time_s * 1e6, scaled(row.measured_time_s, 1e6), error, throughput_cells,
              counter_cells(row, metrics, with_peer), row.record_path);
    }
    return t.build();
}

report::Table time_extremes_table(const std::vector<TimeExtreme>& extremes) {
    report::TableBuilder t("time_extremes", "The configurations behind the time figures");
    t.columns({"role",
               "kernel",
               "configuration",
               {"predicted_us", "predicted", "us", 3},
               {"measured_us", "measured", "us", 3},
               {"relative_error", "rel. error", "", 3}});
    for (const TimeExtreme& e : extremes)
        t.row(e.role, e.kernel, e.configuration, e.predicted_time_s * 1e6, e.measured_time_s * 1e6,
              e.relative_error);
    return t.build();
}

report::Table time_statistics_table(const runtime::ValidationStatistics& s) {
    report::TableBuilder t("time_statistics", "Accuracy of the predicted times");
    t.columns({"configurations",
               {"median_abs_relative_error", "median |rel. error|", "", 3},
               {"p90_abs_relative_error", "p90 |rel. error|", "", 3},
               {"spearman", "Spearman rho", "", 3},
               {"predicted_best_fraction", "predicted best / best", "", 3},
               {"near_best", "within 1 % of the predicted best"},
               {"near_best_measured_spread", "their measured spread", "", 3},
               {"measured_to_within_5_percent", "measured to within 5 % of the best"},
               {"random_order_to_within_5_percent", "in random order (expected)", "", 1}});
    t.row(s.configurations, s.median_abs_relative_error, s.p90_abs_relative_error, s.spearman,
          s.predicted_best_fraction, s.near_best.count, s.near_best.measured_spread,
          s.to_near_best.in_predicted_order, s.to_near_best.random_order);
    return t.build();
}

report::Table counter_accuracy_table(const std::map<std::string, CounterAccuracy>& accuracies) {
    const bool any_peer = std::any_of(accuracies.begin(), accuracies.end(),
                                      [](const auto& a) { return a.second.peer_compared > 0; });
    report::TableBuilder t("counter_accuracy",
                           any_peer ? "Accuracy of the predicted counters (peer: the published "
                                      "source's own predictions on the same rows)"
                                    : "Accuracy of the predicted counters");
    t.columns({"metric",
               "compared",
               {"median_abs_relative_error", "median |rel. error|", "", 3},
               {"p90_abs_relative_error", "p90 |rel. error|", "", 3}});
    t.columns_if(any_peer, {{"peer_compared", "peer compared"},
                            {"peer_median_abs_relative_error", "peer median |rel. error|", "", 3},
                            {"peer_p90_abs_relative_error", "peer p90 |rel. error|", "", 3}});
    for (const auto& [metric, a] : accuracies)
        t.row(metric, a.compared, a.median_abs_relative_error, a.p90_abs_relative_error,
              a.peer_compared, report::make_cell(a.peer_median_abs_relative_error),
              report::make_cell(a.peer_p90_abs_relative_error));
    return t.build();
}

report::Table throughput_ranking_table(const std::vector<ThroughputRanking>& rankings) {
    report::TableBuilder t("throughput_ranking",
                           "Ranking of the configurations by predicted throughput, per group");
    t.columns({"group",
               "configurations",
               {"spearman", "Spearman rho", "", 3},
               {"predicted_best_fraction", "predicted best / best", "", 3},
               {"predicted_best", "predicted best"},
               {"measured_best", "measured best"},
               {"near_best", "within 1 % of the predicted best"},
               {"near_best_measured_spread", "their measured spread", "", 3}});
    for (const auto& r : rankings)
        t.row(r.group, r.configurations, report::make_cell(r.spearman), r.predicted_best_fraction,
              r.predicted_best, r.measured_best, r.near_best.count, r.near_best.measured_spread);
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
    if (!report.time_extremes.empty())
        doc.tables.push_back(time_extremes_table(report.time_extremes));
    if (!report.counter_accuracy.empty())
        doc.tables.push_back(counter_accuracy_table(report.counter_accuracy));
    if (!report.throughput_rankings.empty())
        doc.tables.push_back(throughput_ranking_table(report.throughput_rankings));
    if (report.published_rows > 0)
        doc.notes.push_back(std::to_string(report.published_rows) + " of " +
                            std::to_string(report.rows.size()) +
                            " rows are published values (source published: transcribed from the "
                            "record's /provenance), not kerncast measurements; peer predictions "
                            "are the source's own model, not measurements");
    doc.notes.push_back("relative error = (predicted - measured) / measured; percentiles by "
                        "linear interpolation between closest ranks (docs/gpu-runtime.md)");
    doc.notes.push_back("predicted best / best: measured performance of the configuration with "
                        "the smallest predicted time (throughput ranking: the highest predicted "
                        "throughput), as a fraction of the best measured one");
    // One note, however many: the first three records by name and a count of the rest.
    if (report.unpredicted.size() == 1) {
        doc.notes.push_back("no prediction for " + report.unpredicted.front());
    } else if (!report.unpredicted.empty()) {
        std::string named;
        for (std::size_t k = 0; k < std::min<std::size_t>(3, report.unpredicted.size()); ++k)
            named += (k ? ", " : "") + report.unpredicted[k];
        const std::size_t rest =
            report.unpredicted.size() - std::min<std::size_t>(3, report.unpredicted.size());
        doc.notes.push_back("no prediction for " + std::to_string(report.unpredicted.size()) +
                            " records (no given kernel file predicts them): " + named +
                            (rest ? " and " + std::to_string(rest) + " more" : std::string()));
    }
    doc.charts = validation_charts(report);
    return doc;
}

} // namespace kerncast::validate
