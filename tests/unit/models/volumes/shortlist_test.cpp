// The shortlist rule (shortlist.hpp) by hand, and against a simulation of its own error model:
// the measured best falls outside the K configurations at most 1 - confidence of the time.
#include "kerncast/error.hpp"
#include "kerncast/models/volumes/shortlist.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace kerncast;
using namespace kerncast::models;

TEST(Shortlist, ProbabilitiesByHand) {
    // Equal predictions: a coin flip. e^(spread sqrt 2 * 1.6449) apart: 5 %.
    const double spread = 0.1;
    const double five_percent = std::exp(spread * std::sqrt(2.0) * 1.6448536269514722);
    const Shortlist s = shortlist({1.0, 1.0, five_percent, 10.0}, spread, 0.9);
    ASSERT_EQ(s.beats_best.size(), 4u);
    EXPECT_DOUBLE_EQ(s.beats_best[0], 1.0);
    EXPECT_DOUBLE_EQ(s.beats_best[1], 0.5);
    EXPECT_NEAR(s.beats_best[2], 0.05, 1e-9);
    EXPECT_LT(s.beats_best[3], 1e-30);
    // The tail 0.05 + ~0 fits 1 - 0.9; adding 0.5 would not.
    EXPECT_EQ(s.size, 2u);
    EXPECT_NEAR(s.outside_probability, 0.05, 1e-9);
    EXPECT_EQ(shortlist({1.0, 1.0, five_percent, 10.0}, spread, 0.96).size, 3u);
    EXPECT_EQ(shortlist({2.0}, spread, 0.99).size, 1u);
    EXPECT_EQ(shortlist({}, spread, 0.99).size, 0u);
}

TEST(Shortlist, BadSpreadOrConfidenceIsAUsageError) {
    for (const auto& [spread, confidence] :
         {std::pair{0.0, 0.9}, {-1.0, 0.9}, {NAN, 0.9}, {0.1, 1.0}, {0.1, 0.0}, {0.1, 1.5}}) {
        try {
            shortlist({1.0, 2.0}, spread, confidence);
            ADD_FAILURE() << spread << " " << confidence;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage);
        }
    }
}

// 200 configurations spread over a factor of 3, errors of spread 0.15: in simulated
// measurements the best lies outside the shortlist in at most 1 - confidence of the trials.
TEST(Shortlist, SimulatedMeasurementsKeepTheBestInsideAtTheConfidence) {
    std::mt19937 random(7);
    std::vector<double> predicted;
    std::uniform_real_distribution<double> uniform(1.0, 3.0);
    for (int i = 0; i < 200; ++i)
        predicted.push_back(uniform(random));
    std::sort(predicted.begin(), predicted.end());
    const double spread = 0.15;
    for (const double confidence : {0.8, 0.95}) {
        const Shortlist s = shortlist(predicted, spread, confidence);
        ASSERT_GT(s.size, 1u);
        ASSERT_LT(s.size, predicted.size());
        std::normal_distribution<double> error(0.0, spread);
        int outside = 0;
        const int trials = 4000;
        for (int t = 0; t < trials; ++t) {
            std::size_t best = 0;
            double best_time = INFINITY;
            for (std::size_t i = 0; i < predicted.size(); ++i) {
                const double measured = predicted[i] * std::exp(error(random));
                if (measured < best_time) {
                    best_time = measured;
                    best = i;
                }
            }
            outside += best >= s.size ? 1 : 0;
        }
        EXPECT_LE(static_cast<double>(outside) / trials, 1 - confidence) << confidence;
    }
}
