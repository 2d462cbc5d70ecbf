#include "kerncast/models/calibrated/calibration_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models::calibrated {

using report::TableBuilder;

namespace {

report::Table parameters_table(const CalibrationResult& result) {
    TableBuilder t("parameters", "Parameters (Levenberg-Marquardt, Ceres Solver)");
    t.columns({"parameter",
               "status",
               {"initial", "initial", "", -1},
               {"value", "value", "", -1},
               {"standard_error", "s.e.", "", -1},
               "min",
               "max"});
    for (const auto& p : result.parameters)
        t.row(p.name, parameter_status_name(p.status), p.initial, p.value, p.standard_error, p.min,
              p.max);
    return t.build();
}

std::vector<report::Cell> statistics_cells(const ErrorStatistics& s) {
    return {s.geometric_mean_abs_relative_error, s.median_abs_relative_error,
            s.max_abs_relative_error};
}

report::Table errors_table(const CalibrationResult& result) {
    TableBuilder t("errors", "|relative error| per kernel after calibration");
    t.columns({"kernel", "samples"});
    t.columns_in_unit("", 4,
                      {{"geometric_mean", "geo. mean"}, {"median", "median"}, {"max", "max"}});
    for (const auto& k : result.kernels)
        t.row(k.kernel, k.samples, statistics_cells(k));
    t.row("all", result.all.samples, statistics_cells(result.all));
    return t.build();
}

std::string kernel_list(const std::vector<std::string>& kernels) {
    std::string out;
    for (const auto& kernel : kernels)
        out += (out.empty() ? "" : ", ") + kernel;
    return out;
}

// calibrate --cross-validate: each half's calibration judged on the other half's kernels.
report::Table cross_validation_table(const CalibrationCrossValidation& validation) {
    TableBuilder t("cross_validation",
                   "|relative error| of records whose kernels the calibration did not see "
                   "(two halves by kernel)");
    t.columns({"calibrated_on", "predicted", "samples"});
    t.columns_in_unit("", 4,
                      {{"geometric_mean", "geo. mean"}, {"median", "median"}, {"max", "max"}});
    for (const auto& fold : validation.folds)
        t.row(kernel_list(fold.train_kernels), kernel_list(fold.test_kernels), fold.test.samples,
              statistics_cells(fold.test));
    if (validation.held_out)
        t.row("the other half", "all", validation.held_out->samples,
              statistics_cells(*validation.held_out));
    return t.build();
}

report::Table solver_table(const CalibrationResult& result) {
    TableBuilder t("solver", "Least squares (Stevens & Klöckner sec. 7.2)");
    t.columns({"quantity", "value"});
    t.row("residuals", result.relative_error ? "relative (g - t) / t" : "absolute g - t");
    t.row("non_negative", result.non_negative);
    t.row("initial_residual_norm", result.initial_residual_norm);
    t.row("residual_norm", result.residual_norm);
    t.row("starts", result.starts);
    t.row("best_start", result.best_start_factor == 1
                            ? std::string("the model's initial values")
                            : fmt::format("the initial values x {}", result.best_start_factor));
    t.row("iterations", result.iterations);
    t.row("termination", result.termination);
    t.row("converged", result.converged);
    t.row("message", result.message);
    return t.build();
}

report::Table samples_table(const CostModel& model, const std::vector<CalibrationSample>& samples,
                            const CalibrationResult& result) {
    TableBuilder t("samples", "Measurements: measured and modelled " + model.output.name);
    t.columns({"record", "kernel", "configuration"});
    t.columns_in_unit("us", 3, {{"measured_us", "measured"}, {"predicted_us", "predicted"}});
    t.column({"relative_error", "rel. error", "", 4});
    for (std::size_t k = 0; k < samples.size(); ++k)
        t.row(samples[k].label, samples[k].kernel, samples[k].configuration,
              samples[k].measured * 1e6, result.predicted[k] * 1e6, result.relative_errors[k]);
    return t.build();
}

// HTML charts (docs/output.md#html-reports): the residual of each measurement, a series per
// kernel, and modelled against measured output with the diagonal.
std::vector<report::Chart> calibration_charts(const CostModel& model,
                                              const std::vector<CalibrationSample>& samples,
                                              const CalibrationResult& result) {
    report::Chart residuals;
    residuals.key = "residuals";
    residuals.title = "Relative error of each measurement after calibration, per kernel";
    residuals.kind = report::ChartKind::scatter;
    residuals.x_axis = {"measurement", "", false};
    residuals.y_axis = {"relative error", "%", false};
    report::Chart fit;
    fit.key = "modelled";
    fit.title = "Modelled against measured " + model.output.name;
    fit.kind = report::ChartKind::scatter;
    fit.x_axis = {"measured", "us", true};
    fit.y_axis = {"modelled", "us", true};
    fit.diagonal = true;
    for (std::size_t k = 0; k < samples.size(); ++k) {
        auto& residual = residuals.series_named(samples[k].kernel);
        residual.x.push_back(static_cast<double>(k + 1));
        residual.y.push_back(result.relative_errors[k] * 100);
        residual.point_labels.push_back(samples[k].configuration);
        auto& point = fit.series_named(samples[k].kernel);
        point.x.push_back(samples[k].measured * 1e6);
        point.y.push_back(result.predicted[k] * 1e6);
        point.point_labels.push_back(samples[k].configuration);
    }
    return {residuals, fit};
}

} // namespace

report::Document calibration_view(const CostModel& model,
                                  const std::vector<CalibrationSample>& samples,
                                  const CalibrationResult& result,
                                  const std::vector<std::string>& notes,
                                  const CalibrationCrossValidation* cross_validation) {
    report::Document doc;
    doc.schema = "kerncast.calibrate/1";
    doc.title = "Calibration of model " + model.name + " (" + model.output.name + ")";
    doc.tables.push_back(parameters_table(result));
    doc.tables.push_back(errors_table(result));
    if (cross_validation && cross_validation->held_out)
        doc.tables.push_back(cross_validation_table(*cross_validation));
    doc.tables.push_back(solver_table(result));
    doc.tables.push_back(samples_table(model, samples, result));
    doc.notes.push_back("relative error = (predicted - measured) / measured; geometric mean of "
                        "|relative error| as Stevens & Klöckner report it (sec. 8)");
    for (const auto& p : result.parameters)
        if (p.status == ParameterStatus::undetermined)
            doc.notes.push_back(p.name + ": undetermined: no measurement depends on it (its "
                                         "features are zero on every record); left at its "
                                         "initial value");
    std::string inseparable;
    for (const auto& p : result.parameters)
        if (p.status == ParameterStatus::not_separable)
            inseparable += (inseparable.empty() ? "" : ", ") + p.name;
    if (!inseparable.empty())
        doc.notes.push_back(fmt::format(
            "{}: not separable: the {} records fix only {} independent combinations of the "
            "fitted parameters (the rank of their Jacobian), so these values are one choice of "
            "many that fit as well; more records, or records whose features vary apart, "
            "determine them",
            inseparable, samples.size(), result.jacobian_rank));
    if (!result.covariance_available && result.iterations > 0)
        doc.notes.push_back("no standard errors: there are no more measurements than determined "
                            "parameters, or the Jacobian is rank-deficient (some parameters are "
                            "not determined separately by these measurements)");
    if (!result.converged)
        doc.notes.push_back("the solver did not converge (" + result.termination +
                            "): " + result.message);
    if (cross_validation && !cross_validation->held_out)
        doc.notes.push_back("no cross-validation: it needs records of at least two kernels");
    for (const auto& note : notes)
        doc.notes.push_back(note);
    doc.charts = calibration_charts(model, samples, result);
    return doc;
}

report::Document model_prediction_view(const ModelPrediction& prediction) {
    report::Document doc;
    doc.schema = "kerncast.model-prediction/1";
    doc.title =
        "Model " + prediction.model + " for " + prediction.kernel + " on " + prediction.machine;
    TableBuilder result("prediction", "Prediction (Stevens & Klöckner sec. 7.3)");
    result.columns({"model", "kernel", "output", {"predicted_us", "predicted", "us", 3}});
    result.row(prediction.model, prediction.kernel, prediction.output, prediction.predicted * 1e6);
    doc.tables.push_back(result.build());
    TableBuilder params("kernel_parameters", "Kernel parameters");
    params.columns({"parameter", "value"});
    for (const auto& [name, value] : prediction.kernel_parameters)
        params.row(name, value);
    if (params.has_rows())
        doc.tables.push_back(params.build());
    TableBuilder parameters("parameters", "Calibrated parameters");
    parameters.columns({"parameter", "value", "source"});
    for (const auto& p : prediction.parameters)
        parameters.row(p.name, p.value, p.source);
    doc.tables.push_back(parameters.build());
    TableBuilder features("features", "Features (exact counts, Stevens & Klöckner sec. 6.1)");
    features.columns({"feature", "value"});
    for (const auto& f : prediction.features)
        features.row(f.name, f.value);
    doc.tables.push_back(features.build());
    return doc;
}

} // namespace kerncast::models::calibrated
