#include "kerncast/probe/kolmogorov_smirnov.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace kerncast::probe {

double ks_statistic(std::span<const double> a, std::span<const double> b) {
    KERNCAST_CHECK(!a.empty() && !b.empty(), "KS test needs two non-empty samples");
    std::vector<double> x(a.begin(), a.end());
    std::vector<double> y(b.begin(), b.end());
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    const double n = static_cast<double>(x.size());
    const double m = static_cast<double>(y.size());
    std::size_t i = 0;
    std::size_t j = 0;
    double d = 0;
    while (i < x.size() && j < y.size()) {
        // Advance both ECDFs past the smallest remaining value (all its ties at once).
        const double v = std::min(x[i], y[j]);
        while (i < x.size() && x[i] == v)
            ++i;
        while (j < y.size() && y[j] == v)
            ++j;
        d = std::max(d, std::abs(static_cast<double>(i) / n - static_cast<double>(j) / m));
    }
    return d;
}

double kolmogorov_tail(double lambda) {
    if (lambda <= 0)
        return 1.0;
    if (lambda < 1.18) {
        // Theta-function form of the CDF; converges in a few terms for small lambda.
        const double pi = std::numbers::pi;
        double sum = 0;
        for (int k = 1; k <= 20; ++k) {
            const double odd = 2.0 * k - 1.0;
            sum += std::exp(-odd * odd * pi * pi / (8.0 * lambda * lambda));
        }
        return std::clamp(1.0 - std::sqrt(2.0 * pi) / lambda * sum, 0.0, 1.0);
    }
    double sum = 0;
    for (int k = 1; k <= 100; ++k) {
        const double term = std::exp(-2.0 * k * k * lambda * lambda);
        sum += (k % 2 == 1 ? term : -term);
        if (term < 1e-18)
            break;
    }
    return std::clamp(2.0 * sum, 0.0, 1.0);
}

double ks_exact_tail(std::size_t n, std::size_t m, double d) {
    KERNCAST_CHECK(n > 0 && m > 0, "KS distribution needs positive sample sizes");
    if (d <= 0)
        return 1.0;
    // Lattice point (i, j) is inside when |i/n - j/m| < d, i.e. |i*m - j*n| < d*n*m. The
    // left side is an integer; d*n*m of an observed D is an integer up to rounding, hence
    // the small tolerance before taking the ceiling.
    const double scaled = d * static_cast<double>(n) * static_cast<double>(m);
    const long long bound = static_cast<long long>(std::ceil(scaled - 1e-6));
    const auto inside = [&](std::size_t i, std::size_t j) {
        const long long diff = static_cast<long long>(i) * static_cast<long long>(m) -
                               static_cast<long long>(j) * static_cast<long long>(n);
        return std::llabs(diff) < bound;
    };
    // p[j] = (paths from (0,0) to (i,j) inside the band) / C(i+j, i). With N(i,j) =
    // N(i-1,j) + N(i,j-1) and C(i+j-1, i-1) = C(i+j, i) * i/(i+j):
    // p(i,j) = p(i-1,j) * i/(i+j) + p(i,j-1) * j/(i+j); every p stays in [0, 1].
    std::vector<double> p(m + 1, 0.0);
    for (std::size_t i = 0; i <= n; ++i) {
        for (std::size_t j = 0; j <= m; ++j) {
            if (i == 0 && j == 0) {
                p[0] = 1.0;
                continue;
            }
            if (!inside(i, j)) {
                p[j] = 0.0;
                continue;
            }
            const double total = static_cast<double>(i + j);
            const double from_left = i > 0 ? p[j] * static_cast<double>(i) / total : 0.0;
            const double from_below = j > 0 ? p[j - 1] * static_cast<double>(j) / total : 0.0;
            p[j] = from_left + from_below;
        }
    }
    return std::clamp(1.0 - p[m], 0.0, 1.0);
}

double ks_asymptotic_tail(std::size_t n, std::size_t m, double d) {
    const double ne = static_cast<double>(n) * static_cast<double>(m) / static_cast<double>(n + m);
    const double root = std::sqrt(ne);
    return kolmogorov_tail((root + 0.12 + 0.11 / root) * d);
}

double ks_critical_value(std::size_t n, std::size_t m, double alpha) {
    KERNCAST_CHECK(alpha > 0 && alpha < 1, "significance level must lie in (0, 1)");
    const double nd = static_cast<double>(n);
    const double md = static_cast<double>(m);
    return std::sqrt(-0.5 * std::log(alpha / 2.0)) * std::sqrt((nd + md) / (nd * md));
}

KsTestResult ks_two_sample_test(std::span<const double> a, std::span<const double> b,
                                double alpha) {
    KERNCAST_CHECK(alpha > 0 && alpha < 1, "significance level must lie in (0, 1)");
    KsTestResult result;
    result.n = a.size();
    result.m = b.size();
    result.alpha = alpha;
    result.statistic = ks_statistic(a, b);
    result.critical_d = ks_critical_value(result.n, result.m, alpha);
    result.exact = result.n * result.m <= ks_exact_limit;
    result.p_value = result.exact ? ks_exact_tail(result.n, result.m, result.statistic)
                                  : ks_asymptotic_tail(result.n, result.m, result.statistic);
    result.reject = result.p_value <= alpha;
    return result;
}

} // namespace kerncast::probe
