#include "kerncast/support/statistics.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace kerncast::support {

namespace {

std::vector<double> sorted_copy(std::span<const double> values) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

} // namespace

double median(std::span<const double> values) {
    KERNCAST_CHECK(!values.empty(), "median of no values");
    const std::vector<double> sorted = sorted_copy(values);
    const std::size_t half = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted[half] : 0.5 * (sorted[half - 1] + sorted[half]);
}

double quantile(std::span<const double> values, double q) {
    KERNCAST_CHECK(!values.empty(), "quantile of no values");
    KERNCAST_CHECK(q >= 0 && q <= 1, "quantile outside [0, 1]");
    const std::vector<double> sorted = sorted_copy(values);
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto below = static_cast<std::size_t>(std::floor(h));
    if (below + 1 >= sorted.size())
        return sorted.back();
    return sorted[below] + (h - static_cast<double>(below)) * (sorted[below + 1] - sorted[below]);
}

double percentile(std::span<const double> values, double p) {
    KERNCAST_CHECK(p >= 0 && p <= 100, "percentile outside [0, 100]");
    return quantile(values, p / 100.0);
}

double mean(std::span<const double> values) {
    KERNCAST_CHECK(!values.empty(), "mean of no values");
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double median_absolute_deviation(std::span<const double> values) {
    const double center = median(values);
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (double v : values)
        deviations.push_back(std::abs(v - center));
    return median(deviations);
}

} // namespace kerncast::support
