#include "kerncast/probe/analysis.hpp"
#include "kerncast/report/table_builder.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kerncast::probe {

using report::cell_if;

namespace {

// One chart per size search: median latency against footprint (log scale), a series per
// repetition, the located change points as vertical lines.
std::vector<report::Chart> latency_charts(const ProbeAnalysis& analysis) {
    std::vector<report::Chart> charts;
    for (const auto& curve : analysis.latency_curves) {
        auto chart = std::find_if(charts.begin(), charts.end(),
                                  [&](const report::Chart& c) { return c.key == curve.benchmark; });
        if (chart == charts.end()) {
            report::Chart& c = charts.emplace_back();
            c.key = curve.benchmark;
            c.title = fmt::format("{}: latency against footprint, detected change points",
                                  curve.benchmark);
            c.kind = report::ChartKind::scatter;
            c.x_axis = {"footprint", "B", true};
            c.y_axis = {"median latency", curve.unit, false};
            chart = charts.end() - 1;
        }
        report::ChartSeries& series = chart->series.emplace_back();
        series.name = fmt::format("repetition {}", curve.repetition);
        series.x = curve.footprint_bytes;
        series.y = curve.median_latency;
        if (curve.change_point_bytes &&
            std::find(chart->x_markers.begin(), chart->x_markers.end(),
                      *curve.change_point_bytes) == chart->x_markers.end())
            chart->x_markers.push_back(*curve.change_point_bytes);
    }
    return charts;
}

} // namespace

report::Document probe_view(const ProbeAnalysis& analysis) {
    report::Document doc;
    doc.schema = "kerncast.probe/1";
    doc.title = "GPU topology probe: " + analysis.device.name;

    report::TableBuilder device("device", "Device and settings");
    device.columns({"name",
                    {"compute_capability", "CC"},
                    {"sm_count", "SMs"},
                    {"sm_clock_peak_mhz", "peak clock", "MHz", 0},
                    {"sm_clock_measured_mhz", "measured clock", "MHz", 0},
                    {"carveout_percent", "carve-out", "%"},
                    {"driver_version", "driver"},
                    "date"});
    device.row(analysis.device.name,
               fmt::format("{}.{}", analysis.device.cc_major, analysis.device.cc_minor),
               analysis.device.sm_count, analysis.device.sm_clock_peak_mhz,
               cell_if(analysis.sm_clock_measured_mhz > 0, analysis.sm_clock_measured_mhz),
               cell_if(analysis.carveout_percent >= 0, analysis.carveout_percent),
               analysis.device.driver_version, analysis.date);
    doc.tables.push_back(device.build());

    report::TableBuilder values(
        "values", "Probed values (median of repetitions; spread = median absolute deviation)");
    values.columns({"memory",
                    "quantity",
                    {"value", "value", "", 2},
                    "unit",
                    {"spread", "spread", "", 2},
                    {"repetitions", "reps"},
                    {"p_value", "p"},
                    "confidence",
                    {"within_bounds", "in bounds"},
                    {"detail", "how"}});
    for (const auto& v : analysis.values) {
        const auto& e = v.estimate;
        std::string detail = v.detail;
        if (!e.note.empty())
            detail = e.note + (detail.empty() ? "" : "; " + detail);
        std::string quantity = v.quantity;
        if (v.store_fraction >= 0 && v.bandwidth_gbs >= 0)
            quantity = fmt::format("{} (store fraction {:.2f}, {:.0f} GB/s)", v.quantity,
                                   v.store_fraction, v.bandwidth_gbs);
        else if (v.store_fraction >= 0)
            quantity = fmt::format("{} (store fraction {:.2f})", v.quantity, v.store_fraction);
        values.row(v.memory.empty() ? std::string("device") : v.memory, quantity, e.value, v.unit,
                   e.spread, e.repetitions, cell_if(e.p_value >= 0, e.p_value),
                   to_string(e.confidence), e.within_bounds, detail);
    }
    doc.tables.push_back(values.build());
    doc.notes = analysis.notes;
    for (const auto& v : analysis.values)
        if (!v.estimate.within_bounds)
            doc.notes.push_back(v.benchmark + ": " + v.estimate.note +
                                "; not written to the machine file");
    doc.charts = latency_charts(analysis);
    return doc;
}

} // namespace kerncast::probe
