// Least-squares fit of the capacity-miss curves (capacity_fitting.hpp) with Ceres Solver's
// Levenberg-Marquardt, and its two-fold cross-validation by sample group.
#include "kerncast/models/volumes/capacity_fitting.hpp"

#include "../../support/least_squares.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/statistics.hpp"
#include "kerncast/support/cross_validation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <ceres/ceres.h>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <set>

namespace kerncast::models {

namespace {

constexpr std::array<CapacityFitKind, capacity_fit_kinds> all_fit_kinds{
    CapacityFitKind::l1_redundant_loads, CapacityFitKind::y_layer_overlap,
    CapacityFitKind::z_layer_overlap, CapacityFitKind::l2_redundant_stores,
    CapacityFitKind::l2_redundant_loads};

std::optional<CapacityFit>& fit_slot(CapacityFits& fits, CapacityFitKind kind) {
    return capacity_fit_slot(fits, kind);
}

const std::optional<CapacityFit>& fit_slot(const CapacityFits& fits, CapacityFitKind kind) {
    return capacity_fit_slot(fits, kind);
}

// hit(O) = a exp(-b exp(-c O)) (Ernst et al. 2023, sec. 4.5) for doubles and Ceres jets. For
// -c O > 700, exp would overflow; there the hit rate is 0 to double precision and so is its
// derivative.
template <class T> T hit_rate(const T* abc, double oversubscription) {
    const T exponent = -abc[2] * oversubscription;
    if (exponent > T(700.0))
        return T(0.0);
    using std::exp;
    return abc[0] * exp(-abc[1] * exp(exponent));
}

// One factor (1 - hit(O)) of a term: of a free fit (a parameter block of the residual) or of
// a fixed one (its value).
struct MissFactor {
    int block = -1; // index into the sample's parameter blocks; -1: fixed
    double oversubscription = 0;
    double fixed_miss = 1; // 1 - hit(O) under the machine's fit, when fixed
};

// A term with at least one free factor: volume x the product of its (one or two) factors.
struct FreeTerm {
    std::vector<MissFactor> factors;
    double volume_bytes_per_point = 0;
};

class SampleResidual {
public:
    SampleResidual(double constant_bytes_per_point, std::vector<FreeTerm> terms, double measured)
        : constant_(constant_bytes_per_point), terms_(std::move(terms)), measured_(measured) {}

    template <class T> bool operator()(T const* const* parameters, T* residual) const {
        T predicted(constant_);
        for (const auto& term : terms_) {
            T miss(term.volume_bytes_per_point);
            for (const auto& factor : term.factors)
                miss *= factor.block < 0
                            ? T(factor.fixed_miss)
                            : T(1.0) - hit_rate(parameters[factor.block], factor.oversubscription);
            predicted += miss;
        }
        residual[0] = (predicted - measured_) / measured_;
        return true;
    }

private:
    double constant_;
    std::vector<FreeTerm> terms_;
    double measured_;
};

int kind_index(CapacityFitKind kind) {
    return static_cast<int>(kind);
}

std::array<double, 3> coefficients_of(const CapacityFit& fit) {
    return {fit.a.value, fit.b.value, fit.c.value};
}

CapacityFit make_fit(const std::array<double, 3>& abc, const std::string& source) {
    return CapacityFit{{abc[0], source}, {abc[1], source}, {abc[2], source}};
}

std::array<double, 3> clamp_to(const std::array<double, 3>& abc, const CoefficientBounds& b) {
    return {std::clamp(abc[0], b.a_min, b.a_max), std::clamp(abc[1], b.b_min, b.b_max),
            std::clamp(abc[2], b.c_min, b.c_max)};
}

void check_samples(const std::vector<VolumeSample>& samples) {
    for (const auto& sample : samples) {
        if (!std::isfinite(sample.measured_bytes_per_point) || sample.measured_bytes_per_point <= 0)
            throw_input_error("sample '" + sample.label + "' has a measured volume of " +
                              std::to_string(sample.measured_bytes_per_point) +
                              " B per point; relative errors need a positive measured value");
        for (const auto& term : sample.decomposition.terms)
            if (!std::isfinite(term.oversubscription) || term.oversubscription < 0 ||
                !std::isfinite(term.volume_bytes_per_point) || term.volume_bytes_per_point < 0 ||
                (term.second_fit && (!std::isfinite(term.second_oversubscription) ||
                                     term.second_oversubscription < 0)))
                throw_input_error("sample '" + sample.label + "' has a capacity term of " +
                                  std::string(capacity_fit_name(term.fit)) +
                                  " with a negative or non-finite oversubscription or volume");
    }
}

using Values = std::array<std::array<double, 3>, capacity_fit_kinds>;

// The samples as residuals of the free fits: per sample with a free term, the constant part
// (base and the terms of fixed fits under the machine's coefficients) and the free terms.
struct ResidualData {
    double constant = 0;
    std::vector<FreeTerm> terms;
    std::vector<CapacityFitKind> blocks; // the free fits the terms use, in block order
    double measured = 0;
};

struct ProblemData {
    std::vector<ResidualData> residuals; // samples without free terms are left out
};

ProblemData problem_data(const std::vector<VolumeSample>& samples,
                         const std::array<bool, capacity_fit_kinds>& free,
                         const CapacityFits& start, const std::string& machine_id) {
    ProblemData data;
    for (const auto& sample : samples) {
        ResidualData residual;
        residual.constant = sample.decomposition.base_bytes_per_point;
        residual.measured = sample.measured_bytes_per_point;
        for (const auto& term : sample.decomposition.terms) {
            // The term's factors: its fit at O, and the second fit at the second O.
            std::vector<std::pair<CapacityFitKind, double>> fits{{term.fit, term.oversubscription}};
            if (term.second_fit)
                fits.emplace_back(*term.second_fit, term.second_oversubscription);
            FreeTerm free_term;
            free_term.volume_bytes_per_point = term.volume_bytes_per_point;
            double fixed = term.volume_bytes_per_point;
            bool any_free = false;
            for (const auto& [kind, oversubscription] : fits) {
                MissFactor factor;
                factor.oversubscription = oversubscription;
                if (free[kind_index(kind)] && term.volume_bytes_per_point > 0) {
                    auto at = std::find(residual.blocks.begin(), residual.blocks.end(), kind);
                    if (at == residual.blocks.end()) {
                        residual.blocks.push_back(kind);
                        at = residual.blocks.end() - 1;
                    }
                    factor.block = static_cast<int>(at - residual.blocks.begin());
                    any_free = true;
                } else {
                    factor.fixed_miss =
                        1.0 -
                        capacity_hit_rate(capacity_fit(start, kind, machine_id), oversubscription);
                    fixed *= factor.fixed_miss;
                }
                free_term.factors.push_back(factor);
            }
            if (any_free)
                residual.terms.push_back(std::move(free_term));
            else
                residual.constant += fixed;
        }
        if (!residual.terms.empty()) // otherwise its error does not depend on the free fits
            data.residuals.push_back(std::move(residual));
    }
    return data;
}

// Coefficients each free fit has: b and c, or a, b and c with fit_asymptote.
int coefficients_per_fit(const CapacityFitOptions& options) {
    return options.fit_asymptote ? 3 : 2;
}

// The free fits' coefficients in `values` as bounded parameter blocks (a held constant unless
// fit_asymptote: the blocks' tangent spaces are then b and c), one residual per entry of
// `data`.
void build_problem(ceres::Problem& problem, Values& values,
                   const std::array<bool, capacity_fit_kinds>& free,
                   const CapacityFitOptions& options, const ProblemData& data) {
    const CoefficientBounds& bounds = options.bounds;
    for (const auto kind : all_fit_kinds) {
        if (!free[kind_index(kind)])
            continue;
        double* block = values[kind_index(kind)].data();
        problem.AddParameterBlock(block, 3);
        if (!options.fit_asymptote)
            problem.SetManifold(block, new ceres::SubsetManifold(3, {0}));
        problem.SetParameterLowerBound(block, 0, bounds.a_min);
        problem.SetParameterUpperBound(block, 0, bounds.a_max);
        problem.SetParameterLowerBound(block, 1, bounds.b_min);
        problem.SetParameterUpperBound(block, 1, bounds.b_max);
        problem.SetParameterLowerBound(block, 2, bounds.c_min);
        problem.SetParameterUpperBound(block, 2, bounds.c_max);
    }
    for (const auto& residual : data.residuals) {
        auto* cost = new ceres::DynamicAutoDiffCostFunction<SampleResidual, 4>(
            new SampleResidual(residual.constant, residual.terms, residual.measured));
        std::vector<double*> blocks;
        for (const auto kind : residual.blocks) {
            blocks.push_back(values[kind_index(kind)].data());
            cost->AddParameterBlock(3);
        }
        cost->SetNumResiduals(1);
        problem.AddResidualBlock(cost, nullptr, blocks);
    }
}

// The Jacobian of the residuals with respect to the free coefficients at `values`, dense:
// coefficients_per_fit columns ((a,) b, c) per free fit in CapacityFitKind order.
Eigen::MatrixXd residual_jacobian(const Values& values,
                                  const std::array<bool, capacity_fit_kinds>& free,
                                  const CapacityFitOptions& options, const ProblemData& data) {
    Values at = values;
    ceres::Problem problem;
    build_problem(problem, at, free, options, data);
    std::vector<double*> blocks;
    for (const auto kind : all_fit_kinds)
        if (free[kind_index(kind)])
            blocks.push_back(at[kind_index(kind)].data());
    return support::dense_jacobian(problem, blocks);
}

// diag((J^T J)^-1), or nullopt when J is rank-deficient: a zero column, or a ratio of the
// smallest to the largest singular value of J (columns scaled to unit norm, so that the units
// of a, b and c do not matter) below 1e-8.
std::optional<Eigen::VectorXd> covariance_diagonal(const Eigen::MatrixXd& jacobian) {
    return support::covariance_diagonal(jacobian, 1e-8);
}

FittedCoefficients& entry_for(CapacityFitResult& result, CapacityFitKind kind) {
    for (auto& entry : result.coefficients)
        if (entry.kind == kind)
            return entry;
    throw Error(ErrorKind::internal, "capacity fit result without an entry for a fit");
}

} // namespace

std::string_view volume_metric_name(VolumeMetric metric) {
    switch (metric) {
    case VolumeMetric::l2_load:
        return "l2_load";
    case VolumeMetric::l2_store:
        return "l2_store";
    case VolumeMetric::dram_load:
        return "dram_load";
    case VolumeMetric::dram_store:
        return "dram_store";
    }
    return "?";
}

std::optional<CapacityFitKind> capacity_fit_kind(std::string_view name) {
    for (const auto kind : all_fit_kinds)
        if (capacity_fit_name(kind) == name)
            return kind;
    return std::nullopt;
}

std::string_view fit_status_name(FitStatus status) {
    switch (status) {
    case FitStatus::fitted:
        return "fitted";
    case FitStatus::not_identifiable:
        return "not identifiable";
    case FitStatus::undetermined:
        return "undetermined";
    case FitStatus::not_selected:
        return "not selected";
    case FitStatus::absent:
        return "absent";
    }
    return "?";
}

ErrorSummary summarize_relative_errors(const std::vector<double>& relative_errors) {
    const runtime::AbsErrorSummary errors = runtime::summarize_abs_errors(relative_errors);
    ErrorSummary summary;
    summary.samples = errors.samples;
    summary.median_abs_relative_error = errors.median;
    summary.p90_abs_relative_error = errors.p90;
    return summary;
}

namespace {

using FreeFits = std::array<bool, capacity_fit_kinds>;

void check_fit_options(const CapacityFitOptions& options) {
    const CoefficientBounds& bounds = options.bounds;
    if (!(bounds.a_min > 0 && bounds.a_min <= bounds.a_max && bounds.b_min > 0 &&
          bounds.b_min <= bounds.b_max && bounds.c_min <= bounds.c_max && bounds.c_max < 0))
        throw Error(ErrorKind::internal, "capacity fit bounds must keep 0 < a, b > 0 and c < 0");
    if (options.max_iterations < 1)
        throw_usage_error("the capacity fit needs at least one iteration");
}

// The state of one fit as it proceeds: which fits are free, their current coefficients, the
// residual data of the free ones, and the result being filled.
struct FitState {
    const std::vector<VolumeSample>& samples;
    const CapacityFits& start;
    const std::string& machine_id;
    const CapacityFitOptions& options;
    CapacityFitResult result;
    Values values{};
    FreeFits free{};
    ProblemData data;
};

// The oversubscription range and sample count of `kind` over the samples' capacity terms.
FittedCoefficients coverage(const std::vector<VolumeSample>& samples, CapacityFitKind kind) {
    FittedCoefficients entry;
    entry.kind = kind;
    for (const auto& sample : samples) {
        bool seen = false;
        for (const auto& term : sample.decomposition.terms) {
            if (term.volume_bytes_per_point <= 0)
                continue;
            std::vector<double> at;
            if (term.fit == kind)
                at.push_back(term.oversubscription);
            if (term.second_fit == kind)
                at.push_back(term.second_oversubscription);
            for (double o : at) {
                const bool first = entry.samples == 0 && !seen;
                entry.min_oversubscription = first ? o : std::min(entry.min_oversubscription, o);
                entry.max_oversubscription = first ? o : std::max(entry.max_oversubscription, o);
                seen = true;
            }
        }
        entry.samples += seen ? 1 : 0;
    }
    return entry;
}

// Which fits are free: selected, present in the machine, and seen by some sample; their start
// values (the machine's, clamped to the bounds).
void choose_free_fits(FitState& s) {
    std::array<bool, capacity_fit_kinds> selected{};
    if (s.options.fits.empty())
        selected.fill(true);
    for (const auto kind : s.options.fits)
        selected[kind_index(kind)] = true;
    for (const auto kind : all_fit_kinds) {
        FittedCoefficients entry = coverage(s.samples, kind);
        const auto& machine_fit = fit_slot(s.start, kind);
        if (!machine_fit) {
            if (entry.samples > 0) // evaluate_decomposition names what is missing
                (void)capacity_fit(s.start, kind, s.machine_id);
            entry.status = FitStatus::absent;
        } else {
            const auto abc = coefficients_of(*machine_fit);
            entry.start = clamp_to(abc, s.options.bounds);
            entry.start_clamped = entry.start != abc;
            entry.fitted = abc;
            s.values[kind_index(kind)] = entry.start;
            if (!selected[kind_index(kind)])
                entry.status = FitStatus::not_selected;
            else if (entry.samples == 0)
                entry.status = FitStatus::not_identifiable;
            else {
                entry.status = FitStatus::fitted;
                s.free[kind_index(kind)] = true;
                if (!s.options.fit_asymptote) {
                    entry.start[0] = 1.0;
                    entry.asymptote_held = true;
                    s.values[kind_index(kind)][0] = 1.0;
                }
            }
        }
        s.result.coefficients.push_back(entry);
    }
}

// Levenberg-Marquardt (support/least_squares.hpp) from `values`, which it updates.
support::LeastSquaresSummary solve(Values& values, const FreeFits& free, const ProblemData& data,
                                   const CapacityFitOptions& options) {
    ceres::Problem problem;
    build_problem(problem, values, free, options, data);
    support::LeastSquaresOptions solver;
    solver.max_iterations = options.max_iterations;
    solver.function_tolerance = 1e-15;
    solver.gradient_tolerance = 1e-16;
    solver.parameter_tolerance = 1e-14;
    return support::solve_least_squares(problem, solver);
}

// Levenberg-Marquardt from the machine's coefficients, then from a few standard starts (a
// start on a flat part of a curve, e.g. hit = 0 everywhere, has no gradient to follow); the
// lowest cost wins, the machine's start on ties.
support::LeastSquaresSummary solve_from_starts(FitState& s) {
    std::vector<std::pair<std::string, Values>> starts{{"the machine's fits", s.values}};
    for (double b : {0.01, 0.1})
        for (double c : {-0.7, -1.5, -3.0}) {
            Values grid = s.values;
            for (const auto kind : all_fit_kinds)
                if (s.free[kind_index(kind)])
                    grid[kind_index(kind)] = clamp_to({1.0, b, c}, s.options.bounds);
            starts.emplace_back(fmt::format("a = 1, b = {}, c = {}", b, c), grid);
        }
    std::optional<support::LeastSquaresSummary> best;
    for (const auto& [label, start_values] : starts) {
        Values trial = start_values;
        const support::LeastSquaresSummary summary = solve(trial, s.free, s.data, s.options);
        if (!summary.usable)
            continue;
        if (!best || summary.final_cost < best->final_cost * (1 - 1e-12)) {
            best = summary;
            s.values = trial;
            s.result.start = label;
        }
    }
    if (!best)
        throw Error(ErrorKind::internal, "the capacity fit failed from every start");
    s.result.iterations = best->iterations;
    s.result.starts = starts.size();
    return *best;
}

// Half the sum of squared relative errors with the free fits at `values`.
double total_cost(const FitState& s, const Values& values, const FreeFits& free) {
    CapacityFits fits = s.start;
    for (const auto kind : all_fit_kinds)
        if (free[kind_index(kind)]) {
            const auto& abc = values[kind_index(kind)];
            fit_slot(fits, kind) = make_fit(abc, s.options.source_key);
        }
    double cost = 0;
    for (const auto& sample : s.samples) {
        const double r = runtime::relative_error(
            evaluate_decomposition(sample.decomposition, fits, s.machine_id),
            sample.measured_bytes_per_point);
        cost += 0.5 * r * r;
    }
    return cost;
}

// A fit whose own coefficients the samples do not determine (rank-deficient columns of the
// Jacobian, e.g. every hit rate ~0) is reset to the machine's values when these fit the samples
// as well: the total chi^2 = sum r^2 / s^2 rises by at most 3, the number of its coefficients.
// Otherwise the fitted values would be wherever the solver stopped in a flat valley (often a
// bound), however they extrapolate.
void release_undetermined(FitState& s, support::LeastSquaresSummary& best) {
    for (const auto kind : all_fit_kinds) {
        if (!s.free[kind_index(kind)])
            continue;
        const Eigen::MatrixXd jacobian = residual_jacobian(s.values, s.free, s.options, s.data);
        const int per_fit = coefficients_per_fit(s.options);
        const Eigen::Index column =
            per_fit * static_cast<Eigen::Index>(
                          std::count(s.free.begin(), s.free.begin() + kind_index(kind), true));
        if (covariance_diagonal(jacobian.middleCols(column, per_fit)))
            continue;
        std::size_t parameters = 0;
        for (bool f : s.free)
            parameters += f ? static_cast<std::size_t>(per_fit) : 0;
        const double cost = total_cost(s, s.values, s.free);
        const double variance =
            s.samples.size() > parameters
                ? 2.0 * cost / static_cast<double>(s.samples.size() - parameters)
                : 0.0;
        auto reduced = s.free;
        reduced[kind_index(kind)] = false;
        Values trial = s.values;
        ProblemData reduced_data = problem_data(s.samples, reduced, s.start, s.machine_id);
        std::optional<support::LeastSquaresSummary> summary;
        if (!reduced_data.residuals.empty()) {
            summary = solve(trial, reduced, reduced_data, s.options);
            if (!summary->usable)
                continue;
        }
        if (total_cost(s, trial, reduced) - cost > std::max(1e-20, 1.5 * variance))
            continue;
        s.free = reduced;
        s.values = trial;
        s.data = std::move(reduced_data);
        entry_for(s.result, kind).status = FitStatus::undetermined;
        entry_for(s.result, kind).asymptote_held = false;
        if (summary) {
            s.result.iterations += summary->iterations;
            best = *summary;
        }
    }
}

// Standard errors: s^2 (J^T J)^-1 at the solution, jointly; where the joint Jacobian is
// rank-deficient, each fit's own with the others held at their values.
void standard_errors(FitState& s, const support::LeastSquaresSummary& best) {
    std::vector<CapacityFitKind> free_kinds;
    for (const auto kind : all_fit_kinds)
        if (s.free[kind_index(kind)])
            free_kinds.push_back(kind);
    const int per_fit = coefficients_per_fit(s.options);
    const std::size_t parameters = static_cast<std::size_t>(per_fit) * free_kinds.size();
    const std::size_t residuals = s.data.residuals.size();
    if (residuals <= parameters)
        return;
    const double variance = 2.0 * best.final_cost / static_cast<double>(residuals - parameters);
    const Eigen::MatrixXd jacobian = residual_jacobian(s.values, s.free, s.options, s.data);
    // A held a has no error.
    auto errors = [&](const Eigen::VectorXd& diagonal, Eigen::Index at) {
        std::array<double, 3> abc{0, 0, 0};
        for (int p = 0; p < per_fit; ++p)
            abc[static_cast<std::size_t>(3 - per_fit + p)] = std::sqrt(diagonal(at + p) * variance);
        return abc;
    };
    if (const auto joint = covariance_diagonal(jacobian)) {
        s.result.covariance_available = true;
        for (std::size_t k = 0; k < free_kinds.size(); ++k)
            entry_for(s.result, free_kinds[k]).standard_errors =
                errors(*joint, static_cast<Eigen::Index>(per_fit * static_cast<int>(k)));
        return;
    }
    for (std::size_t k = 0; k < free_kinds.size(); ++k) {
        const auto own = covariance_diagonal(
            jacobian.middleCols(static_cast<Eigen::Index>(per_fit * static_cast<int>(k)), per_fit));
        if (!own)
            continue;
        auto& entry = entry_for(s.result, free_kinds[k]);
        entry.standard_errors = errors(*own, 0);
        entry.conditional_standard_errors = true;
    }
}

// The fitted coefficients into result.fits.
void store_fitted(FitState& s) {
    for (auto& entry : s.result.coefficients) {
        if (!s.free[kind_index(entry.kind)])
            continue;
        entry.fitted = s.values[kind_index(entry.kind)];
        CapacityFit fit;
        fit.a = {entry.fitted[0], s.options.source_key};
        fit.b = {entry.fitted[1], s.options.source_key};
        fit.c = {entry.fitted[2], s.options.source_key};
        fit_slot(s.result.fits, entry.kind) = fit;
    }
}

// Predictions and relative errors of every sample under `fits`.
void predict_samples(const std::vector<VolumeSample>& samples, const CapacityFits& fits,
                     const std::string& machine_id, std::vector<double>& predicted,
                     std::vector<double>& residuals) {
    for (const auto& sample : samples) {
        const double value = evaluate_decomposition(sample.decomposition, fits, machine_id);
        predicted.push_back(value);
        residuals.push_back(runtime::relative_error(value, sample.measured_bytes_per_point));
    }
}

// Costs and error summaries before and after, overall and per metric.
void summarize_fit(CapacityFitResult& result, const std::vector<VolumeSample>& samples) {
    for (double r : result.residuals_before)
        result.initial_cost += 0.5 * r * r;
    for (double r : result.residuals_after)
        result.final_cost += 0.5 * r * r;
    result.before = summarize_relative_errors(result.residuals_before);
    result.after = summarize_relative_errors(result.residuals_after);
    for (int m = 0; m < volume_metrics; ++m) {
        std::vector<double> before, after;
        for (std::size_t i = 0; i < samples.size(); ++i)
            if (static_cast<int>(samples[i].metric) == m) {
                before.push_back(result.residuals_before[i]);
                after.push_back(result.residuals_after[i]);
            }
        if (!before.empty())
            result.by_metric[static_cast<std::size_t>(m)] =
                std::pair{summarize_relative_errors(before), summarize_relative_errors(after)};
    }
}

} // namespace

CapacityFitResult fit_capacity_curves(const std::vector<VolumeSample>& samples,
                                      const CapacityFits& start, const std::string& machine_id,
                                      const CapacityFitOptions& options) {
    check_samples(samples);
    check_fit_options(options);
    FitState s{samples, start, machine_id, options, {}, {}, {}, {}};
    s.result.fits = start;
    choose_free_fits(s);
    predict_samples(samples, start, machine_id, s.result.predicted_before,
                    s.result.residuals_before);

    s.data = problem_data(samples, s.free, start, machine_id);
    if (s.data.residuals.empty()) {
        s.result.termination = "nothing to fit";
        s.result.message = "no sample has a capacity term of a selected fit";
        s.result.converged = true;
    } else {
        support::LeastSquaresSummary best = solve_from_starts(s);
        release_undetermined(s, best);
        s.result.termination = best.termination;
        s.result.message = best.message;
        s.result.converged = best.converged;
        standard_errors(s, best);
    }
    store_fitted(s);
    predict_samples(samples, s.result.fits, machine_id, s.result.predicted_after,
                    s.result.residuals_after);
    summarize_fit(s.result, samples);
    return s.result;
}

namespace {

std::vector<std::string> sample_groups(const std::vector<VolumeSample>& samples) {
    std::vector<std::string> groups;
    for (const auto& sample : samples)
        groups.push_back(sample.group);
    return groups;
}

} // namespace

std::array<std::vector<std::size_t>, 2> split_by_group(const std::vector<VolumeSample>& samples) {
    return support::split_by_group(sample_groups(samples)).samples;
}

CrossValidation cross_validate_capacity_fits(const std::vector<VolumeSample>& samples,
                                             const CapacityFits& start,
                                             const std::string& machine_id,
                                             const CapacityFitOptions& options) {
    CrossValidation validation;
    const support::TwoFoldSplit split = support::split_by_group(sample_groups(samples));
    if (!split.usable())
        return validation;
    validation.held_out_residuals.assign(samples.size(), std::nullopt);
    for (int trained_on = 0; trained_on < 2; ++trained_on) {
        const auto& train = split.samples[static_cast<std::size_t>(trained_on)];
        const auto& test = split.samples[static_cast<std::size_t>(1 - trained_on)];
        std::vector<VolumeSample> train_samples;
        for (auto i : train)
            train_samples.push_back(samples[i]);
        CrossValidationFold fold;
        fold.trained_on = trained_on;
        fold.train_groups = split.groups[static_cast<std::size_t>(trained_on)];
        fold.test_groups = split.groups[static_cast<std::size_t>(1 - trained_on)];
        fold.fit = fit_capacity_curves(train_samples, start, machine_id, options);
        fold.train = fold.fit.after;
        std::vector<double> before;
        for (auto i : test) {
            const auto& sample = samples[i];
            const double measured = sample.measured_bytes_per_point;
            before.push_back(runtime::relative_error(
                evaluate_decomposition(sample.decomposition, start, machine_id), measured));
            const double residual = runtime::relative_error(
                evaluate_decomposition(sample.decomposition, fold.fit.fits, machine_id), measured);
            fold.test_residuals.push_back(residual);
            validation.held_out_residuals[i] = residual;
        }
        fold.test_samples = test;
        fold.test_before = summarize_relative_errors(before);
        fold.test_after = summarize_relative_errors(fold.test_residuals);
        validation.folds.push_back(std::move(fold));
    }
    std::vector<double> all;
    for (const auto& residual : validation.held_out_residuals)
        all.push_back(*residual);
    validation.held_out = summarize_relative_errors(all);
    for (int m = 0; m < volume_metrics; ++m) {
        std::vector<double> of_metric;
        for (std::size_t i = 0; i < samples.size(); ++i)
            if (static_cast<int>(samples[i].metric) == m)
                of_metric.push_back(*validation.held_out_residuals[i]);
        if (!of_metric.empty())
            validation.held_out_by_metric[static_cast<std::size_t>(m)] =
                summarize_relative_errors(of_metric);
    }
    return validation;
}

std::string unused_source_key(const MachineModel& machine, const std::string& base) {
    if (machine.sources.count(base) == 0)
        return base;
    long long largest = 1;
    const std::string prefix = base + "-";
    for (const auto& [key, source] : machine.sources) {
        if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0 ||
            key.size() - prefix.size() > 9 ||
            key.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
            continue;
        largest = std::max(largest, std::stoll(key.substr(prefix.size())));
    }
    return prefix + std::to_string(largest + 1);
}

namespace {

bool fit_cites(const CapacityFits& fits, const std::string& key) {
    for (CapacityFitKind kind : all_fit_kinds) {
        const auto& slot = capacity_fit_slot(fits, kind);
        if (slot && (slot->a.source == key || slot->b.source == key || slot->c.source == key))
            return true;
    }
    return false;
}

// A refit replaces the provenance of an earlier fit-volumes run once every fit that run
// determined has been fitted again (no coefficient cites it any more): its residuals and dates
// would describe numbers the file no longer holds.
void drop_replaced_fit_sources(MachineModel& machine, const std::vector<std::string>& refitted) {
    for (auto it = machine.sources.begin(); it != machine.sources.end();) {
        const auto& provenance = it->second.fit;
        const bool replaced = provenance && !provenance->fits.empty() &&
                              std::all_of(provenance->fits.begin(), provenance->fits.end(),
                                          [&](const std::string& name) {
                                              return std::find(refitted.begin(), refitted.end(),
                                                               name) != refitted.end();
                                          }) &&
                              !fit_cites(machine.capacity_fits, it->first);
        it = replaced ? machine.sources.erase(it) : std::next(it);
    }
}

// unused_source_key gave `key` = base-N because base was taken; once the refit has dropped the
// provenance that held base, the new one takes base back (a refit leaves one "fit-volumes").
void reclaim_base_key(MachineModel& machine, const std::string& key) {
    const auto dash = key.find_last_of('-');
    if (dash == std::string::npos || dash + 1 == key.size() ||
        key.find_first_not_of("0123456789", dash + 1) != std::string::npos)
        return;
    const std::string base = key.substr(0, dash);
    if (machine.sources.count(base) != 0)
        return;
    machine.sources[base] = machine.sources.at(key);
    machine.sources.erase(key);
    for (CapacityFitKind kind : all_fit_kinds)
        if (auto& slot = capacity_fit_slot(machine.capacity_fits, kind))
            for (Sourced<double>* coefficient : {&slot->a, &slot->b, &slot->c})
                if (coefficient->source == key)
                    coefficient->source = base;
}

} // namespace

MachineModel machine_with_fits(const MachineModel& machine, const CapacityFitResult& fit,
                               const CrossValidation& validation, const FitDataset& dataset,
                               const std::string& source_key) {
    FitProvenance provenance;
    for (const auto& entry : fit.coefficients) {
        if (entry.status != FitStatus::fitted)
            continue;
        provenance.fits.emplace_back(capacity_fit_name(entry.kind));
        provenance.oversubscription_ranges[std::string(capacity_fit_name(entry.kind))] = {
            entry.min_oversubscription, entry.max_oversubscription};
        KERNCAST_CHECK(capacity_fit(fit.fits, entry.kind, machine.identity.id).a.source ==
                           source_key,
                       "the fit must have been run with the source key it is written under");
    }
    if (provenance.fits.empty())
        throw_input_error("no capacity fit was determined: no sample has a capacity-miss term of "
                          "a selected fit with a volume above zero");
    KERNCAST_CHECK(machine.sources.count(source_key) == 0,
                   "the fit's source key must be new to the machine");
    provenance.records_sha256 = dataset.records_sha256;
    provenance.records = dataset.records;
    provenance.samples = static_cast<int>(fit.after.samples);
    provenance.median_abs_relative_error = fit.after.median_abs_relative_error;
    provenance.p90_abs_relative_error = fit.after.p90_abs_relative_error;
    if (validation.held_out) {
        provenance.held_out_median_abs_relative_error =
            validation.held_out->median_abs_relative_error;
        provenance.held_out_p90_abs_relative_error = validation.held_out->p90_abs_relative_error;
    }
    provenance.date = dataset.date;
    provenance.kerncast_version = dataset.kerncast_version;

    std::string fits;
    for (const auto& name : provenance.fits)
        fits += (fits.empty() ? "" : ", ") + name;
    const bool held = std::any_of(fit.coefficients.begin(), fit.coefficients.end(),
                                  [](const FittedCoefficients& e) { return e.asymptote_held; });
    if (held)
        fits += " (a held at 1, b and c fitted)";
    Provenance source;
    source.kind = dataset.published_records > 0 ? SourceKind::derived : SourceKind::measured;
    source.run = dataset.path;
    source.citation = "kerncast fit-volumes: capacity-miss fits hit(O) = a exp(-b exp(-c O)) "
                      "(Ernst et al. 2023, sec. 4.5, eq. (4)-(5)) of " +
                      fits + ", fitted by Levenberg-Marquardt (Ceres Solver) to " +
                      std::to_string(provenance.samples) + " measured volumes of " +
                      std::to_string(dataset.records) + " records in " + dataset.path +
                      " (relative errors; docs/volume-model.md)";
    if (dataset.published_records > 0)
        source.citation += "; " + std::to_string(dataset.published_records) + " of the records " +
                           "are published measurements, not kerncast's own (each record's " +
                           "/provenance names its source)";
    source.fit = provenance;

    MachineModel result = machine;
    result.sources[source_key] = source;
    result.capacity_fits = fit.fits;
    drop_replaced_fit_sources(result, provenance.fits);
    reclaim_base_key(result, source_key);
    return result;
}

std::string fitted_source_key(const MachineModel& fitted, const CapacityFitResult& fit) {
    for (const auto& entry : fit.coefficients)
        if (entry.status == FitStatus::fitted)
            if (const auto& slot = capacity_fit_slot(fitted.capacity_fits, entry.kind))
                return slot->a.source;
    throw_input_error("no capacity fit was determined");
}

} // namespace kerncast::models
