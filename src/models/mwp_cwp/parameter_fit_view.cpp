#include "kerncast/models/mwp_cwp/parameter_fit_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kerncast::models::mwp_cwp {

namespace {

// mwp-fit --cross-validate: each half's parameters judged on the other half's kernels.
report::Table cross_validation_table(const MwpCrossValidation& validation) {
    report::TableBuilder t("cross_validation",
                           "|relative error| of runs whose kernels the fit did not see (two "
                           "halves by kernel)");
    t.columns({"fitted_on",
               "predicted",
               {"mem_ld", "Mem_LD", "cycles", 1},
               {"departure_del_uncoal", "Dep. uncoal", "cycles", 2},
               {"departure_del_coal", "Dep. coal", "cycles", 2},
               "samples",
               {"median_abs_relative_error", "median |error|", "", 4},
               {"max_abs_relative_error", "max |error|", "", 4}});
    for (const auto& fold : validation.folds)
        t.row(fmt::format("{}", fmt::join(fold.train_kernels, ", ")),
              fmt::format("{}", fmt::join(fold.test_kernels, ", ")), fold.parameters[0],
              fold.parameters[1], fold.parameters[2], fold.test_samples,
              fold.median_abs_relative_error, fold.max_abs_relative_error);
    t.row("the other half", "all", report::blank, report::blank, report::blank, validation.samples,
          validation.median_abs_relative_error, validation.max_abs_relative_error);
    return t.build();
}

} // namespace

report::Document mwp_fit_view(const MwpFit& fit, const std::string& machine_id,
                              const std::vector<std::string>& skipped,
                              const MwpCrossValidation* cross_validation) {
    report::Document doc;
    doc.schema = "kerncast.mwp-fit/1";
    doc.title =
        "MWP-CWP memory parameters fitted to timed runs (Hong & Kim 2009, sec. 5.1): " + machine_id;
    report::TableBuilder p("parameters", "Fitted parameters (machine field mwp_cwp.*)");
    p.columns({{"parameter", "paper"},
               "field",
               {"value", "value", "cycles", 3},
               {"start", "start", "cycles", 1},
               "status"});
    const char* names[3] = {"Mem_LD", "Departure_del_uncoal", "Departure_del_coal"};
    const char* fields[3] = {"mem_ld_cycles", "departure_del_uncoal_cycles",
                             "departure_del_coal_cycles"};
    std::vector<std::string> undetermined, inseparable, bounded;
    for (std::size_t i = 0; i < 3; ++i) {
        p.row(names[i], fields[i], fit.parameters[i], fit.start[i],
              parameter_status_name(fit.status[i]));
        if (fit.status[i] == ParameterStatus::undetermined)
            undetermined.push_back(names[i]);
        if (fit.status[i] == ParameterStatus::not_separable)
            inseparable.push_back(names[i]);
        if (fit.status[i] == ParameterStatus::at_bound)
            bounded.push_back(names[i]);
    }
    doc.tables.push_back(p.build());
    if (!undetermined.empty())
        doc.notes.push_back(
            "the records do not determine " + fmt::format("{}", fmt::join(undetermined, ", ")) +
            (undetermined.size() == 1
                 ? ": no record's time depends on it at the fitted values (its value is where "
                   "the fit started, not a measurement)"
                 : ": no record's time depends on them at the fitted values (their values are "
                   "where the fit started, not measurements)") +
            "; add runs that they limit, e.g. uncoalesced loads for Departure_del_uncoal, "
            "memory-bound runs for Mem_LD");
    if (!bounded.empty())
        doc.notes.push_back("the fit stopped " + fmt::format("{}", fmt::join(bounded, ", ")) +
                            " at a bound of the range it searches (0.01 to 10^6 cycles): the "
                            "records pull it towards 0 or infinity, so MWP-CWP does not match "
                            "these runs with any value of it");
    if (!inseparable.empty())
        doc.notes.push_back("the records fix only a combination of " +
                            fmt::format("{}", fmt::join(inseparable, ", ")) +
                            " (not separable): their values are one of many that fit equally "
                            "well; add runs in which they limit the time differently");

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
    if (cross_validation && cross_validation->folds.empty())
        doc.notes.push_back("no cross-validation: " + cross_validation->not_run);
    else if (cross_validation)
        doc.tables.push_back(cross_validation_table(*cross_validation));
    return doc;
}

} // namespace kerncast::models::mwp_cwp
