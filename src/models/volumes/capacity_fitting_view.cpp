#include "kerncast/models/volumes/capacity_fitting_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models {

using report::Cell;
using report::TableBuilder;

namespace {

std::vector<Cell> abc_cells(const std::array<double, 3>& abc) {
    return {abc[0], abc[1], abc[2]};
}

// Standard errors of a, b, c; blank where absent, and for a held at 1 (a note says so).
std::vector<Cell> error_cells(const FittedCoefficients& entry) {
    std::vector<Cell> cells{Cell{}, Cell{}, Cell{}};
    if (entry.standard_errors)
        cells = abc_cells(*entry.standard_errors);
    if (entry.asymptote_held)
        cells[0] = Cell{};
    return cells;
}

report::Table coefficients_table(const CapacityFitResult& fit) {
    TableBuilder t("coefficients",
                   "Capacity-miss fits hit(O) = a exp(-b exp(-c O)) (Ernst et al. 2023, eq. 5)");
    t.columns({"fit", "status", "samples"});
    t.columns_in_unit("", 3,
                      {{"oversubscription_min", "O min"}, {"oversubscription_max", "O max"}});
    t.columns_in_unit("", 6,
                      {{"a_start", "a start"},
                       {"b_start", "b start"},
                       {"c_start", "c start"},
                       {"a", "a"},
                       {"b", "b"},
                       {"c", "c"},
                       {"a_standard_error", "a s.e."},
                       {"b_standard_error", "b s.e."},
                       {"c_standard_error", "c s.e."}});
    for (const auto& entry : fit.coefficients) {
        if (entry.status == FitStatus::absent)
            continue;
        const bool seen = entry.samples > 0;
        t.row(capacity_fit_name(entry.kind), fit_status_name(entry.status), entry.samples,
              report::cell_if(seen, entry.min_oversubscription),
              report::cell_if(seen, entry.max_oversubscription), abc_cells(entry.start),
              abc_cells(entry.fitted), error_cells(entry));
    }
    return t.build();
}

std::vector<Cell> summary_cells(const ErrorSummary& summary) {
    return {summary.median_abs_relative_error, summary.p90_abs_relative_error};
}

std::vector<Cell> summary_cells(const std::optional<ErrorSummary>& summary) {
    if (!summary)
        return {Cell{}, Cell{}};
    return summary_cells(*summary);
}

report::Table errors_table(const CapacityFitResult& fit, const CrossValidation& validation) {
    TableBuilder t("errors", "|relative error| of the predicted volumes: before the fit, after "
                             "it, and held out (each sample predicted by the other half's fit)");
    t.columns({"metric", "samples"});
    const bool held_out = validation.held_out.has_value();
    t.columns_in_unit("", 4,
                      {{"median_before", "median before"},
                       {"p90_before", "p90 before"},
                       {"median_after", "median after"},
                       {"p90_after", "p90 after"}});
    t.columns_if(held_out, {{"median_held_out", "median held out", "", 4},
                            {"p90_held_out", "p90 held out", "", 4}});
    for (int m = 0; m < volume_metrics; ++m) {
        const auto& pair = fit.by_metric[static_cast<std::size_t>(m)];
        if (!pair)
            continue;
        t.row(volume_metric_name(static_cast<VolumeMetric>(m)), pair->first.samples,
              summary_cells(pair->first), summary_cells(pair->second),
              summary_cells(validation.held_out_by_metric[static_cast<std::size_t>(m)]));
    }
    t.row("all", fit.before.samples, summary_cells(fit.before), summary_cells(fit.after),
          summary_cells(validation.held_out));
    return t.build();
}

report::Table solver_table(const CapacityFitResult& fit) {
    TableBuilder t("solver", "Levenberg-Marquardt (Ceres Solver)");
    t.columns({"quantity", "value"});
    t.row("starts", fit.starts);
    t.row("best_start", fit.start);
    t.row("iterations", fit.iterations);
    t.row("termination", fit.termination);
    t.row("converged", fit.converged);
    t.row("initial_cost", fit.initial_cost);
    t.row("final_cost", fit.final_cost);
    t.row("message", fit.message);
    return t.build();
}

std::string half_name(int half) {
    return half == 0 ? "A" : "B";
}

report::Table cross_validation_table(const CrossValidation& validation) {
    TableBuilder t("cross_validation",
                   "Cross-validation: fit on one half of the block shapes, test on the other");
    t.columns({"trained_on", "tested_on", "train_groups", "test_groups", "train_samples",
               "test_samples"});
    t.columns_in_unit("", 4,
                      {{"train_median", "train median"},
                       {"train_p90", "train p90"},
                       {"test_median_before", "test median before"},
                       {"test_p90_before", "test p90 before"},
                       {"test_median_after", "test median after"},
                       {"test_p90_after", "test p90 after"}});
    for (const auto& fold : validation.folds)
        t.row(half_name(fold.trained_on), half_name(1 - fold.trained_on), fold.train_groups.size(),
              fold.test_groups.size(), fold.train.samples, fold.test_after.samples,
              summary_cells(fold.train), summary_cells(fold.test_before),
              summary_cells(fold.test_after));
    return t.build();
}

report::Table cross_validation_fits_table(const CrossValidation& validation) {
    TableBuilder t("cross_validation_fits", "Coefficients fitted on each half");
    t.columns({"trained_on", "fit", "status"});
    t.columns_in_unit("", 6, {"a", "b", "c"});
    for (const auto& fold : validation.folds)
        for (const auto& entry : fold.fit.coefficients)
            if (entry.status != FitStatus::absent)
                t.row(half_name(fold.trained_on), capacity_fit_name(entry.kind),
                      fit_status_name(entry.status), abc_cells(entry.fitted));
    return t.build();
}

report::Table samples_table(const std::vector<VolumeSample>& samples, const CapacityFitResult& fit,
                            const CrossValidation& validation) {
    TableBuilder t("samples", "Samples: measured and predicted bytes per point");
    t.columns({"record", "group", "metric"});
    t.columns_in_unit("B", 3,
                      {{"measured", "measured"},
                       {"predicted_before", "predicted before"},
                       {"predicted_after", "predicted after"}});
    t.columns_in_unit("", 4,
                      {{"error_before", "rel. error before"},
                       {"error_after", "rel. error after"},
                       {"error_held_out", "rel. error held out"}});
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto& sample = samples[i];
        const bool held_out =
            i < validation.held_out_residuals.size() && validation.held_out_residuals[i];
        t.row(sample.label, sample.group, volume_metric_name(sample.metric),
              sample.measured_bytes_per_point, fit.predicted_before[i], fit.predicted_after[i],
              fit.residuals_before[i], fit.residuals_after[i],
              report::cell_if(held_out, held_out ? *validation.held_out_residuals[i] : 0.0));
    }
    return t.build();
}

} // namespace

report::Document fit_volumes_view(const std::vector<VolumeSample>& samples,
                                  const CapacityFitResult& fit, const CrossValidation& validation,
                                  const std::string& machine_id,
                                  const std::vector<std::string>& notes) {
    report::Document doc;
    doc.schema = "kerncast.fit-volumes/1";
    doc.title = "Capacity-miss fits of " + machine_id + " from measured volumes";
    doc.tables.push_back(coefficients_table(fit));
    doc.tables.push_back(errors_table(fit, validation));
    doc.tables.push_back(solver_table(fit));
    if (!validation.folds.empty()) {
        doc.tables.push_back(cross_validation_table(validation));
        doc.tables.push_back(cross_validation_fits_table(validation));
    }
    doc.tables.push_back(samples_table(samples, fit, validation));

    doc.notes.push_back("relative error = (predicted - measured) / measured; the fit minimises "
                        "the sum of their squares; p90 by linear interpolation between closest "
                        "ranks");
    for (const auto& entry : fit.coefficients) {
        if (entry.status == FitStatus::not_identifiable)
            doc.notes.push_back(std::string(capacity_fit_name(entry.kind)) +
                                ": not identifiable: no sample has a term of it with a volume "
                                "above zero; left at the machine's value");
        if (entry.status == FitStatus::undetermined)
            doc.notes.push_back(std::string(capacity_fit_name(entry.kind)) +
                                ": undetermined: its samples do not determine its coefficients "
                                "(rank-deficient Jacobian, O from " +
                                fmt::format("{:.3g} to {:.3g}", entry.min_oversubscription,
                                            entry.max_oversubscription) +
                                ") and the machine's values fit them as well; left unchanged");
        if (entry.start_clamped)
            doc.notes.push_back(std::string(capacity_fit_name(entry.kind)) +
                                ": the machine's coefficients lie outside 0 < a <= 1, b > 0, "
                                "c < 0; the fit started from the nearest values inside");
    }
    std::string held;
    for (const auto& entry : fit.coefficients)
        if (entry.asymptote_held)
            held += (held.empty() ? "" : ", ") + std::string(capacity_fit_name(entry.kind));
    if (!held.empty())
        doc.notes.push_back("a held at 1, b and c fitted: " + held +
                            " (lines within a cache's capacity hit, hit(0) = e^-b; "
                            "--fit-asymptote fits a too)");
    if (fit.iterations > 0 && !fit.covariance_available) {
        std::string conditional, undetermined;
        for (const auto& entry : fit.coefficients) {
            if (entry.status != FitStatus::fitted)
                continue;
            std::string& list = entry.standard_errors ? conditional : undetermined;
            list += (list.empty() ? "" : ", ") + std::string(capacity_fit_name(entry.kind));
        }
        doc.notes.push_back(
            "the joint covariance of the coefficients is singular (or there are no more samples "
            "than coefficients): the samples do not determine every coefficient separately");
        if (!conditional.empty())
            doc.notes.push_back("standard errors of " + conditional +
                                " are conditional: each fit alone, the others held at their "
                                "values");
        if (!undetermined.empty())
            doc.notes.push_back("not determined separately (no standard errors): " + undetermined +
                                "; their coefficients only reproduce the curve over the O range "
                                "of their samples");
    }
    if (validation.folds.empty()) {
        doc.notes.push_back("no cross-validation: the samples come from fewer than two groups "
                            "(block shapes of a kernel)");
    } else {
        for (const auto& fold : validation.folds) {
            std::string groups;
            for (const auto& group : fold.train_groups)
                groups += (groups.empty() ? "" : "; ") + group;
            doc.notes.push_back("half " + half_name(fold.trained_on) + ": " + groups);
        }
        if (validation.held_out)
            doc.notes.push_back(fmt::format(
                "held out: median |rel. error| {:.4f}, p90 {:.4f} over {} samples, each "
                "predicted by the fit on the other half",
                validation.held_out->median_abs_relative_error,
                validation.held_out->p90_abs_relative_error, validation.held_out->samples));
    }
    for (const auto& note : notes)
        doc.notes.push_back(note);
    return doc;
}

} // namespace kerncast::models
