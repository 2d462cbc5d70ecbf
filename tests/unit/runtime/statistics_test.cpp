#include "kerncast/error.hpp"
#include "kerncast/runtime/statistics.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace kerncast::runtime {
namespace {

TEST(RuntimeStatistics, MedianOddAndEven) {
    EXPECT_DOUBLE_EQ(median(std::vector<double>{3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median(std::vector<double>{7}), 7.0);
}

TEST(RuntimeStatistics, PercentileLinearInterpolation) {
    const std::vector<double> values = {15, 20, 35, 40, 50};
    // h = (5 - 1) * p / 100
    EXPECT_DOUBLE_EQ(percentile(values, 0), 15.0);
    EXPECT_DOUBLE_EQ(percentile(values, 100), 50.0);
    EXPECT_DOUBLE_EQ(percentile(values, 50), 35.0); // h = 2
    EXPECT_DOUBLE_EQ(percentile(values, 40), 29.0); // h = 1.6: 20 + 0.6 * 15
    EXPECT_DOUBLE_EQ(percentile(values, 90), 46.0); // h = 3.6: 40 + 0.6 * 10
    EXPECT_DOUBLE_EQ(percentile(std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90), 9.1);
    EXPECT_DOUBLE_EQ(percentile(std::vector<double>{5}, 90), 5.0);
}

TEST(RuntimeStatistics, PercentileOutsideRangeIsInternalError) {
    EXPECT_THROW(percentile(std::vector<double>{1, 2}, 101), Error);
    EXPECT_THROW(median(std::vector<double>{}), Error);
}

TEST(RuntimeStatistics, SummarizeTimes) {
    // mean 5, squared deviations 9 + 1 + 1 + 9 = 20, sample variance 20 / 3
    const std::vector<double> times = {2, 4, 6, 8};
    const TimeSummary s = summarize_times(times);
    EXPECT_DOUBLE_EQ(s.median_s, 5.0);
    EXPECT_DOUBLE_EQ(s.min_s, 2.0);
    EXPECT_DOUBLE_EQ(s.max_s, 8.0);
    EXPECT_DOUBLE_EQ(s.mean_s, 5.0);
    EXPECT_DOUBLE_EQ(s.stddev_s, std::sqrt(20.0 / 3.0));
    EXPECT_DOUBLE_EQ(summarize_times(std::vector<double>{1e-5}).stddev_s, 0.0);
}

TEST(RuntimeStatistics, RelativeError) {
    EXPECT_DOUBLE_EQ(relative_error(110, 100), 0.1);
    EXPECT_DOUBLE_EQ(relative_error(50, 100), -0.5);
    EXPECT_THROW(relative_error(1, 0), Error);
}

TEST(RuntimeStatistics, AverageRanksWithTies) {
    EXPECT_EQ(average_ranks(std::vector<double>{10, 20, 20, 30}),
              (std::vector<double>{1, 2.5, 2.5, 4}));
    EXPECT_EQ(average_ranks(std::vector<double>{5, 5, 5}), (std::vector<double>{2, 2, 2}));
    EXPECT_EQ(average_ranks(std::vector<double>{3, 1, 2, 1}),
              (std::vector<double>{4, 1.5, 3, 1.5}));
}

TEST(RuntimeStatistics, SpearmanHandComputed) {
    // No ties: rho = 1 - 6 sum d^2 / (n (n^2 - 1)); ranks x 1..5, y = 2,1,4,3,5: sum d^2 = 4,
    // rho = 1 - 24 / 120 = 0.8.
    const auto rho = spearman_rank_correlation(std::vector<double>{1, 2, 3, 4, 5},
                                               std::vector<double>{20, 10, 40, 30, 50});
    ASSERT_TRUE(rho);
    EXPECT_NEAR(*rho, 0.8, 1e-15);
    EXPECT_NEAR(
        *spearman_rank_correlation(std::vector<double>{1, 2, 3}, std::vector<double>{9, 5, 1}),
        -1.0, 1e-15);
    // With ties: x ranks 1, 2.5, 2.5, 4; y ranks 1..4. Centered: (-1.5,0,0,1.5) and
    // (-1.5,-0.5,0.5,1.5): cov 4.5, var_x 4.5, var_y 5 -> 4.5 / sqrt(22.5) = 0.9486832980505138
    EXPECT_NEAR(*spearman_rank_correlation(std::vector<double>{1, 2, 2, 3},
                                           std::vector<double>{1, 2, 3, 4}),
                4.5 / std::sqrt(22.5), 1e-15);
}

TEST(RuntimeStatistics, SpearmanUndefinedCases) {
    EXPECT_FALSE(spearman_rank_correlation(std::vector<double>{1}, std::vector<double>{2}));
    EXPECT_FALSE(
        spearman_rank_correlation(std::vector<double>{1, 1, 1}, std::vector<double>{1, 2, 3}));
}

// Brute-force oracle: rank_i = 1 + #{x_j < x_i} + (#{x_j == x_i} - 1) / 2 (the average rank),
// then Pearson's correlation from its definition with the ranks' own means.
double oracle_spearman(const std::vector<double>& x, const std::vector<double>& y) {
    const auto ranks = [](const std::vector<double>& v) {
        std::vector<double> r(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            double less = 0, equal = 0;
            for (double w : v) {
                less += w < v[i];
                equal += w == v[i];
            }
            r[i] = 1 + less + (equal - 1) / 2;
        }
        return r;
    };
    const auto rx = ranks(x), ry = ranks(y);
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        mx += rx[i] / rx.size();
        my += ry[i] / ry.size();
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

TEST(RuntimeStatistics, SpearmanMatchesBruteForceOracleWithManyTies) {
    std::mt19937 generator(12345);
    std::uniform_int_distribution<int> small(0, 5); // few distinct values: many ties
    int compared = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t n = 2 + trial % 25;
        std::vector<double> x(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = small(generator);
            y[i] = small(generator) + 0.5 * x[i];
        }
        const auto rho = spearman_rank_correlation(x, y);
        const bool constant = std::equal(x.begin() + 1, x.end(), x.begin()) ||
                              std::equal(y.begin() + 1, y.end(), y.begin());
        ASSERT_EQ(rho.has_value(), !constant);
        if (rho) {
            EXPECT_NEAR(*rho, oracle_spearman(x, y), 1e-12) << "trial " << trial;
            ++compared;
        }
    }
    EXPECT_GT(compared, 250);
}

TEST(RuntimeStatistics, PredictedBestFraction) {
    // Prediction picks configuration 1 (measured 4); the best measured is 2 -> 0.5.
    EXPECT_DOUBLE_EQ(
        predicted_best_fraction(std::vector<double>{3, 1, 2}, std::vector<double>{5, 4, 2}), 0.5);
    // Picks the true best -> 1.
    EXPECT_DOUBLE_EQ(
        predicted_best_fraction(std::vector<double>{3, 1, 2}, std::vector<double>{5, 1, 2}), 1.0);
    // Tie between configurations 0 and 2 in prediction: the slower measured (8) counts.
    EXPECT_DOUBLE_EQ(
        predicted_best_fraction(std::vector<double>{1, 2, 1}, std::vector<double>{4, 2, 8}), 0.25);
    const PredictedBestPick pick =
        predicted_best_pick(std::vector<double>{1, 2, 1}, std::vector<double>{4, 2, 8});
    EXPECT_EQ(pick.index, 2u);
    EXPECT_EQ(pick.tied, 2u);
    EXPECT_EQ(predicted_best_pick(std::vector<double>{3, 1, 2}, std::vector<double>{5, 4, 2}).tied,
              1u);
}

// Within 1 % of the best prediction means a throughput at least 99 % of the best, so a time
// at most best / 0.99: 100 and 101 count, 101.02 (over 100 / 0.99 = 101.0101) does not.
TEST(RuntimeStatistics, NearBestCountsPredictionsWithinOnePercentOfTheBest) {
    const std::vector<double> predicted = {101.0, 150, 100, 101.02, 100};
    const std::vector<double> measured = {130, 90, 100, 80, 120};
    const NearBest near = near_best(predicted, measured);
    EXPECT_EQ(near.count, 3u);                     // 101, 100, 100
    EXPECT_NEAR(near.measured_spread, 0.3, 1e-12); // 130 / 100 - 1
    const NearBest alone = near_best(std::vector<double>{1, 2}, std::vector<double>{5, 1});
    EXPECT_EQ(alone.count, 1u);
    EXPECT_EQ(alone.measured_spread, 0);
}

TEST(RuntimeStatistics, ValidationStatistics) {
    const std::vector<double> predicted = {1.1, 2.0, 2.4, 4.0};
    const std::vector<double> measured = {1.0, 2.5, 2.0, 4.0};
    // |rel errors| = 0.1, 0.2, 0.2, 0 -> sorted 0, 0.1, 0.2, 0.2
    const ValidationStatistics s = validation_statistics(predicted, measured);
    EXPECT_EQ(s.configurations, 4u);
    EXPECT_NEAR(s.median_abs_relative_error, 0.15, 1e-12);
    EXPECT_NEAR(s.p90_abs_relative_error, 0.2, 1e-12); // h = 2.7 between 0.2 and 0.2
    // predicted ranks 1,2,3,4; measured ranks 1,3,2,4: sum d^2 = 2 -> 1 - 12/60 = 0.8
    ASSERT_TRUE(s.spearman);
    EXPECT_NEAR(*s.spearman, 0.8, 1e-12);
    EXPECT_DOUBLE_EQ(s.predicted_best_fraction, 1.0);
    EXPECT_EQ(s.near_best.count, 1u);
}

} // namespace
} // namespace kerncast::runtime

// |relative error| summary shared by validate, fit-volumes, calibrate and mwp-fit: hand values.
TEST(RuntimeStatistics, SummarizeAbsErrors) {
    const std::vector<double> errors{-0.1, 0.2, 0.05, -0.4};
    const auto s = kerncast::runtime::summarize_abs_errors(errors);
    EXPECT_EQ(s.samples, 4u);
    EXPECT_DOUBLE_EQ(s.median, (0.1 + 0.2) / 2);      // |e| sorted 0.05 0.1 0.2 0.4
    EXPECT_DOUBLE_EQ(s.p90, 0.2 + 0.7 * (0.4 - 0.2)); // h = 3 * 0.9 = 2.7
    EXPECT_DOUBLE_EQ(s.max, 0.4);
    EXPECT_NEAR(s.geometric_mean, std::pow(0.1 * 0.2 * 0.05 * 0.4, 0.25), 1e-15);
    const std::vector<double> with_zero{0.0, 0.3};
    EXPECT_DOUBLE_EQ(kerncast::runtime::summarize_abs_errors(with_zero).geometric_mean, 0.0);
    EXPECT_EQ(kerncast::runtime::summarize_abs_errors({}).samples, 0u);
}

namespace kerncast::runtime {

// The autotuning metric by hand: measured in predicted order until within 5 % of the best.
TEST(RuntimeStatistics, MeasuredToNearBestCountsInPredictedOrderWithTiesNearBestLast) {
    // Best 5; 5 and 5.2 are within 5 % (<= 5.25). Predicted order: 10 (no), 5 (yes): 2.
    const std::vector<double> predicted{1, 2, 3, 4}, measured{10, 5, 5.2, 20};
    MeasuredToNearBest m = measured_to_near_best(predicted, measured);
    EXPECT_EQ(m.in_predicted_order, 2u);
    EXPECT_DOUBLE_EQ(m.random_order, 5.0 / 3.0);
    // A tie between the near-best and another: the near-best one is counted last, whatever
    // the order of the input.
    EXPECT_EQ(measured_to_near_best(std::vector<double>{1, 1, 2}, std::vector<double>{5, 10, 20})
                  .in_predicted_order,
              2u);
    EXPECT_EQ(measured_to_near_best(std::vector<double>{1, 1, 2}, std::vector<double>{10, 5, 20})
                  .in_predicted_order,
              2u);
    // Every configuration near the best: the first one measured.
    m = measured_to_near_best(std::vector<double>{3, 2, 1}, std::vector<double>{1, 1.01, 1.02});
    EXPECT_EQ(m.in_predicted_order, 1u);
    EXPECT_DOUBLE_EQ(m.random_order, 1.0);
    // The worst order: the best measured last.
    EXPECT_EQ(measured_to_near_best(std::vector<double>{1, 2, 3}, std::vector<double>{9, 8, 1})
                  .in_predicted_order,
              3u);
}

// Tie-breaks order equal predictions; only predictions equal in both keys still tie. The
// oracle: a tie-break is a second key, so ranking (time, tie-break) pairs equals ranking by
// time + tie-break * epsilon for an epsilon below every gap between distinct times.
TEST(RuntimeStatistics, TieBreaksOrderEqualPredictions) {
    const std::vector<double> time{1, 2, 1, 1, 3}, tie_break{5, 0, 4, 5, 0};
    EXPECT_EQ(average_ranks(time, tie_break), (std::vector<double>{2.5, 4, 1, 2.5, 5}));
    EXPECT_EQ(average_ranks(time), (std::vector<double>{2, 4, 2, 2, 5}));
    // The pick: the smallest (time, tie-break); of the two equal in both, the slower measured.
    const std::vector<double> measured{7, 1, 9, 8, 2};
    const PredictedBestPick pick = predicted_best_pick(time, measured, tie_break);
    EXPECT_EQ(pick.index, 2u);
    EXPECT_EQ(pick.tied, 1u);
    const PredictedBestPick without = predicted_best_pick(time, measured);
    EXPECT_EQ(without.index, 2u); // the slowest of the three tied at 1
    EXPECT_EQ(without.tied, 3u);
    EXPECT_EQ(predicted_best_pick(time, std::vector<double>{7, 1, 6, 8, 2}, tie_break).index,
              2u); // configuration 2 is first by its tie-break even when faster measured
    EXPECT_DOUBLE_EQ(predicted_best_fraction(time, measured, tie_break), 1.0 / 9.0);
    // Measured in order of (time, tie-break): 2 (9), then 0 and 3 tied (near-best last).
    const std::vector<double> near_measured{1, 50, 9, 20, 30};
    EXPECT_EQ(measured_to_near_best(time, near_measured, 0.05, tie_break).in_predicted_order, 3u);
    EXPECT_EQ(measured_to_near_best(time, near_measured, 0.05).in_predicted_order, 3u);

    std::mt19937 generator(7);
    std::uniform_int_distribution<int> small(0, 4);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t n = 2 + trial % 20;
        std::vector<double> t(n), b(n), folded(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = small(generator);
            b[i] = small(generator);
            folded[i] = t[i] + b[i] * 1e-3; // gaps between distinct times are at least 1
            y[i] = small(generator);
        }
        EXPECT_EQ(average_ranks(t, b), average_ranks(folded)) << trial;
        const auto with = spearman_rank_correlation(t, y, b);
        const auto oracle = spearman_rank_correlation(folded, y);
        ASSERT_EQ(with.has_value(), oracle.has_value());
        if (with)
            EXPECT_NEAR(*with, *oracle, 1e-12) << trial;
    }
}

} // namespace kerncast::runtime
