#include "kerncast/probe/statistics.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <vector>

namespace kerncast::probe {

LinearFit fit_line(std::span<const double> x, std::span<const double> y) {
    KERNCAST_CHECK(x.size() == y.size() && x.size() >= 2, "line fit needs >= 2 points");
    const double mx = mean(x);
    const double my = mean(y);
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        sxx += (x[k] - mx) * (x[k] - mx);
        sxy += (x[k] - mx) * (y[k] - my);
        syy += (y[k] - my) * (y[k] - my);
    }
    KERNCAST_CHECK(sxx > 0, "line fit needs two distinct x values");
    LinearFit fit;
    fit.slope = sxy / sxx;
    fit.intercept = my - fit.slope * mx;
    fit.r_squared = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
    const double residual = std::max(0.0, syy - fit.slope * sxy);
    fit.slope_standard_error = x.size() > 2
                                   ? std::sqrt(residual / static_cast<double>(x.size() - 2) / sxx)
                                   : std::numeric_limits<double>::quiet_NaN();
    return fit;
}

const char* to_string(Confidence confidence) {
    switch (confidence) {
    case Confidence::high:
        return "high";
    case Confidence::medium:
        return "medium";
    case Confidence::low:
        return "low";
    }
    return "low";
}

double Estimate::relative_spread() const {
    return value != 0 ? std::abs(spread / value) : (spread == 0 ? 0.0 : INFINITY);
}

Estimate summarize(std::span<const double> repetitions, double p_value, double alpha) {
    Estimate estimate;
    estimate.value = median(repetitions);
    estimate.spread = median_absolute_deviation(repetitions);
    estimate.repetitions = static_cast<int>(repetitions.size());
    estimate.p_value = p_value;
    const double relative = estimate.relative_spread();
    const bool tested = p_value >= 0;
    if (estimate.repetitions >= 3 && relative <= 0.02 && (!tested || p_value <= alpha / 10))
        estimate.confidence = Confidence::high;
    else if (relative <= 0.10 && (!tested || p_value <= alpha))
        estimate.confidence = Confidence::medium;
    else
        estimate.confidence = Confidence::low;
    if (estimate.confidence == Confidence::low) {
        if (tested && p_value > alpha)
            estimate.note = fmt::format("change not significant (p = {:.3g})", p_value);
        else if (estimate.repetitions < 3 && relative > 0.10)
            estimate.note = fmt::format("spread {:.1f} % over {} repetition(s)", 100 * relative,
                                        estimate.repetitions);
        else
            estimate.note = fmt::format("spread {:.1f} %", 100 * relative);
    }
    return estimate;
}

Estimate slope_estimate(const LinearFit& fit, std::size_t points, double scale) {
    Estimate estimate;
    estimate.value = scale * fit.slope;
    estimate.spread = std::abs(scale) * fit.slope_standard_error;
    estimate.repetitions = static_cast<int>(points);
    const double relative = estimate.relative_spread();
    if (std::isfinite(relative) && points >= 3 && relative <= 0.02)
        estimate.confidence = Confidence::high;
    else if (std::isfinite(relative) && relative <= 0.10)
        estimate.confidence = Confidence::medium;
    else
        estimate.confidence = Confidence::low;
    if (estimate.confidence == Confidence::low)
        estimate.note = std::isfinite(relative)
                            ? fmt::format("the slope's standard error is {:.1f} %", 100 * relative)
                            : std::string("a slope through two points: no error estimate");
    return estimate;
}

void check_bounds(Estimate& estimate, const PhysicalBounds& bounds) {
    if (std::isfinite(estimate.value) && estimate.value >= bounds.min &&
        estimate.value <= bounds.max)
        return;
    estimate.within_bounds = false;
    estimate.confidence = Confidence::low;
    estimate.note = fmt::format("{:g} is outside the physical bounds [{:g}, {:g}] of a {}",
                                estimate.value, bounds.min, bounds.max, bounds.what);
}

} // namespace kerncast::probe
