#include "kerncast/probe/analysis.hpp"

#include <fmt/format.h>

namespace kerncast::probe {

report::Document probe_view(const ProbeAnalysis& analysis) {
    report::Document doc;
    doc.schema = "kerncast.probe/1";
    doc.title = "GPU topology probe: " + analysis.device.name;

    report::Table device;
    device.key = "device";
    device.title = "Device and settings";
    device.columns = {{"name", "name", "", -1},
                      {"compute_capability", "CC", "", -1},
                      {"sm_count", "SMs", "", -1},
                      {"sm_clock_peak_mhz", "peak clock", "MHz", 0},
                      {"sm_clock_measured_mhz", "measured clock", "MHz", 0},
                      {"carveout_percent", "carve-out", "%", -1},
                      {"driver_version", "driver", "", -1},
                      {"date", "date", "", -1}};
    device.rows.push_back(
        {analysis.device.name,
         fmt::format("{}.{}", analysis.device.cc_major, analysis.device.cc_minor),
         std::int64_t{analysis.device.sm_count}, analysis.device.sm_clock_peak_mhz,
         analysis.sm_clock_measured_mhz > 0 ? report::Cell{analysis.sm_clock_measured_mhz}
                                            : report::Cell{},
         analysis.carveout_percent >= 0 ? report::Cell{std::int64_t{analysis.carveout_percent}}
                                        : report::Cell{},
         std::int64_t{analysis.device.driver_version}, analysis.date});
    doc.tables.push_back(std::move(device));

    report::Table values;
    values.key = "values";
    values.title = "Probed values (median of repetitions; spread = median absolute deviation)";
    values.columns = {{"memory", "memory", "", -1},
                      {"quantity", "quantity", "", -1},
                      {"value", "value", "", 2},
                      {"unit", "unit", "", -1},
                      {"spread", "spread", "", 2},
                      {"repetitions", "reps", "", -1},
                      {"p_value", "p", "", -1},
                      {"confidence", "confidence", "", -1},
                      {"within_bounds", "in bounds", "", -1},
                      {"detail", "how", "", -1}};
    for (const auto& v : analysis.values) {
        const auto& e = v.estimate;
        std::string detail = v.detail;
        if (!e.note.empty())
            detail = e.note + (detail.empty() ? "" : "; " + detail);
        values.rows.push_back(
            {v.memory.empty() ? report::Cell{std::string("device")} : report::Cell{v.memory},
             v.quantity, e.value, v.unit, e.spread, std::int64_t{e.repetitions},
             e.p_value >= 0 ? report::Cell{e.p_value} : report::Cell{},
             std::string(to_string(e.confidence)), e.within_bounds, detail});
    }
    doc.tables.push_back(std::move(values));
    doc.notes = analysis.notes;
    for (const auto& v : analysis.values)
        if (!v.estimate.within_bounds)
            doc.notes.push_back(v.benchmark + ": " + v.estimate.note +
                                "; not written to the machine file");
    return doc;
}

} // namespace kerncast::probe
