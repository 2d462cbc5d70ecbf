#include "kerncast/models/mwp_cwp/parameter_fit_view.hpp"

#include "kerncast/report/table_builder.hpp"

namespace kerncast::models::mwp_cwp {

report::Document mwp_fit_view(const MwpFit& fit, const std::string& machine_id,
                              const std::vector<std::string>& skipped) {
    report::Document doc;
    doc.schema = "kerncast.mwp-fit/1";
    doc.title =
        "MWP-CWP memory parameters fitted to timed runs (Hong & Kim 2009, sec. 5.1): " + machine_id;
    report::TableBuilder p("parameters", "Fitted parameters (machine field mwp_cwp.*)");
    p.columns({{"parameter", "paper"},
               "field",
               {"value", "value", "cycles", 3},
               {"start", "start", "cycles", 1}});
    p.row("Mem_LD", "mem_ld_cycles", fit.parameters[0], fit.start[0]);
    p.row("Departure_del_uncoal", "departure_del_uncoal_cycles", fit.parameters[1], fit.start[1]);
    p.row("Departure_del_coal", "departure_del_coal_cycles", fit.parameters[2], fit.start[2]);
    doc.tables.push_back(p.build());

    report::TableBuilder f("fit", "Fit");
    f.columns({"samples",
               {"median_abs_relative_error", "median |error|", "", 4},
               {"max_abs_relative_error", "max |error|", "", 4},
               "converged",
               "termination",
               "iterations"});
    f.row(fit.rows.size(), fit.median_abs_relative_error, fit.max_abs_relative_error, fit.converged,
          fit.termination, fit.iterations);
    doc.tables.push_back(f.build());

    report::TableBuilder s("samples", "Samples");
    s.columns({"record",
               "configuration",
               {"measured_ms", "measured", "ms", 4},
               {"predicted_ms", "predicted", "ms", 4},
               {"error", "error", "", 4}});
    for (const auto& row : fit.rows)
        s.row(row.record, row.configuration, row.measured_s * 1e3, row.predicted_s * 1e3,
              (row.predicted_s - row.measured_s) / row.measured_s);
    doc.tables.push_back(s.build());
    for (const auto& record : skipped)
        doc.notes.push_back("skipped: " + record);
    return doc;
}

} // namespace kerncast::models::mwp_cwp
