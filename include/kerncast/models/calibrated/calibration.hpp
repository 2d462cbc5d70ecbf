// Calibrating a cost model's parameters to measurements (Stevens & Klöckner, sec. 7.2): the
// nonlinear least-squares problem min_p ||g(p) - t||_2 over the measurement kernels, solved by
// Levenberg-Marquardt (Ceres Solver) with derivatives through the expression (ceres::Jet
// forward mode over the compiled expression). With relative-error scaling (the paper's
// scale_features_by_output, used in all its examples) each residual is (g_k - t_k) / t_k.
#pragma once

#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/support/parameter_status.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

// One measurement: the model's input features for one kernel run and the measured output.
struct CalibrationSample {
    std::string label;            // what it is, for reports: the record's path
    std::string kernel;           // the kernel's name: errors are also summarised per kernel
    std::string configuration;    // "block=16x16x1 fold=1x1x1 n=1024"
    std::vector<double> features; // in model.features() order
    double measured = 0;          // the output feature, > 0
};

struct CalibrationOptions {
    // Minimise relative errors (g - t) / t (Stevens & Klöckner 7.2); else absolute g - t.
    bool relative_error = true;
    // Every parameter without its own lower bound is kept >= 0 (costs cannot be negative,
    // sec. 4, "interpretability").
    bool non_negative = false;
    int max_iterations = 200;
    // Also start from the nonzero initial values scaled by 1/10, 10, 1/100, 100 (the lowest
    // cost wins): a step's edge far off converges to another local minimum.
    bool multi_start = true;
};

// Whether the measurements determine a parameter (support/parameter_status.hpp; mwp-fit
// reports the same statuses).
using support::parameter_status_name;
using support::ParameterStatus;

struct CalibratedParameter {
    std::string name;
    double initial = 0;
    double value = 0;
    std::optional<double> min, max; // as used (non_negative adds min 0)
    // sqrt of the diagonal of s^2 (J^T J)^-1, s^2 = 2 cost / (samples - parameters); absent
    // when the Jacobian is rank-deficient or there are no more samples than parameters.
    std::optional<double> standard_error;
    ParameterStatus status = ParameterStatus::fitted;
};

// |relative error| summary of a set of samples; the geometric mean is the paper's measure
// (sec. 8, after Fleming and Wallace 1986).
struct ErrorStatistics {
    std::string kernel; // "" for all samples
    std::size_t samples = 0;
    double geometric_mean_abs_relative_error = 0;
    double median_abs_relative_error = 0;
    double max_abs_relative_error = 0;
};
ErrorStatistics error_statistics(const std::vector<double>& relative_errors);

struct CalibrationResult {
    std::vector<CalibratedParameter> parameters;      // model.parameters order
    std::vector<double> predicted_initial, predicted; // per sample, at the start and the end
    std::vector<double> relative_errors;              // (predicted - measured) / measured
    // ||r||_2 of the residuals as minimised (relative or absolute), at the start and end.
    double initial_residual_norm = 0, residual_norm = 0;
    ErrorStatistics all;
    std::vector<ErrorStatistics> kernels; // per kernel name, in order of first sample
    int iterations = 0;
    std::string termination; // "CONVERGENCE", "NO_CONVERGENCE", ...
    std::string message;
    bool converged = false;
    bool relative_error = true;
    bool non_negative = false;
    bool covariance_available = false;
    double final_cost = 0;        // 1/2 ||r||^2 at the solution, as the solver reports it
    int starts = 0;               // solver runs
    double best_start_factor = 1; // the initial values' factor of the best run
    // Rank of the fitted (not undetermined, not at a bound) parameters' Jacobian columns, each
    // scaled to unit length, by column-pivoted QR; below their count, the parameters past the
    // rank in pivot order are not_separable.
    int jacobian_rank = 0;

    std::vector<double> values() const; // the fitted parameter values
    // No parameter undetermined or not separable: every value was fixed by the measurements.
    bool determined() const;
};

// Fits the model's parameters to the samples. An input Error for no samples, a measured
// value <= 0 or not finite, non-finite features, or a model that is not finite at the
// initial values (naming the sample). Pure: the same input gives the same result.
CalibrationResult calibrate(const CostModel& model, const std::vector<CalibrationSample>& samples,
                            const CalibrationOptions& options = {});

// Two-fold cross-validation by kernel (support/cross_validation.hpp, the split fit-volumes
// uses): the kernels in sorted order alternately into two halves; the parameters calibrated on
// one half predict the other half's records. Whether the model carries to kernels it was not
// calibrated on (Stevens & Klöckner sec. 8 calibrate on measurement kernels and predict
// applications); the errors are relative whatever the fit minimised.
struct CalibrationFold {
    std::vector<std::string> train_kernels, test_kernels;
    std::vector<double> values; // calibrated on the training half, model.parameters order
    ErrorStatistics test;       // |relative error| of the held-out half under them
};
struct CalibrationCrossValidation {
    std::vector<CalibrationFold> folds; // two, or none with fewer than two kernels
    // Every record predicted by the half that did not hold it (absent without folds).
    std::optional<ErrorStatistics> held_out;
};
CalibrationCrossValidation cross_validate_calibration(const CostModel& model,
                                                      const std::vector<CalibrationSample>& samples,
                                                      const CalibrationOptions& options = {});

} // namespace kerncast::models::calibrated
