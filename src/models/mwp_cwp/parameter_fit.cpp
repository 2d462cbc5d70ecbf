// MWP-CWP memory parameters from timed micro-benchmarks (parameter_fit.hpp; Hong & Kim 2009,
// sec. 5.1 and Table 6).
#include "kerncast/models/mwp_cwp/parameter_fit.hpp"

#include "../../support/least_squares.hpp"
#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/runtime/statistics.hpp"
#include "kerncast/support/cross_validation.hpp"

#include <algorithm>
#include <ceres/ceres.h>
#include <cmath>
#include <fmt/format.h>

namespace kerncast::models::mwp_cwp {

namespace {

// The machine with the three memory parameters set (cycles); the fit varies their logarithms so
// that they stay positive.
MachineModel with_parameters(MachineModel machine, const double* log_parameters) {
    auto& m = machine.mwp_cwp;
    m.mem_ld_cycles = Sourced<double>{std::exp(log_parameters[0]), "mwp-fit"};
    m.departure_del_uncoal_cycles = Sourced<double>{std::exp(log_parameters[1]), "mwp-fit"};
    m.departure_del_coal_cycles = Sourced<double>{std::exp(log_parameters[2]), "mwp-fit"};
    return machine;
}

// Residual of one sample: (predicted - measured) / measured.
struct SampleCost {
    const FitSample* sample;
    const MachineModel* machine;
    bool operator()(const double* log_parameters, double* residual) const {
        const MwpCwpResult r =
            predict_mwp_cwp(sample->workload, with_parameters(*machine, log_parameters));
        residual[0] = (r.time_seconds - sample->measured_s) / sample->measured_s;
        return std::isfinite(residual[0]);
    }
};

std::vector<MemoryParameters> default_starts() {
    std::vector<MemoryParameters> starts;
    for (double mem_ld : {200.0, 600.0})
        for (double uncoal : {5.0, 40.0})
            for (double coal : {2.0, 8.0})
                starts.push_back({mem_ld, uncoal, coal});
    return starts;
}

// The problem of the relative time errors over the log parameters x.
// The fit keeps each parameter within [0.01, 10^6] cycles: a run set that pulls one towards 0
// or infinity (a flat or falling direction) stops at a bound, and the parameter is reported
// at_bound instead of a value the model cannot use.
constexpr double min_parameter_cycles = 0.01;
constexpr double max_parameter_cycles = 1e6;

void add_samples(ceres::Problem& problem, const std::vector<FitSample>& samples,
                 const MachineModel& machine, double* x, bool bounded) {
    for (const auto& sample : samples)
        problem.AddResidualBlock(
            new ceres::NumericDiffCostFunction<SampleCost, ceres::CENTRAL, 1, 3>(
                new SampleCost{&sample, &machine}),
            nullptr, x);
    if (!bounded)
        return;
    for (int i = 0; i < 3; ++i) {
        problem.SetParameterLowerBound(x, i, std::log(min_parameter_cycles));
        problem.SetParameterUpperBound(x, i, std::log(max_parameter_cycles));
    }
}

bool at_bound(double cycles) {
    return cycles <= min_parameter_cycles * (1 + 1e-9) ||
           cycles >= max_parameter_cycles * (1 - 1e-9);
}

// Each parameter's status at the fitted values: the Jacobian in the log parameters (a
// relative change of each) has a zero column where no run's time depends on the parameter.
std::array<ParameterStatus, 3> parameter_statuses(const std::vector<FitSample>& samples,
                                                  const MachineModel& machine,
                                                  const MemoryParameters& fitted) {
    double x[3] = {std::log(fitted[0]), std::log(fitted[1]), std::log(fitted[2])};
    ceres::Problem problem;
    add_samples(problem, samples, machine, x, false);
    const Eigen::MatrixXd jacobian = support::dense_jacobian(problem, {x});
    // A central difference of a piecewise model: a column this small relative to the times is
    // rounding, not dependence.
    const support::ParameterStatuses statuses = support::parameter_statuses(
        jacobian, {at_bound(fitted[0]), at_bound(fitted[1]), at_bound(fitted[2])}, 1e-9);
    return {statuses.status[0], statuses.status[1], statuses.status[2]};
}

} // namespace

bool MwpFit::determined() const {
    return std::all_of(status.begin(), status.end(),
                       [](ParameterStatus s) { return s == ParameterStatus::fitted; });
}

MwpFit fit_mwp_parameters(const std::vector<FitSample>& samples, const MachineModel& machine,
                          const MwpFitOptions& options) {
    if (samples.size() < 3)
        throw_input_error(fmt::format("{} timed run(s) fit no 3 parameters: Mem_LD and the two "
                                      "departure delays need at least 3 (better: the coalesced and "
                                      "uncoalesced micro-benchmarks at several block sizes)",
                                      samples.size()));
    MwpFit fit;
    double best_cost = std::numeric_limits<double>::infinity();
    const auto starts = options.starts.empty() ? default_starts() : options.starts;
    for (const auto& start : starts) {
        double x[3] = {std::log(start[0]), std::log(start[1]), std::log(start[2])};
        // The machine must hold every other parameter: check it once with the start values.
        (void)predict_mwp_cwp(samples.front().workload, with_parameters(machine, x));
        ceres::Problem problem;
        add_samples(problem, samples, machine, x, true);
        support::LeastSquaresOptions solver;
        solver.max_iterations = options.max_iterations;
        solver.function_tolerance = 1e-14;
        solver.gradient_tolerance = 1e-14;
        solver.parameter_tolerance = 1e-12;
        const support::LeastSquaresSummary summary = support::solve_least_squares(problem, solver);
        if (!summary.usable || !(summary.final_cost < best_cost * (1 - 1e-12)))
            continue;
        best_cost = summary.final_cost;
        fit.parameters = {std::exp(x[0]), std::exp(x[1]), std::exp(x[2])};
        fit.start = start;
        fit.converged = summary.converged;
        fit.termination = summary.termination;
        fit.iterations = summary.iterations;
    }
    if (!std::isfinite(best_cost))
        throw_input_error("the MWP-CWP fit found no usable solution from any start");
    const double log_fitted[3] = {std::log(fit.parameters[0]), std::log(fit.parameters[1]),
                                  std::log(fit.parameters[2])};
    fit.status = parameter_statuses(samples, machine, fit.parameters);
    const MachineModel fitted = with_parameters(machine, log_fitted);
    std::vector<double> errors;
    for (const auto& sample : samples) {
        const double predicted = predict_mwp_cwp(sample.workload, fitted).time_seconds;
        fit.rows.push_back({sample.record, sample.configuration, sample.measured_s, predicted});
        errors.push_back(runtime::relative_error(predicted, sample.measured_s));
    }
    const runtime::AbsErrorSummary summary = runtime::summarize_abs_errors(errors);
    fit.median_abs_relative_error = summary.median;
    fit.max_abs_relative_error = summary.max;
    return fit;
}

MwpCrossValidation cross_validate_mwp_fit(const std::vector<FitSample>& samples,
                                          const MachineModel& machine,
                                          const MwpFitOptions& options) {
    MwpCrossValidation validation;
    std::vector<std::string> kernels;
    for (const auto& sample : samples)
        kernels.push_back(sample.kernel);
    const support::TwoFoldSplit split = support::split_by_group(kernels);
    if (!split.usable()) {
        validation.not_run = "it needs runs of at least two kernels";
        return validation;
    }
    if (split.samples[0].size() < 3 || split.samples[1].size() < 3) {
        validation.not_run = "each half of the kernels needs at least three runs for the three "
                             "parameters";
        return validation;
    }
    std::vector<MwpFit> fits;
    const support::HeldOutErrors errors = support::held_out_errors(
        split,
        [&](const std::vector<std::size_t>& training) {
            std::vector<FitSample> half;
            for (const std::size_t i : training)
                half.push_back(samples[i]);
            fits.push_back(fit_mwp_parameters(half, machine, options));
            const MemoryParameters& p = fits.back().parameters;
            const double log_parameters[3] = {std::log(p[0]), std::log(p[1]), std::log(p[2])};
            return with_parameters(machine, log_parameters);
        },
        [&](const MachineModel& fitted, std::size_t i) {
            return runtime::relative_error(
                predict_mwp_cwp(samples[i].workload, fitted).time_seconds, samples[i].measured_s);
        });
    for (std::size_t trained_on = 0; trained_on < 2; ++trained_on) {
        MwpFold fold;
        fold.train_kernels = split.groups[trained_on];
        fold.test_kernels = split.groups[1 - trained_on];
        fold.parameters = fits[trained_on].parameters;
        fold.status = fits[trained_on].status;
        const std::vector<double>& test = errors.tested[trained_on];
        const runtime::AbsErrorSummary summary = runtime::summarize_abs_errors(test);
        fold.test_samples = test.size();
        fold.median_abs_relative_error = summary.median;
        fold.max_abs_relative_error = summary.max;
        validation.folds.push_back(std::move(fold));
    }
    const runtime::AbsErrorSummary summary = runtime::summarize_abs_errors(errors.all);
    validation.samples = errors.all.size();
    validation.median_abs_relative_error = summary.median;
    validation.max_abs_relative_error = summary.max;
    return validation;
}

} // namespace kerncast::models::mwp_cwp
