#include "kerncast/probe/change_point.hpp"
#include "kerncast/probe/staircase.hpp"

#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace kerncast::probe {
namespace {

// A staircase: level(point) cycles per load, `samples` loads per point with uniform noise and
// 1000-cycle outliers.
struct Curve {
    std::vector<double> levels; // per point
    double noise = 2;
    double outlier_rate = 0;
    std::size_t samples = 256;
    std::uint32_t seed = 1;

    std::vector<std::vector<double>> vectors() const {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unit(0, 1);
        std::vector<std::vector<double>> result;
        for (double level : levels) {
            std::vector<double> v;
            for (std::size_t k = 0; k < samples; ++k) {
                double t = level + noise * (2 * unit(rng) - 1);
                if (unit(rng) < outlier_rate)
                    t += 1000;
                v.push_back(std::round(t));
            }
            result.push_back(v);
        }
        return result;
    }
};

std::vector<double> staircase(std::size_t points, const std::vector<std::size_t>& steps_at,
                              const std::vector<double>& heights, double base = 260) {
    std::vector<double> levels(points, base);
    for (std::size_t s = 0; s < steps_at.size(); ++s)
        for (std::size_t k = steps_at[s]; k < points; ++k)
            levels[k] += heights[s];
    return levels;
}

std::vector<std::size_t> indices(const std::vector<StaircaseStep>& steps) {
    std::vector<std::size_t> result;
    for (const auto& s : steps)
        result.push_back(s.index);
    return result;
}

TEST(Staircase, OneTwoAndThreeStepsAreAllFound) {
    struct Case {
        std::vector<std::size_t> at;
        std::vector<double> heights;
    };
    for (const Case& c : {Case{{12}, {80}}, Case{{8, 20}, {60, 300}},
                          Case{{5, 14, 26}, {40, 150, 600}}, Case{{3, 6}, {500, 40}}}) {
        Curve curve;
        curve.levels = staircase(34, c.at, c.heights);
        const auto steps = find_steps(curve.vectors());
        ASSERT_EQ(indices(steps), c.at);
        for (std::size_t s = 0; s < steps.size(); ++s) {
            EXPECT_EQ(steps[s].onset_index, c.at[s]);
            EXPECT_NEAR(steps[s].height, c.heights[s], 1.0);
            EXPECT_LT(steps[s].test.p_value, steps[s].test.alpha);
        }
    }
}

TEST(Staircase, NoiseAndOutliersDoNotHideOrInventSteps) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        Curve curve;
        curve.levels = staircase(30, {9, 21}, {50, 250});
        curve.noise = 6;
        curve.outlier_rate = 0.02;
        curve.seed = seed;
        EXPECT_EQ(indices(find_steps(curve.vectors())), (std::vector<std::size_t>{9, 21}))
            << "seed " << seed;
    }
}

TEST(Staircase, FlatCurvesHaveNoStep) {
    // Change-free curves with noise and outliers: the pooled KS test alone would flag some
    // (heavy outliers differ between sides); the minimum rise keeps them out.
    int false_steps = 0;
    for (std::uint32_t seed = 1; seed <= 100; ++seed) {
        Curve curve;
        curve.levels = std::vector<double>(40, 260);
        curve.noise = 4;
        curve.outlier_rate = seed % 2 == 0 ? 0.02 : 0.0;
        curve.seed = seed;
        false_steps += static_cast<int>(find_steps(curve.vectors()).size());
    }
    EXPECT_EQ(false_steps, 0);
}

TEST(Staircase, SlowDriftAndFallsAreNotSteps) {
    Curve drift;
    for (std::size_t k = 0; k < 40; ++k)
        drift.levels.push_back(260 + 0.1 * static_cast<double>(k)); // 4 cycles over the curve
    EXPECT_TRUE(find_steps(drift.vectors()).empty());
    Curve fall;
    fall.levels = staircase(30, {15}, {-100});
    EXPECT_TRUE(find_steps(fall.vectors()).empty());
}

TEST(Staircase, RampOnsetIsTheFirstRisingPoint) {
    // A set-associative level misses gradually over a few footprints.
    Curve curve;
    curve.levels = staircase(30, {}, {});
    const std::vector<double> ramp{20, 50, 80, 100};
    for (std::size_t k = 12; k < 30; ++k)
        curve.levels[k] += k - 12 < ramp.size() ? ramp[k - 12] : 100;
    curve.noise = 1;
    const auto steps = find_steps(curve.vectors());
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].onset_index, 12u);
    EXPECT_GE(steps[0].index, 12u);
    EXPECT_NEAR(steps[0].height, 100, 2);
}

TEST(Staircase, TooShortCurveHasNoStep) {
    Curve curve;
    curve.levels = {260, 260, 400};
    EXPECT_TRUE(find_steps(curve.vectors()).empty());
}

// Brute-force oracle: the optimal partition of the reduced curve into k + 1 segments (each
// at least two points) under the absolute-deviation cost, by trying every set of k splits.
// Binary segmentation is greedy; on staircases with real steps it must find the same splits.
std::vector<std::size_t> exhaustive_splits(const std::vector<double>& levels, std::size_t k) {
    const std::size_t total = levels.size();
    const std::size_t min_length = 2;
    std::vector<std::size_t> best;
    double best_cost = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> current;
    std::function<void(std::size_t, double)> choose = [&](std::size_t begin, double cost) {
        if (current.size() == k) {
            if (total - begin < min_length)
                return;
            const double c =
                cost + segment_cost(levels, begin, total, SegmentCost::absolute_deviation);
            if (c < best_cost - 1e-9) {
                best_cost = c;
                best = current;
            }
            return;
        }
        for (std::size_t at = begin + min_length; at + min_length <= total; ++at) {
            current.push_back(at);
            choose(at, cost + segment_cost(levels, begin, at, SegmentCost::absolute_deviation));
            current.pop_back();
        }
    };
    choose(0, 0);
    return best;
}

TEST(Staircase, BinarySegmentationMatchesTheExhaustiveOptimum) {
    std::mt19937 rng(7);
    int compared = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t points = 12 + rng() % 6;
        const std::size_t count = 1 + rng() % 3;
        // Step positions at least 3 apart, heights 30..330 cycles.
        std::vector<std::size_t> at;
        std::vector<double> heights;
        std::size_t next = 2 + rng() % 3;
        for (std::size_t s = 0; s < count && next + 2 <= points; ++s) {
            at.push_back(next);
            heights.push_back(30 + static_cast<double>(rng() % 300));
            next += 3 + rng() % 3;
        }
        Curve curve;
        curve.levels = staircase(points, at, heights);
        curve.noise = 3;
        curve.outlier_rate = 0.01;
        curve.seed = static_cast<std::uint32_t>(trial);
        const auto vectors = curve.vectors();
        const auto steps = find_steps(vectors);
        EXPECT_EQ(indices(steps), at) << "trial " << trial;
        EXPECT_EQ(indices(steps), exhaustive_splits(staircase_levels(vectors), steps.size()))
            << "trial " << trial;
        ++compared;
    }
    EXPECT_EQ(compared, 40);
}

} // namespace
} // namespace kerncast::probe
