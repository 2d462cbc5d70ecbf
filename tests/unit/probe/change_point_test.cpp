#include "kerncast/probe/change_point.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace kerncast::probe {
namespace {

std::vector<double> noisy_steps(const std::vector<std::pair<int, double>>& levels, double sigma,
                                unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, sigma);
    std::vector<double> series;
    for (const auto& [count, level] : levels)
        for (int k = 0; k < count; ++k)
            series.push_back(level + noise(rng));
    return series;
}

// Oracle for Opt (eq. (3.1)): try every split, computing both segment costs directly.
std::size_t brute_force_split(const std::vector<double>& series, SegmentCost cost,
                              std::size_t min_length) {
    const std::vector<double>& values = series;
    std::size_t best = 0;
    double best_cost = 0;
    for (std::size_t t = min_length; t + min_length <= values.size(); ++t) {
        const double c =
            segment_cost(values, 0, t, cost) + segment_cost(values, t, values.size(), cost);
        if (best == 0 || c < best_cost - 1e-9 * std::max(1.0, std::abs(best_cost))) {
            best_cost = c;
            best = t;
        }
    }
    return best;
}

TEST(ChangePoint, OptMatchesBruteForceOnRandomSeries) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> value(0.0, 100.0);
    std::uniform_int_distribution<int> length(6, 60);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<double> series(static_cast<std::size_t>(length(rng)));
        for (auto& v : series)
            v = value(rng);
        for (SegmentCost cost : {SegmentCost::squared_error, SegmentCost::absolute_deviation}) {
            ChangePointOptions options;
            options.cost = cost;
            options.min_segment_length = 2;
            const auto found = opt_single_change_point(series, options);
            ASSERT_TRUE(found.has_value());
            EXPECT_EQ(found->index, brute_force_split(series, cost, 2)) << "trial " << trial;
        }
    }
}

TEST(ChangePoint, OptMatchesBruteForceWithTiesAndPlateaus) {
    // Timing-like data: few distinct values, long plateaus, ties everywhere.
    std::mt19937 rng(8);
    std::uniform_int_distribution<int> level(0, 3);
    for (int trial = 0; trial < 100; ++trial) {
        std::vector<double> series(40);
        for (auto& v : series)
            v = 10.0 * level(rng);
        for (SegmentCost cost : {SegmentCost::squared_error, SegmentCost::absolute_deviation}) {
            ChangePointOptions options;
            options.cost = cost;
            EXPECT_EQ(opt_single_change_point(series, options)->index,
                      brute_force_split(series, cost, 3));
        }
    }
}

TEST(ChangePoint, FindsNoisyStepExactly) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const auto series = noisy_steps({{23, 10.0}, {17, 16.0}}, 1.0, seed);
        const auto change = detect_change_point(series, {});
        ASSERT_TRUE(change.has_value()) << seed;
        EXPECT_EQ(change->index, 23u) << seed;
        EXPECT_LT(change->test.p_value, 1e-6);
    }
}

TEST(ChangePoint, RejectsSeriesWithoutChange) {
    int false_alarms = 0;
    for (unsigned seed = 1; seed <= 100; ++seed) {
        const auto series = noisy_steps({{40, 50.0}}, 3.0, seed);
        const auto candidate = opt_single_change_point(series, {});
        ASSERT_TRUE(candidate.has_value()); // Opt always proposes a split ...
        false_alarms += detect_change_point(series, {}).has_value(); // ... KS rejects it
    }
    // Bonferroni over the candidate splits keeps the rate below alpha = 1 %.
    EXPECT_LE(false_alarms, 1);
    // Without the correction the selected split's p-value is optimistic.
    ChangePointOptions uncorrected;
    uncorrected.correct_for_selection = false;
    int uncorrected_alarms = 0;
    for (unsigned seed = 1; seed <= 100; ++seed)
        uncorrected_alarms +=
            detect_change_point(noisy_steps({{40, 50.0}}, 3.0, seed), uncorrected).has_value();
    EXPECT_GT(uncorrected_alarms, false_alarms);
}

TEST(ChangePoint, ThesisSmallShiftExampleIsTooShortToVerify) {
    // Sec. 3.3.4: (1,1,1,1,1.3,1.3,1.3,1.3) has a clean split at 4, but 4+4 points cannot
    // reach significance 1 %: p = 2/70.
    const std::vector<double> series{1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3};
    const auto candidate = opt_single_change_point(series, {});
    ASSERT_TRUE(candidate.has_value());
    EXPECT_EQ(candidate->index, 4u);
    EXPECT_FALSE(candidate->significant());
    ChangePointOptions lenient;
    lenient.alpha = 0.05;
    lenient.correct_for_selection = false;
    EXPECT_TRUE(detect_change_point(series, lenient).has_value());
}

TEST(ChangePoint, AbsoluteDeviationIgnoresOutlierMagnitude) {
    // A single huge outlier early in the hit plateau pulls the squared-error split towards
    // it; the absolute-deviation cost still finds the real change.
    auto series = noisy_steps({{20, 0.0}, {20, 10.0}}, 0.5, 5);
    series[5] = 100.0;
    ChangePointOptions squared;
    squared.cost = SegmentCost::squared_error;
    EXPECT_NE(opt_single_change_point(series, squared)->index, 20u);
    const auto robust = detect_change_point(series, {});
    ASSERT_TRUE(robust.has_value());
    EXPECT_EQ(robust->index, 20u);
}

TEST(ChangePoint, StaircaseOfThreeLevels) {
    // L1 -> L2 -> DRAM: hit latencies 30, 200, 450 cycles.
    const auto series = noisy_steps({{25, 30.0}, {30, 200.0}, {20, 450.0}}, 5.0, 9);
    const auto changes = detect_change_points(series, {});
    EXPECT_EQ(changes, (std::vector<std::size_t>{25, 55}));
}

TEST(ChangePoint, GeometricReductionEmphasisesFirstMisses) {
    // 1000 loads, hit 30 cycles, miss 230: with 1 % misses the mean rises 2 cycles but the
    // distance from the all-hit reference rises by sqrt(0.01) * 200 = 20 cycles.
    std::vector<double> all_hits(1000, 30.0);
    std::vector<double> some_misses = all_hits;
    for (int k = 0; k < 10; ++k)
        some_misses[static_cast<std::size_t>(k * 100)] = 230.0;
    const MissThreshold reference = miss_threshold(all_hits);
    EXPECT_DOUBLE_EQ(reference.hit_latency, 30.0);
    EXPECT_DOUBLE_EQ(reference.threshold, 36.0); // MAD 0 -> 20 % of the hit latency
    EXPECT_DOUBLE_EQ(reduce_timing(all_hits, reference).rms_excess, 0.0);
    EXPECT_NEAR(reduce_timing(some_misses, reference).rms_excess, 20.0, 1e-9);
    EXPECT_NEAR(reduce_timing(some_misses, reference).miss_distance, 0.1, 1e-12);
    EXPECT_DOUBLE_EQ(reduce_timing(all_hits, reference).angle_rad, 0.0);
    EXPECT_GT(reduce_timing(some_misses, reference).angle_rad, 0.1);
    const auto reduced = geometric_reduction({all_hits, all_hits, some_misses});
    EXPECT_EQ(reduced, (std::vector<double>{0.0, 0.0, 0.1}));
    const auto magnitude = geometric_reduction({all_hits, some_misses}, Reduction::rms_excess);
    EXPECT_NEAR(magnitude[1], 20.0, 1e-9);
}

TEST(ChangePoint, MissDistanceIsBlindToOutlierMagnitude) {
    std::vector<double> with_outlier(100, 30.0);
    with_outlier[50] = 5000.0; // one interrupt
    std::vector<double> with_miss(100, 30.0);
    with_miss[50] = 230.0;
    const MissThreshold reference = miss_threshold(std::vector<double>(100, 30.0));
    EXPECT_DOUBLE_EQ(reduce_timing(with_outlier, reference).miss_distance,
                     reduce_timing(with_miss, reference).miss_distance);
    EXPECT_GT(reduce_timing(with_outlier, reference).rms_excess,
              20 * reduce_timing(with_miss, reference).rms_excess);
}

TEST(ChangePoint, TooShortSeriesHasNoCandidate) {
    const std::vector<double> series{1, 2, 3, 4, 5};
    EXPECT_FALSE(opt_single_change_point(series, {}).has_value()); // needs 2 * 3 points
}

} // namespace
} // namespace kerncast::probe
