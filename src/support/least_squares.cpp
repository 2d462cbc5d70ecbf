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

ColumnSeparability column_separability(const Eigen::MatrixXd& jacobian,
                                       const std::vector<Eigen::Index>& columns) {
    ColumnSeparability result;
    result.separable.assign(columns.size(), false);
    if (columns.empty())
        return result;
    Eigen::MatrixXd unit(jacobian.rows(), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t j = 0; j < columns.size(); ++j) {
        const auto c = jacobian.col(columns[j]);
        const double norm = c.norm();
        unit.col(static_cast<Eigen::Index>(j)) =
            norm > 0 ? Eigen::VectorXd(c / norm) : Eigen::VectorXd(c);
    }
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(unit);
    qr.setThreshold(1e-9);
    const Eigen::Index rank = qr.rank();
    result.rank = static_cast<int>(rank);
    const auto& order = qr.colsPermutation().indices();
    for (Eigen::Index k = 0; k < rank; ++k)
        result.separable[static_cast<std::size_t>(order(k))] = true;
    if (rank == unit.cols())
        return result;
    // The columns past the rank, and the ones before it that combine to them (R11^-1 R12 of the
    // pivoted R: each dependent column's coefficients on the independent ones).
    const Eigen::MatrixXd r = qr.matrixR().template triangularView<Eigen::Upper>();
    const Eigen::MatrixXd coefficients = r.topLeftCorner(rank, rank)
                                             .template triangularView<Eigen::Upper>()
                                             .solve(r.topRightCorner(rank, unit.cols() - rank));
    for (Eigen::Index k = 0; k < rank; ++k)
        if (coefficients.row(k).cwiseAbs().maxCoeff() > 1e-6)
            result.separable[static_cast<std::size_t>(order(k))] = false;
    return result;
}

ParameterStatuses parameter_statuses(const Eigen::MatrixXd& jacobian,
                                     const std::vector<bool>& on_bound, double zero_tolerance) {
    const auto columns = static_cast<std::size_t>(jacobian.cols());
    ParameterStatuses out;
    out.status.assign(columns, ParameterStatus::fitted);
    std::vector<Eigen::Index> remaining;
    for (Eigen::Index i = 0; i < jacobian.cols(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double largest = jacobian.rows() > 0 ? jacobian.col(i).cwiseAbs().maxCoeff() : 0.0;
        if (!(largest > zero_tolerance))
            out.status[k] = ParameterStatus::undetermined;
        else if (k < on_bound.size() && on_bound[k])
            out.status[k] = ParameterStatus::at_bound;
        else
            remaining.push_back(i);
    }
    if (remaining.empty())
        return out;
    const ColumnSeparability separability = column_separability(jacobian, remaining);
    out.rank = separability.rank;
    for (std::size_t j = 0; j < remaining.size(); ++j) {
        if (separability.separable[j]) {
            out.fitted.push_back(remaining[j]);
        } else {
            out.status[static_cast<std::size_t>(remaining[j])] = ParameterStatus::not_separable;
            out.any_not_separable = true;
        }
    }
    return out;
}

} // namespace kerncast::support
