#include "kerncast/models/volumes/block_retirement.hpp"

#include "kerncast/error.hpp"
#include "kerncast/support/memo.hpp"

#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace kerncast::models {

double expected_max_of_standard_normals(int n) {
    KERNCAST_CHECK(n >= 1, fmt::format("expected maximum of {} normal variables", n));
    if (n == 1)
        return 0;
    // Every launch of a sweep asks for one of a few n: each is integrated once per process.
    static support::Memo<double> integrated;
    return integrated.get(std::to_string(n), [n] {
        // E[max] = integral of z f(z) over the real line, with the density of the maximum
        // f(z) = n phi(z) Phi(z)^(n-1). Simpson's rule over [-12, 12]: the tails beyond carry less
        // than 1e-30 for the n a block can have.
        const auto integrand = [n](double z) {
            const double phi = std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
            const double cdf = 0.5 * std::erfc(-z / std::numbers::sqrt2);
            return z * n * phi * std::pow(cdf, n - 1);
        };
        constexpr int intervals = 4096; // even
        constexpr double lo = -12, hi = 12, h = (hi - lo) / intervals;
        double sum = integrand(lo) + integrand(hi);
        for (int i = 1; i < intervals; ++i)
            sum += (i % 2 ? 4 : 2) * integrand(lo + i * h);
        return sum * h / 3;
    });
}

double busy_warp_slot_fraction(int warps_per_block, double warp_duration_cv) {
    KERNCAST_CHECK(warps_per_block >= 1, fmt::format("a block of {} warps", warps_per_block));
    KERNCAST_CHECK(std::isfinite(warp_duration_cv) && warp_duration_cv >= 0,
                   fmt::format("warp duration coefficient of variation {}", warp_duration_cv));
    return 1 / (1 + warp_duration_cv * expected_max_of_standard_normals(warps_per_block));
}

} // namespace kerncast::models
