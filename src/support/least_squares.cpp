#include "least_squares.hpp"

#include <ceres/ceres.h>

namespace kerncast::support {

LeastSquaresSummary solve_least_squares(ceres::Problem& problem,
                                        const LeastSquaresOptions& options) {
    ceres::Solver::Options solver;
    solver.minimizer_type = ceres::TRUST_REGION;
    solver.trust_region_strategy_type = ceres::LEVENBERG_MARQUARDT;
    solver.linear_solver_type = ceres::DENSE_QR;
    solver.max_num_iterations = options.max_iterations;
    solver.function_tolerance = options.function_tolerance;
    solver.gradient_tolerance = options.gradient_tolerance;
    solver.parameter_tolerance = options.parameter_tolerance;
    solver.num_threads = 1;
    solver.logging_type = ceres::SILENT;
    solver.minimizer_progress_to_stdout = false;
    ceres::Solver::Summary summary;
    ceres::Solve(solver, &problem, &summary);
    LeastSquaresSummary out;
    out.usable = summary.IsSolutionUsable();
    out.converged = summary.termination_type == ceres::CONVERGENCE;
    out.termination = ceres::TerminationTypeToString(summary.termination_type);
    out.message = summary.message;
    out.iterations =
        summary.iterations.empty() ? 0 : static_cast<int>(summary.iterations.size()) - 1;
    out.initial_cost = summary.initial_cost;
    out.final_cost = summary.final_cost;
    return out;
}

Eigen::MatrixXd dense_jacobian(ceres::Problem& problem, const std::vector<double*>& blocks) {
    ceres::Problem::EvaluateOptions options;
    options.parameter_blocks = blocks;
    options.num_threads = 1;
    ceres::CRSMatrix sparse;
    problem.Evaluate(options, nullptr, nullptr, nullptr, &sparse);
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(sparse.num_rows, sparse.num_cols);
    for (int row = 0; row < sparse.num_rows; ++row)
        for (int i = sparse.rows[static_cast<std::size_t>(row)];
             i < sparse.rows[static_cast<std::size_t>(row) + 1]; ++i)
            dense(row, sparse.cols[static_cast<std::size_t>(i)]) =
                sparse.values[static_cast<std::size_t>(i)];
    return dense;
}

std::optional<Eigen::VectorXd> covariance_diagonal(const Eigen::MatrixXd& jacobian,
                                                   double rank_threshold, double variance) {
    if (jacobian.cols() == 0)
        return std::nullopt;
    const Eigen::VectorXd norms = jacobian.colwise().norm().transpose();
    if (norms.minCoeff() <= 0 || !norms.allFinite())
        return std::nullopt;
    const Eigen::MatrixXd scaled = jacobian * norms.cwiseInverse().asDiagonal();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(scaled, Eigen::ComputeThinV);
    const Eigen::VectorXd& sigma = svd.singularValues();
    if (sigma.minCoeff() < rank_threshold * sigma.maxCoeff())
        return std::nullopt;
    // (J^T J)^-1 = D V S^-2 V^T D with D = diag(1 / norms).
    const Eigen::MatrixXd& v = svd.matrixV();
    const Eigen::VectorXd inverse_squares = sigma.array().square().inverse();
    Eigen::VectorXd diagonal(jacobian.cols());
    for (Eigen::Index i = 0; i < jacobian.cols(); ++i)
        diagonal(i) = variance *
                      (v.row(i).transpose().array().square() * inverse_squares.array()).sum() /
                      (norms(i) * norms(i));
    return diagonal;
}

} // namespace kerncast::support
