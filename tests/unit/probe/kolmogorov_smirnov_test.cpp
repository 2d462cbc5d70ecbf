#include "kerncast/probe/kolmogorov_smirnov.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace kerncast::probe {
namespace {

TEST(KolmogorovSmirnov, StatisticOfSeparatedSamplesIsOne) {
    const std::vector<double> a{1, 2, 3};
    const std::vector<double> b{4, 5, 6, 7};
    EXPECT_DOUBLE_EQ(ks_statistic(a, b), 1.0);
    EXPECT_DOUBLE_EQ(ks_statistic(b, a), 1.0);
}

TEST(KolmogorovSmirnov, StatisticHandlesTiesAcrossSamples) {
    // F: {1,1,2,2} G: {2,2,3,3}. At x=1: F=0.5, G=0 -> 0.5; at 2: F=1, G=0.5 -> 0.5.
    const std::vector<double> a{1, 1, 2, 2};
    const std::vector<double> b{2, 2, 3, 3};
    EXPECT_DOUBLE_EQ(ks_statistic(a, b), 0.5);
    // Identical samples with ties: D = 0 (a naive merge that steps one sample at a time
    // would report 0.5 here).
    EXPECT_DOUBLE_EQ(ks_statistic(a, a), 0.0);
}

TEST(KolmogorovSmirnov, ThesisExampleSmallShift) {
    // Thesis sec. 3.3.4: (1,1,1,1 | 1.3,1.3,1.3,1.3) is a complete separation, D = 1.
    const std::vector<double> left{1, 1, 1, 1};
    const std::vector<double> right{1.3, 1.3, 1.3, 1.3};
    const auto test = ks_two_sample_test(left, right, 0.05);
    EXPECT_DOUBLE_EQ(test.statistic, 1.0);
    EXPECT_TRUE(test.exact);
    // P(D = 1) = 2 / C(8,4) = 2/70: not significant at 0.01, significant at 0.05.
    EXPECT_NEAR(test.p_value, 2.0 / 70.0, 1e-12);
    EXPECT_TRUE(test.reject);
    EXPECT_FALSE(ks_two_sample_test(left, right, 0.01).reject);
}

// Oracle: enumerate every way to interleave n x's and m y's (all orderings of a continuous
// sample are equally likely under H0) and count those with D >= d.
double brute_force_tail(int n, int m, double d) {
    std::vector<int> pattern(static_cast<std::size_t>(n + m), 1);
    std::fill(pattern.begin(), pattern.begin() + n, 0);
    long long total = 0;
    long long extreme = 0;
    do {
        int i = 0;
        int j = 0;
        double dmax = 0;
        for (int v : pattern) {
            (v == 0 ? i : j)++;
            dmax = std::max(dmax, std::abs(double(i) / n - double(j) / m));
        }
        ++total;
        extreme += dmax >= d - 1e-12;
    } while (std::next_permutation(pattern.begin(), pattern.end()));
    return double(extreme) / double(total);
}

TEST(KolmogorovSmirnov, ExactTailMatchesEnumeration) {
    for (int n : {1, 3, 5, 6}) {
        for (int m : {2, 4, 7}) {
            for (int k = 1; k <= n * m; ++k) {
                const double d = double(k) / (n * m);
                EXPECT_NEAR(ks_exact_tail(n, m, d), brute_force_tail(n, m, d), 1e-12)
                    << "n=" << n << " m=" << m << " d=" << d;
            }
        }
    }
}

TEST(KolmogorovSmirnov, KolmogorovTailKnownQuantiles) {
    // Classical critical values of the Kolmogorov distribution: Q(1.3581) = 0.05,
    // Q(1.6276) = 0.01, Q(1.2238) = 0.10.
    EXPECT_NEAR(kolmogorov_tail(1.3581), 0.05, 1e-4);
    EXPECT_NEAR(kolmogorov_tail(1.6276), 0.01, 1e-4);
    EXPECT_NEAR(kolmogorov_tail(1.2238), 0.10, 1e-4);
    EXPECT_DOUBLE_EQ(kolmogorov_tail(0.0), 1.0);
    EXPECT_NEAR(kolmogorov_tail(0.2), 1.0, 1e-12);
    // The two series agree where the implementation switches between them.
    const double theta_side = kolmogorov_tail(1.18 - 1e-9);
    const double alternating_side = kolmogorov_tail(1.18 + 1e-9);
    EXPECT_NEAR(theta_side, alternating_side, 1e-8);
}

TEST(KolmogorovSmirnov, CriticalValueOfThesisEquation) {
    // eq. (3.3): n = m = 100, alpha = 0.05 -> sqrt(-ln(0.025)/2) * sqrt(0.02) = 0.19206.
    EXPECT_NEAR(ks_critical_value(100, 100, 0.05), 0.192064, 1e-5);
}

TEST(KolmogorovSmirnov, AsymptoticApproachesExact) {
    // Between lattice points (D of n = m = 400 is a multiple of 1/400), where the exact
    // distribution has no atom; the asymptotic error shrinks like 1/sqrt(n).
    for (double d : {0.05125, 0.07625, 0.10125})
        EXPECT_NEAR(ks_asymptotic_tail(400, 400, d), ks_exact_tail(400, 400, d), 0.02) << d;
    EXPECT_NEAR(ks_asymptotic_tail(400, 400, 0.15125), ks_exact_tail(400, 400, 0.15125), 1e-4);
}

TEST(KolmogorovSmirnov, FalseRejectionRateUnderNullIsAtMostAlpha) {
    std::mt19937 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    const int trials = 2000;
    int rejections = 0;
    for (int t = 0; t < trials; ++t) {
        std::vector<double> a(30);
        std::vector<double> b(40);
        for (auto& v : a)
            v = normal(rng);
        for (auto& v : b)
            v = normal(rng);
        rejections += ks_two_sample_test(a, b, 0.05).reject;
    }
    const double rate = double(rejections) / trials;
    EXPECT_LE(rate, 0.065);
    EXPECT_GE(rate, 0.025);
}

TEST(KolmogorovSmirnov, DetectsShiftedDistribution) {
    std::mt19937 rng(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> a(200);
    std::vector<double> b(200);
    for (auto& v : a)
        v = normal(rng);
    for (auto& v : b)
        v = normal(rng) + 1.0;
    const auto test = ks_two_sample_test(a, b, 0.01);
    EXPECT_FALSE(test.exact);
    EXPECT_TRUE(test.reject);
    EXPECT_GT(test.statistic, test.critical_d);
    EXPECT_LT(test.p_value, 1e-6);
}

} // namespace
} // namespace kerncast::probe
