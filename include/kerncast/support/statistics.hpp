// Order statistics shared by every area: the median and percentile of kernel timings
// (runtime, validate), of probe repetitions (probe) and of model errors. Pure functions.
#pragma once

#include <span>

namespace kerncast::support {

// Median: the middle value, or the mean of the two middle values for an even count.
double median(std::span<const double> values); // values non-empty

// Percentile p in [0, 100] by linear interpolation between closest ranks (Hyndman & Fan 1996,
// definition 7; numpy's default): sort x[0..n-1], h = (n - 1) p / 100,
// result = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
double percentile(std::span<const double> values, double p); // values non-empty

// The same with q = p / 100 in [0, 1].
double quantile(std::span<const double> values, double q); // values non-empty

// Arithmetic mean.
double mean(std::span<const double> values); // values non-empty

// Median absolute deviation from the median (unscaled): median(|x - median(x)|).
double median_absolute_deviation(std::span<const double> values); // values non-empty

} // namespace kerncast::support
