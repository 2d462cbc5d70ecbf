// Levenberg-Marquardt calibration of a cost model with Ceres Solver (calibration.hpp).
#include "kerncast/models/calibrated/calibration.hpp"

#include "../../support/least_squares.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/statistics.hpp"
#include "kerncast/support/cross_validation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <ceres/ceres.h>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace kerncast::models::calibrated {

namespace {

// One sample's residual: (g(p) - t) / t, or g(p) - t. The solver sees scaled parameters
// q = p / s, of order one whatever the units (costs of 1e-12 s next to an edge of 1e4 / s):
// its step and parameter tolerances are relative to the norm of the whole vector.
class SampleResidual {
public:
    SampleResidual(const CostModel& model, const CalibrationSample& sample, bool relative,
                   const std::vector<double>& scales)
        : model_(model), features_(sample.features.data()), measured_(sample.measured),
          scale_(relative ? 1.0 / sample.measured : 1.0), scales_(scales) {}

    template <class T> bool operator()(T const* const* scaled, T* residual) const {
        std::vector<T> parameters(scales_.size());
        for (std::size_t i = 0; i < scales_.size(); ++i)
            parameters[i] = scaled[0][i] * T(scales_[i]);
        residual[0] = (model_.evaluate(parameters.data(), features_) - T(measured_)) * T(scale_);
        return true;
    }

private:
    const CostModel& model_;
    const double* features_;
    double measured_;
    double scale_;
    const std::vector<double>& scales_;
};

// Jet width: derivatives of this many parameters per evaluation pass.
constexpr int jet_stride = 8;

void check_samples(const CostModel& model, const std::vector<CalibrationSample>& samples) {
    if (samples.empty())
        throw_input_error("no measurements to calibrate model '" + model.name + "' on");
    for (const auto& sample : samples) {
        if (!std::isfinite(sample.measured) || sample.measured <= 0)
            throw_input_error(fmt::format("measurement '{}' has {} = {}; calibration needs a "
                                          "positive measured value",
                                          sample.label, model.output.name, sample.measured));
        KERNCAST_CHECK(sample.features.size() == model.features().size(),
                       "a sample has one value per model feature");
        for (std::size_t f = 0; f < sample.features.size(); ++f)
            if (!std::isfinite(sample.features[f]))
                throw_input_error("measurement '" + sample.label + "' has a non-finite value of " +
                                  model.features()[f].name);
    }
}

double residual_norm(const std::vector<double>& predicted,
                     const std::vector<CalibrationSample>& samples, bool relative) {
    double sum = 0;
    for (std::size_t k = 0; k < samples.size(); ++k) {
        const double r =
            (predicted[k] - samples[k].measured) / (relative ? samples[k].measured : 1.0);
        sum += r * r;
    }
    return std::sqrt(sum);
}

std::vector<double> predictions(const CostModel& model, const std::vector<double>& values,
                                const std::vector<CalibrationSample>& samples) {
    std::vector<double> out;
    out.reserve(samples.size());
    for (const auto& sample : samples)
        out.push_back(model.evaluate(values, sample.features));
    return out;
}

// Standard errors sqrt(s^2 diag((J^T J)^-1)) over the determined columns; nullopt when the
// Jacobian of those columns is rank-deficient (singular values scaled by column norms below
// 1e-10 of the largest).
std::optional<Eigen::VectorXd> standard_errors(const Eigen::MatrixXd& jacobian, double variance) {
    std::optional<Eigen::VectorXd> errors = support::covariance_diagonal(jacobian, 1e-10, variance);
    if (errors)
        *errors = errors->cwiseSqrt();
    return errors;
}

// The problem in scaled parameters q = p / scales (SampleResidual), bounds scaled alike.
void build_problem(ceres::Problem& problem, const CostModel& model,
                   const std::vector<CalibrationSample>& samples, bool relative,
                   const std::vector<double>& scales, std::vector<double>& scaled,
                   const std::vector<CalibratedParameter>& parameters) {
    const int m = static_cast<int>(scaled.size());
    for (const auto& sample : samples) {
        auto* cost = new ceres::DynamicAutoDiffCostFunction<SampleResidual, jet_stride>(
            new SampleResidual(model, sample, relative, scales));
        cost->AddParameterBlock(m);
        cost->SetNumResiduals(1);
        problem.AddResidualBlock(cost, nullptr, scaled.data());
    }
    for (int i = 0; i < m; ++i) {
        const auto& p = parameters[static_cast<std::size_t>(i)];
        const double s = scales[static_cast<std::size_t>(i)];
        if (p.min)
            problem.SetParameterLowerBound(scaled.data(), i, *p.min / s);
        if (p.max)
            problem.SetParameterUpperBound(scaled.data(), i, *p.max / s);
    }
}

// Levenberg-Marquardt from `values` (updated in place); returns the Jacobian of the residuals
// with respect to the parameters (unscaled) at the solution. Each parameter's scale is its
// initial magnitude, else the change that moves the residuals by about one (1 / the norm of
// its Jacobian column at the start), else 1.
Eigen::MatrixXd solve(const CostModel& model, const std::vector<CalibrationSample>& samples,
                      const CalibrationOptions& options, CalibrationResult& result,
                      std::vector<double>& values) {
    const std::size_t m = values.size();
    std::vector<double> scales(m, 1.0);
    {
        std::vector<double> at = values;
        ceres::Problem problem;
        build_problem(problem, model, samples, options.relative_error, scales, at,
                      result.parameters);
        const Eigen::MatrixXd start = support::dense_jacobian(problem, {at.data()});
        for (std::size_t i = 0; i < m; ++i) {
            const double norm = start.col(static_cast<Eigen::Index>(i)).norm();
            if (values[i] != 0)
                scales[i] = std::abs(values[i]);
            else if (norm > 0 && std::isfinite(norm))
                scales[i] = 1.0 / norm;
        }
    }
    std::vector<double> scaled(m);
    for (std::size_t i = 0; i < m; ++i)
        scaled[i] = values[i] / scales[i];
    ceres::Problem problem;
    build_problem(problem, model, samples, options.relative_error, scales, scaled,
                  result.parameters);
    support::LeastSquaresOptions solver;
    solver.max_iterations = options.max_iterations;
    solver.function_tolerance = 1e-14;
    solver.gradient_tolerance = 1e-16;
    solver.parameter_tolerance = 1e-12;
    const support::LeastSquaresSummary summary = support::solve_least_squares(problem, solver);
    result.iterations = summary.iterations;
    result.termination = summary.termination;
    result.message = summary.message;
    result.converged = summary.converged;
    result.final_cost = summary.final_cost;
    for (std::size_t i = 0; i < m; ++i)
        values[i] = scaled[i] * scales[i];
    Eigen::MatrixXd jacobian = support::dense_jacobian(problem, {scaled.data()});
    for (std::size_t i = 0; i < m; ++i)
        jacobian.col(static_cast<Eigen::Index>(i)) /= scales[i];
    return jacobian;
}

} // namespace

ErrorStatistics error_statistics(const std::vector<double>& relative_errors) {
    const runtime::AbsErrorSummary summary = runtime::summarize_abs_errors(relative_errors);
    ErrorStatistics s;
    s.samples = summary.samples;
    s.geometric_mean_abs_relative_error = summary.geometric_mean;
    s.median_abs_relative_error = summary.median;
    s.max_abs_relative_error = summary.max;
    return s;
}

bool CalibrationResult::determined() const {
    return std::none_of(parameters.begin(), parameters.end(), [](const CalibratedParameter& p) {
        return p.status == ParameterStatus::undetermined ||
               p.status == ParameterStatus::not_separable;
    });
}

std::vector<double> CalibrationResult::values() const {
    std::vector<double> out;
    for (const auto& p : parameters)
        out.push_back(p.value);
    return out;
}

CalibrationResult calibrate(const CostModel& model, const std::vector<CalibrationSample>& samples,
                            const CalibrationOptions& options) {
    check_samples(model, samples);
    if (options.max_iterations < 1)
        throw_usage_error("calibration needs at least one iteration");
    CalibrationResult result;
    result.relative_error = options.relative_error;
    result.non_negative = options.non_negative;
    std::vector<double> values;
    for (const auto& spec : model.parameters) {
        CalibratedParameter p;
        p.name = spec.name;
        p.initial = spec.initial;
        p.min = spec.min;
        p.max = spec.max;
        if (options.non_negative && !p.min)
            p.min = 0.0;
        p.initial = std::clamp(p.initial, p.min.value_or(-HUGE_VAL), p.max.value_or(HUGE_VAL));
        values.push_back(p.initial);
        result.parameters.push_back(p);
    }
    result.predicted_initial = predictions(model, values, samples);
    for (std::size_t k = 0; k < samples.size(); ++k)
        if (!std::isfinite(result.predicted_initial[k]))
            throw_input_error("model '" + model.name +
                                  "' is not finite at its initial parameter "
                                  "values for measurement '" +
                                  samples[k].label + "'",
                              SourceLocation{model.file, 0, 0, {}, {}},
                              {"give initial values where 0 does not work, e.g. parameters: "
                               "{p_edge: {initial: 1e4}}"});
    result.initial_residual_norm =
        residual_norm(result.predicted_initial, samples, options.relative_error);

    const int m = static_cast<int>(values.size());
    if (m > 0) {
        // A nonlinear model (the step of eq. 6) has local minima: from the model's initial
        // values and from those with every nonzero initial value scaled by 1/10, 10, 1/100
        // and 100, the lowest cost wins (the earlier start unless a later one is lower by more
        // than rounding, 1e-9 relative).
        const std::vector<double> start = values;
        const bool scalable =
            std::any_of(start.begin(), start.end(), [](double v) { return v != 0; });
        Eigen::MatrixXd jacobian;
        bool have_best = false;
        for (const double factor : {1.0, 0.1, 10.0, 0.01, 100.0}) {
            if (factor != 1.0 && (!scalable || !options.multi_start))
                break;
            std::vector<double> trial = start;
            for (std::size_t i = 0; i < trial.size(); ++i) {
                const auto& p = result.parameters[i];
                trial[i] = std::clamp(trial[i] * factor, p.min.value_or(-HUGE_VAL),
                                      p.max.value_or(HUGE_VAL));
            }
            CalibrationResult attempt = result;
            Eigen::MatrixXd trial_jacobian = solve(model, samples, options, attempt, trial);
            ++result.starts;
            if (!std::isfinite(attempt.final_cost) ||
                (have_best && attempt.final_cost >= result.final_cost * (1 - 1e-9)))
                continue;
            const int starts = result.starts;
            result = std::move(attempt);
            result.starts = starts;
            result.best_start_factor = factor;
            values = trial;
            jacobian = std::move(trial_jacobian);
            have_best = true;
        }
        std::vector<bool> on_bound;
        for (int i = 0; i < m; ++i) {
            auto& p = result.parameters[static_cast<std::size_t>(i)];
            p.value = values[static_cast<std::size_t>(i)];
            on_bound.push_back((p.min && p.value <= *p.min) || (p.max && p.value >= *p.max));
        }
        const support::ParameterStatuses statuses = support::parameter_statuses(jacobian, on_bound);
        for (int i = 0; i < m; ++i)
            result.parameters[static_cast<std::size_t>(i)].status =
                statuses.status[static_cast<std::size_t>(i)];
        result.jacobian_rank = statuses.rank;
        // Standard errors of the fitted ones would hold only with the inseparable ones fixed at
        // values the data do not choose: none then.
        std::vector<Eigen::Index> determined;
        if (!statuses.any_not_separable)
            determined = statuses.fitted;
        const auto n = static_cast<double>(samples.size());
        const auto free = static_cast<double>(determined.size());
        if (n > free && !determined.empty()) {
            const double variance = 2.0 * result.final_cost / (n - free);
            Eigen::MatrixXd columns(jacobian.rows(), static_cast<Eigen::Index>(determined.size()));
            for (std::size_t j = 0; j < determined.size(); ++j)
                columns.col(static_cast<Eigen::Index>(j)) = jacobian.col(determined[j]);
            if (const auto errors = standard_errors(columns, variance)) {
                result.covariance_available = true;
                for (std::size_t j = 0; j < determined.size(); ++j)
                    result.parameters[static_cast<std::size_t>(determined[j])].standard_error =
                        (*errors)(static_cast<Eigen::Index>(j));
            }
        }
    } else {
        result.termination = "nothing to fit";
        result.converged = true;
    }

    result.predicted = predictions(model, values, samples);
    result.residual_norm = residual_norm(result.predicted, samples, options.relative_error);
    for (std::size_t k = 0; k < samples.size(); ++k)
        result.relative_errors.push_back((result.predicted[k] - samples[k].measured) /
                                         samples[k].measured);
    result.all = error_statistics(result.relative_errors);
    std::vector<std::string> kernels;
    for (const auto& sample : samples)
        if (std::find(kernels.begin(), kernels.end(), sample.kernel) == kernels.end())
            kernels.push_back(sample.kernel);
    for (const auto& kernel : kernels) {
        std::vector<double> errors;
        for (std::size_t k = 0; k < samples.size(); ++k)
            if (samples[k].kernel == kernel)
                errors.push_back(result.relative_errors[k]);
        ErrorStatistics s = error_statistics(errors);
        s.kernel = kernel;
        result.kernels.push_back(s);
    }
    return result;
}

CalibrationCrossValidation cross_validate_calibration(const CostModel& model,
                                                      const std::vector<CalibrationSample>& samples,
                                                      const CalibrationOptions& options) {
    CalibrationCrossValidation validation;
    std::vector<std::string> kernels;
    for (const auto& sample : samples)
        kernels.push_back(sample.kernel);
    const support::TwoFoldSplit split = support::split_by_group(kernels);
    if (!split.usable())
        return validation;
    std::vector<std::vector<double>> fitted;
    const support::HeldOutErrors errors = support::held_out_errors(
        split,
        [&](const std::vector<std::size_t>& training) {
            std::vector<CalibrationSample> half;
            for (const std::size_t i : training)
                half.push_back(samples[i]);
            fitted.push_back(calibrate(model, half, options).values());
            return fitted.back();
        },
        [&](const std::vector<double>& values, std::size_t i) {
            return runtime::relative_error(model.evaluate(values, samples[i].features),
                                           samples[i].measured);
        });
    for (std::size_t trained_on = 0; trained_on < 2; ++trained_on) {
        CalibrationFold fold;
        fold.train_kernels = split.groups[trained_on];
        fold.test_kernels = split.groups[1 - trained_on];
        fold.values = fitted[trained_on];
        fold.test = error_statistics(errors.tested[trained_on]);
        validation.folds.push_back(std::move(fold));
    }
    validation.held_out = error_statistics(errors.all);
    return validation;
}

} // namespace kerncast::models::calibrated
