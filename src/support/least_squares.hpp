// Internal: the least-squares machinery kerncast's three fits share (fit-volumes' capacity
// curves, calibrate's cost models, mwp-fit's MWP-CWP memory parameters): one Levenberg-
// Marquardt setup on Ceres Solver, the dense Jacobian of a problem, and the covariance
// diagonal and numerical rank behind standard errors. Each fit keeps its own residuals,
// starts, bounds and statuses. Ceres and Eigen stay out of public headers.
#pragma once

#include "kerncast/support/parameter_status.hpp"

#include <Eigen/Dense>
#include <ceres/problem.h>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::support {

struct LeastSquaresOptions {
    int max_iterations = 200;
    double function_tolerance = 1e-14; // Ceres' relative cost change to stop at
    double gradient_tolerance = 1e-16;
    double parameter_tolerance = 1e-12;
};

struct LeastSquaresSummary {
    bool usable = false;     // Ceres' IsSolutionUsable: the values are a result
    bool converged = false;  // stopped by a tolerance, not the iteration limit or a failure
    std::string termination; // Ceres' termination type, e.g. "CONVERGENCE"
    std::string message;     // Ceres' explanation
    int iterations = 0;      // steps taken (Ceres' iteration 0 is the start, not counted)
    double initial_cost = 0; // 1/2 sum of squared residuals at the start
    double final_cost = 0;   // ... at the solution
};

// Levenberg-Marquardt with a dense QR solver, one thread, silent; the problem's parameter
// blocks hold the solution afterwards.
LeastSquaresSummary solve_least_squares(ceres::Problem& problem,
                                        const LeastSquaresOptions& options = {});

// The Jacobian of the problem's residuals with respect to `blocks` (in order), at their
// current values, dense: residuals x the blocks' parameters.
Eigen::MatrixXd dense_jacobian(ceres::Problem& problem, const std::vector<double*>& blocks);

// variance x diag((J^T J)^-1), computed through the SVD of J with each column scaled to unit
// norm (so that parameters of different units weigh alike); nullopt when J has no columns, a
// zero or non-finite column, or a smallest-to-largest singular value ratio below
// rank_threshold (rank-deficient: no covariance).
std::optional<Eigen::VectorXd> covariance_diagonal(const Eigen::MatrixXd& jacobian,
                                                   double rank_threshold, double variance = 1.0);

// Which of the Jacobian's columns `columns` the residuals separate: each scaled to unit length
// (a parameter of seconds and one of picoseconds weigh alike), column-pivoted QR (threshold
// 1e-9) orders them by how much each adds; those past the numerical rank, and those before it
// that combine to them (a coefficient above 1e-6 in R11^-1 R12 of the pivoted R), are not
// separable: the data fix only a combination of them. A zero column is not separable either
// (callers usually call it undetermined first).
struct ColumnSeparability {
    int rank = 0;
    std::vector<bool> separable; // one per entry of `columns`
};
ColumnSeparability column_separability(const Eigen::MatrixXd& jacobian,
                                       const std::vector<Eigen::Index>& columns);

// Each parameter's status at a fit's solution, from the Jacobian there (one column a
// parameter): undetermined where the column's largest magnitude is at most zero_tolerance (0
// for exact derivatives; a central difference of a piecewise model leaves rounding), else
// at_bound where on_bound says so, else not_separable where column_separability does not
// separate it from the other remaining columns, else fitted.
struct ParameterStatuses {
    std::vector<ParameterStatus> status; // one per column
    std::vector<Eigen::Index> fitted;    // the columns whose status is fitted
    bool any_not_separable = false;
    int rank = 0; // numerical rank of the columns neither undetermined nor at a bound
};
ParameterStatuses parameter_statuses(const Eigen::MatrixXd& jacobian,
                                     const std::vector<bool>& on_bound, double zero_tolerance = 0);

} // namespace kerncast::support
