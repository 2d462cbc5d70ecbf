// Summaries of repeated probe measurements: a value with its spread and a confidence, and
// the physical-bounds check that flags implausible values instead of writing them.
#pragma once

#include "kerncast/support/statistics.hpp"

#include <span>
#include <string>
#include <vector>

namespace kerncast::probe {

// median, mean and the median absolute deviation live in the support layer.
using support::mean;
using support::median;
using support::median_absolute_deviation;

// Least-squares line y = intercept + slope * x (at least two distinct x).
struct LinearFit {
    double slope = 0;
    double intercept = 0;
    double r_squared = 0;
    // The slope's standard error, sqrt(residual sum of squares / (n - 2) / Sxx); NaN for two
    // points, which leave no residual to estimate it from.
    double slope_standard_error = 0;
};
LinearFit fit_line(std::span<const double> x, std::span<const double> y);

enum class Confidence { high, medium, low };
const char* to_string(Confidence confidence);

// How far a value may be trusted. Thresholds (docs/probe.md, "Confidence"):
//   high:   >= 3 repetitions, relative spread <= 2 %, and (when a test decided it) p <= alpha/10
//   medium: relative spread <= 10 % and the test (if any) significant at alpha
//   low:    everything else (one repetition, large spread, or a weak test)
struct Estimate {
    double value = 0;    // the reported value (median of the repetitions)
    double spread = 0;   // median absolute deviation of the repetitions, same unit
    int repetitions = 0; // how many independent measurements entered value
    double p_value = -1; // KS p-value of the deciding test; -1 when none applies
    Confidence confidence = Confidence::low;
    bool within_bounds = true; // false: outside physical bounds, not written to machines
    std::string note;          // why confidence is low / what is out of bounds

    double relative_spread() const;
};

// value = median, spread = MAD, confidence from spread and p_value (alpha: the level the
// test used; ignored when p_value < 0).
Estimate summarize(std::span<const double> repetitions, double p_value = -1, double alpha = 0.01);

// A value read off a fitted line (value = scale * slope): spread = scale * the slope's
// standard error, repetitions = the points fitted, and the confidence of summarize's
// thresholds with that spread (a slope from two points is low: nothing measures its error).
Estimate slope_estimate(const LinearFit& fit, std::size_t points, double scale = 1.0);

// Plausible physical range of a probed quantity. Not GPU facts: generous envelopes that
// any GPU of the last two decades and the next one satisfies; a value outside is a
// measurement failure (wrong clock, timer wrap, optimised-away chase).
struct PhysicalBounds {
    double min = 0;
    double max = 0;
    const char* what = "";
};
inline constexpr PhysicalBounds latency_bounds{1.0, 10000.0, "latency in cycles"};
inline constexpr PhysicalBounds cache_size_bounds{256.0, 4.0 * 1024 * 1024 * 1024,
                                                  "cache size in bytes"};
inline constexpr PhysicalBounds line_size_bounds{4.0, 4096.0, "line size in bytes"};
inline constexpr PhysicalBounds bandwidth_bounds{1.0, 1.0e6, "bandwidth in GB/s"};
inline constexpr PhysicalBounds clock_bounds{100.0, 10000.0, "clock in MHz"};
inline constexpr PhysicalBounds count_bounds{1.0, 64.0, "count per SM"};
inline constexpr PhysicalBounds delay_bounds{0.0, 10000.0, "delay in cycles"};
inline constexpr PhysicalBounds tlb_reach_bounds{4096.0, 1024.0 * 1024 * 1024 * 1024 * 1024,
                                                 "TLB reach in bytes"};
inline constexpr PhysicalBounds page_size_bounds{4096.0, 4.0 * 1024 * 1024 * 1024,
                                                 "page size in bytes"};

// Marks estimate out of bounds (with a note) when its value lies outside bounds.
void check_bounds(Estimate& estimate, const PhysicalBounds& bounds);

} // namespace kerncast::probe
