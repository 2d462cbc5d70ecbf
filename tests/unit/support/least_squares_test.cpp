// The fits' shared least-squares service (src/support/least_squares.hpp): Levenberg-Marquardt
// on a problem with a known answer, its Jacobian against the design matrix, and the covariance
// diagonal against (J^T J)^-1 computed directly.
#include "../../../src/support/least_squares.hpp"

#include <ceres/ceres.h>
#include <gtest/gtest.h>

namespace kerncast::support {
namespace {

// r = (a x + b - y) for one sample; and an exponential decay y = exp(k x) in k.
struct Line {
    double x, y;
    template <class T> bool operator()(const T* ab, T* r) const {
        r[0] = ab[0] * x + ab[1] - y;
        return true;
    }
};
struct Decay {
    double x, y;
    template <class T> bool operator()(const T* k, T* r) const {
        r[0] = exp(k[0] * x) - y;
        return true;
    }
};

const std::vector<double> xs{0, 1, 2, 3, 4};

void add_line(ceres::Problem& problem, double* ab, const std::vector<double>& ys) {
    for (std::size_t i = 0; i < xs.size(); ++i)
        problem.AddResidualBlock(
            new ceres::AutoDiffCostFunction<Line, 1, 2>(new Line{xs[i], ys[i]}), nullptr, ab);
}

TEST(LeastSquares, SolvesALineExactly) {
    double ab[2] = {0, 0};
    ceres::Problem problem;
    add_line(problem, ab, {1, 3, 5, 7, 9}); // y = 2 x + 1
    const LeastSquaresSummary s = solve_least_squares(problem);
    EXPECT_TRUE(s.usable);
    EXPECT_TRUE(s.converged);
    EXPECT_EQ(s.termination, "CONVERGENCE");
    EXPECT_NEAR(ab[0], 2, 1e-9);
    EXPECT_NEAR(ab[1], 1, 1e-9);
    EXPECT_DOUBLE_EQ(s.initial_cost, 0.5 * (1 + 9 + 25 + 49 + 81));
    EXPECT_NEAR(s.final_cost, 0, 1e-18);
    EXPECT_GE(s.iterations, 1);
}

TEST(LeastSquares, TheIterationLimitStopsWithoutConvergence) {
    double k = 0;
    ceres::Problem problem;
    for (double x : {0.5, 1.0, 1.5, 2.0})
        problem.AddResidualBlock(
            new ceres::AutoDiffCostFunction<Decay, 1, 1>(new Decay{x, std::exp(-3 * x)}), nullptr,
            &k);
    LeastSquaresOptions options;
    options.max_iterations = 1;
    const LeastSquaresSummary s = solve_least_squares(problem, options);
    EXPECT_FALSE(s.converged);
    EXPECT_EQ(s.termination, "NO_CONVERGENCE");
    EXPECT_EQ(s.iterations, 1);
}

TEST(LeastSquares, DenseJacobianIsTheDesignMatrix) {
    double ab[2] = {0.5, -1};
    ceres::Problem problem;
    add_line(problem, ab, {1, 3, 5, 7, 9});
    const Eigen::MatrixXd j = dense_jacobian(problem, {ab});
    ASSERT_EQ(j.rows(), 5);
    ASSERT_EQ(j.cols(), 2);
    for (Eigen::Index i = 0; i < 5; ++i) {
        EXPECT_DOUBLE_EQ(j(i, 0), xs[static_cast<std::size_t>(i)]);
        EXPECT_DOUBLE_EQ(j(i, 1), 1);
    }
}

TEST(LeastSquares, CovarianceDiagonalIsThatOfTheNormalEquations) {
    Eigen::MatrixXd j(5, 2);
    for (Eigen::Index i = 0; i < 5; ++i)
        j.row(i) << xs[static_cast<std::size_t>(i)] * 1e3, 1e-3; // columns of unlike units
    const Eigen::VectorXd direct = (j.transpose() * j).inverse().diagonal();
    const auto diagonal = covariance_diagonal(j, 1e-10, 2.5);
    ASSERT_TRUE(diagonal.has_value());
    for (Eigen::Index i = 0; i < 2; ++i)
        EXPECT_NEAR((*diagonal)(i) / (2.5 * direct(i)), 1, 1e-10) << i;
}

TEST(LeastSquares, RankDeficientJacobiansHaveNoCovariance) {
    Eigen::MatrixXd twins(3, 2);
    twins << 1, 2, 2, 4, 3, 6; // the second column twice the first
    EXPECT_FALSE(covariance_diagonal(twins, 1e-10).has_value());
    Eigen::MatrixXd zero_column(3, 2);
    zero_column << 1, 0, 2, 0, 3, 0;
    EXPECT_FALSE(covariance_diagonal(zero_column, 1e-10).has_value());
    EXPECT_FALSE(covariance_diagonal(Eigen::MatrixXd(3, 0), 1e-10).has_value());
    // Nearly dependent: refused at a strict threshold, accepted at a loose one.
    Eigen::MatrixXd close(3, 2);
    close << 1, 1, 2, 2, 3, 3 + 1e-7;
    EXPECT_FALSE(covariance_diagonal(close, 1e-6).has_value());
    EXPECT_TRUE(covariance_diagonal(close, 1e-12).has_value());
}

// Columns a, 1e6 * a (another unit, the same direction), b and a + b among 4 rows: rank 2;
// among the first three, a and its multiple tie and b stands apart; with a + b, all tie.
TEST(LeastSquares, ColumnSeparabilityNamesTheColumnsTheRowsTie) {
    Eigen::MatrixXd j(4, 4);
    j << 1, 1e6, 0, 1, //
        2, 2e6, 1, 3,  //
        0, 0, 3, 3,    //
        1, 1e6, 1, 2;
    const ColumnSeparability three = column_separability(j, {0, 1, 2});
    EXPECT_EQ(three.rank, 2);
    EXPECT_EQ(three.separable, (std::vector<bool>{false, false, true}));
    const ColumnSeparability independent = column_separability(j, {0, 2});
    EXPECT_EQ(independent.rank, 2);
    EXPECT_EQ(independent.separable, (std::vector<bool>{true, true}));
    const ColumnSeparability all = column_separability(j, {0, 2, 3});
    EXPECT_EQ(all.rank, 2);
    EXPECT_EQ(all.separable, (std::vector<bool>{false, false, false}));
    EXPECT_TRUE(column_separability(j, {}).separable.empty());
}

// Five columns: zero (no row depends on it), one below the tolerance, one the fit left on a
// bound, a and 1e6 * a (they tie), b (separate). Each gets its status; the rank is that of the
// three left after the undetermined and the bounded one.
TEST(LeastSquares, ParameterStatusesFromTheJacobian) {
    Eigen::MatrixXd j(4, 6);
    j << 0, 1e-12, 5, 1, 1e6, 0, //
        0, 0, 1, 2, 2e6, 1,      //
        0, -1e-12, 2, 0, 0, 3,   //
        0, 0, 7, 1, 1e6, 1;
    const std::vector<bool> on_bound{false, false, true, false, false, false};
    const ParameterStatuses exact = parameter_statuses(j, on_bound);
    EXPECT_EQ(exact.status, (std::vector<ParameterStatus>{
                                ParameterStatus::undetermined, ParameterStatus::fitted,
                                ParameterStatus::at_bound, ParameterStatus::not_separable,
                                ParameterStatus::not_separable, ParameterStatus::fitted}));
    EXPECT_EQ(exact.fitted, (std::vector<Eigen::Index>{1, 5}));
    EXPECT_TRUE(exact.any_not_separable);
    EXPECT_EQ(exact.rank, 3); // columns 1, 3 (= 4) and 5
    // A tolerance above the rounding-sized column makes it undetermined too.
    const ParameterStatuses tolerant = parameter_statuses(j, on_bound, 1e-9);
    EXPECT_EQ(tolerant.status[1], ParameterStatus::undetermined);
    EXPECT_EQ(tolerant.rank, 2);
    // Without the tied pair everything left is fitted.
    const ParameterStatuses separate = parameter_statuses(j.leftCols(3), {false, false, false});
    EXPECT_FALSE(separate.any_not_separable);
    EXPECT_EQ(separate.fitted, (std::vector<Eigen::Index>{1, 2}));
}

} // namespace
} // namespace kerncast::support
