#include "kerncast/support/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace kerncast::support;

namespace {

// The k-th smallest value (0-based) by counting, without sorting: the value v with fewer
// than k + 1 values below it and at least k + 1 values at or below it.
double kth_smallest(const std::vector<double>& values, std::size_t k) {
    for (double v : values) {
        std::size_t below = 0, at_or_below = 0;
        for (double w : values) {
            below += w < v;
            at_or_below += w <= v;
        }
        if (below <= k && k < at_or_below)
            return v;
    }
    ADD_FAILURE() << "no k-th smallest value";
    return NAN;
}

std::vector<double> random_values(std::mt19937& rng, std::size_t n) {
    std::uniform_int_distribution<int> value(-50, 50); // small range: many ties
    std::vector<double> values;
    for (std::size_t k = 0; k < n; ++k)
        values.push_back(value(rng) / 4.0);
    return values;
}

} // namespace

TEST(Statistics, GoldenValues) {
    const std::vector<double> odd = {3, 1, 2};
    const std::vector<double> even = {4, 1, 3, 2};
    EXPECT_EQ(median(odd), 2);
    EXPECT_EQ(median(even), 2.5);
    // numpy.percentile([1, 2, 3, 4], 90) == 3.7 (linear, Hyndman & Fan definition 7).
    EXPECT_NEAR(percentile(even, 90), 3.7, 1e-12);
    EXPECT_EQ(percentile(even, 0), 1);
    EXPECT_EQ(percentile(even, 100), 4);
    EXPECT_NEAR(quantile(even, 0.9), 3.7, 1e-12);
    EXPECT_EQ(mean(even), 2.5);
    // Median 2, deviations {1, 1, 0, 0, 2, 4, 7}: MAD 1.
    const std::vector<double> skewed = {1, 1, 2, 2, 4, 6, 9};
    EXPECT_EQ(median_absolute_deviation(skewed), 1);
}

// Brute-force oracle: order statistics by counting, interpolated as definition 7 says.
TEST(Statistics, MatchOrderStatisticsByCounting) {
    std::mt19937 rng(11);
    for (std::size_t n = 1; n <= 12; ++n) {
        for (int trial = 0; trial < 20; ++trial) {
            const auto values = random_values(rng, n);
            const double lower_middle = kth_smallest(values, (n - 1) / 2);
            const double upper_middle = kth_smallest(values, n / 2);
            EXPECT_EQ(median(values), 0.5 * (lower_middle + upper_middle));
            for (int p = 0; p <= 100; p += 5) {
                const double h = static_cast<double>(n - 1) * p / 100.0;
                const auto below = static_cast<std::size_t>(std::floor(h));
                const double low = kth_smallest(values, below);
                const double high = kth_smallest(values, std::min(below + 1, n - 1));
                EXPECT_NEAR(percentile(values, p), low + (h - std::floor(h)) * (high - low), 1e-12)
                    << "n " << n << " p " << p;
                EXPECT_NEAR(quantile(values, p / 100.0), percentile(values, p), 1e-12);
            }
            double sum = 0;
            std::vector<double> deviations;
            for (double v : values)
                sum += v;
            for (double v : values)
                deviations.push_back(std::abs(v - median(values)));
            EXPECT_NEAR(mean(values), sum / static_cast<double>(n), 1e-12);
            EXPECT_EQ(
                median_absolute_deviation(values),
                0.5 * (kth_smallest(deviations, (n - 1) / 2) + kth_smallest(deviations, n / 2)));
        }
    }
}

TEST(Statistics, OrderOfValuesDoesNotMatter) {
    std::vector<double> values = {5, -1, 3, 3, 8, 0.5};
    const double m = median(values), p = percentile(values, 37);
    std::sort(values.begin(), values.end());
    do {
        EXPECT_EQ(median(values), m);
        EXPECT_EQ(percentile(values, 37), p);
    } while (std::next_permutation(values.begin(), values.end()));
}
