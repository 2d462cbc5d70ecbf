#include "kerncast/probe/statistics.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace kerncast::probe {
namespace {

TEST(Statistics, MedianAndMad) {
    const std::vector<double> odd{5, 1, 3};
    const std::vector<double> even{4, 1, 3, 2};
    EXPECT_DOUBLE_EQ(median(odd), 3);
    EXPECT_DOUBLE_EQ(median(even), 2.5);
    const std::vector<double> with_outlier{10, 10, 11, 9, 1000};
    EXPECT_DOUBLE_EQ(median(with_outlier), 10);
    EXPECT_DOUBLE_EQ(median_absolute_deviation(with_outlier), 1);
}

TEST(Statistics, LineFitRecoversSlope) {
    const std::vector<double> x{1, 2, 3, 4, 5};
    const std::vector<double> y{14, 18, 22, 26, 30}; // 10 + 4x
    const auto fit = fit_line(x, y);
    EXPECT_DOUBLE_EQ(fit.slope, 4);
    EXPECT_DOUBLE_EQ(fit.intercept, 10);
    EXPECT_DOUBLE_EQ(fit.r_squared, 1);
}

TEST(Statistics, SlopeStandardErrorByHand) {
    // y = 10.6 + 3.8 x with residuals -0.4, 0.8, -1, 1.2, -0.6: SSR 3.6, Sxx 10,
    // SE = sqrt(3.6 / 3 / 10) = sqrt(0.12).
    const std::vector<double> x{1, 2, 3, 4, 5};
    const std::vector<double> y{14, 19, 21, 27, 29};
    const auto fit = fit_line(x, y);
    EXPECT_NEAR(fit.slope, 3.8, 1e-12);
    EXPECT_NEAR(fit.intercept, 10.6, 1e-12);
    EXPECT_NEAR(fit.slope_standard_error, std::sqrt(0.12), 1e-12);
    // Read off per two units of x: value and spread scale, 9.1 % relative error is medium.
    const Estimate e = slope_estimate(fit, x.size(), 2.0);
    EXPECT_NEAR(e.value, 7.6, 1e-12);
    EXPECT_NEAR(e.spread, 2 * std::sqrt(0.12), 1e-12);
    EXPECT_EQ(e.repetitions, 5);
    EXPECT_EQ(e.confidence, Confidence::medium);
    // An exact line is high; a scatter whose error passes 10 % is low, with a note.
    EXPECT_EQ(slope_estimate(fit_line(x, std::vector<double>{14, 18, 22, 26, 30}), 5).confidence,
              Confidence::high);
    const Estimate noisy =
        slope_estimate(fit_line(x, std::vector<double>{14, 25, 15, 30, 24}), x.size());
    EXPECT_EQ(noisy.confidence, Confidence::low);
    EXPECT_NE(noisy.note.find("standard error"), std::string::npos);
    // Two points leave no residual: no error estimate, low.
    const std::vector<double> two{1, 2};
    const auto line = fit_line(two, std::vector<double>{3, 5});
    EXPECT_TRUE(std::isnan(line.slope_standard_error));
    EXPECT_EQ(slope_estimate(line, 2).confidence, Confidence::low);
}

TEST(Statistics, ConfidenceFromSpreadAndTest) {
    const std::vector<double> tight{100, 100.5, 99.8, 100.2, 100.1};
    EXPECT_EQ(summarize(tight).confidence, Confidence::high);
    EXPECT_EQ(summarize(tight, 1e-6, 0.01).confidence, Confidence::high);
    EXPECT_EQ(summarize(tight, 0.005, 0.01).confidence, Confidence::medium);
    EXPECT_EQ(summarize(tight, 0.2, 0.01).confidence, Confidence::low);
    const std::vector<double> wide{100, 130, 80, 120, 60};
    const auto estimate = summarize(wide);
    EXPECT_EQ(estimate.confidence, Confidence::low);
    EXPECT_DOUBLE_EQ(estimate.value, 100);
    EXPECT_DOUBLE_EQ(estimate.spread, 20);
    const std::vector<double> single{42};
    EXPECT_EQ(summarize(single).confidence, Confidence::medium);
}

TEST(Statistics, OutOfBoundsIsFlaggedNotHidden) {
    const std::vector<double> wrapped{-3e9};
    auto estimate = summarize(wrapped);
    check_bounds(estimate, latency_bounds);
    EXPECT_FALSE(estimate.within_bounds);
    EXPECT_EQ(estimate.confidence, Confidence::low);
    EXPECT_NE(estimate.note.find("outside the physical bounds"), std::string::npos);
    auto fine = summarize(std::vector<double>{33});
    check_bounds(fine, latency_bounds);
    EXPECT_TRUE(fine.within_bounds);
}

} // namespace
} // namespace kerncast::probe
