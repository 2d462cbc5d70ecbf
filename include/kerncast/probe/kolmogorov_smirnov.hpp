// Two-sample Kolmogorov-Smirnov test: the verification step of the change-point detection
// (thesis 002, sec. 3.3.4, eq. (3.2)-(3.3)).
#pragma once

#include <cstddef>
#include <span>

namespace kerncast::probe {

struct KsTestResult {
    double statistic = 0;  // D = max_x |F(x) - G(x)| over the two empirical CDFs, eq. (3.2)
    double p_value = 1;    // P(D >= observed | both samples from one continuous distribution)
    double critical_d = 0; // d_alpha of eq. (3.3): reject when D > d_alpha (large samples)
    double alpha = 0;      // significance level the decision used
    std::size_t n = 0;     // size of the first sample
    std::size_t m = 0;     // size of the second sample
    bool exact = false;    // p-value from the exact lattice-path distribution (small n*m)
    bool reject = false;   // true: the samples differ (p_value <= alpha)
};

// D of eq. (3.2). Ties are handled by stepping both ECDFs over each distinct value.
// Both samples must be non-empty.
double ks_statistic(std::span<const double> a, std::span<const double> b);

// Kolmogorov distribution tail Q(lambda) = P(K > lambda) = 2 sum_{k>=1} (-1)^(k-1)
// exp(-2 k^2 lambda^2); for small lambda the equivalent theta-function form
// 1 - sqrt(2 pi)/lambda sum_{k>=1} exp(-(2k-1)^2 pi^2 / (8 lambda^2)) converges faster.
double kolmogorov_tail(double lambda);

// Exact P(D >= d) for sample sizes n and m under H0 (continuous distribution), by counting
// monotone lattice paths from (0,0) to (n,m) that stay strictly inside |i/n - j/m| < d.
// O(n*m) time, O(m) memory; probabilities are normalised per step, so nothing overflows.
double ks_exact_tail(std::size_t n, std::size_t m, double d);

// Asymptotic P(D >= d): Q(lambda) with lambda = (sqrt(ne) + 0.12 + 0.11/sqrt(ne)) * d and
// ne = n*m/(n+m) (Stephens' small-sample correction).
double ks_asymptotic_tail(std::size_t n, std::size_t m, double d);

// d_alpha = sqrt(-ln(alpha/2) / 2) * sqrt((n+m)/(n*m)), thesis eq. (3.3) (the minus sign
// that the typeset formula lost is restored: ln(alpha/2) < 0).
double ks_critical_value(std::size_t n, std::size_t m, double alpha);

// Sample products up to this use the exact distribution; larger ones the asymptotic one.
inline constexpr std::size_t ks_exact_limit = 10000;

// The full test at significance level alpha (0 < alpha < 1).
KsTestResult ks_two_sample_test(std::span<const double> a, std::span<const double> b, double alpha);

} // namespace kerncast::probe
