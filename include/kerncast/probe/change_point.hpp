// Change-point detection on benchmark series (thesis 002, sec. 3.3): geometric reduction of
// per-size timing vectors to one value per size (3.3.2), the single most likely change point
// by Opt (3.3.3, eq. (3.1)), and its verification by a two-sample Kolmogorov-Smirnov test
// (3.3.4). Binary segmentation on top finds several levels (L1 -> L2 -> DRAM staircases).
#pragma once

#include "kerncast/probe/kolmogorov_smirnov.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace kerncast::probe {

// One timing vector (the fine-grained load times of one array size) reduced to scalars by
// its geometry relative to the all-hit reference vector r = h * (1, ..., 1), where h is the
// hit latency (thesis sec. 3.3.2 after [40]).
struct ReducedTiming {
    // ||x - r|| / sqrt(n): the RMS excess over the hit latency, in the timings' unit. Grows
    // like sqrt(miss fraction) * miss penalty, so the first misses stand out sharply.
    double rms_excess = 0;
    // The same distance for the miss-indicator vector (1 where x_k > miss threshold):
    // sqrt(miss fraction). Blind to how far above the threshold a time is, so a rare
    // 1000-cycle outlier weighs like one miss instead of dominating the vector.
    double miss_distance = 0;
    // Angle between x and (1, ..., 1), radians: 0 for a constant vector; measures spread.
    double angle_rad = 0;
};

// A load is a miss when it exceeds the hit latency by more than
// max(sigmas * 1.4826 * MAD, fraction * hit latency) of the baseline (all-hit) vector.
struct MissThreshold {
    double hit_latency = 0; // median of the baseline
    double threshold = 0;
};
MissThreshold miss_threshold(std::span<const double> baseline, double sigmas = 8.0,
                             double fraction = 0.2);

ReducedTiming reduce_timing(std::span<const double> timings, const MissThreshold& reference);

enum class Reduction {
    miss_distance, // default: robust to outliers (see ReducedTiming)
    rms_excess,    // the thesis's magnitude-based geometric distance
};

// Reduces every vector of a series; the first (smallest) vector is the all-hit baseline, so
// the series must start below the capacity being searched for.
std::vector<double> geometric_reduction(const std::vector<std::vector<double>>& timing_vectors,
                                        Reduction kind = Reduction::miss_distance);

// The cost c(u, v) of a segment in Opt (eq. (3.1)): lower when the segment is homogeneous.
enum class SegmentCost {
    // Sum of squared deviations from the segment mean (the Gaussian mean-shift cost, [41]).
    squared_error,
    // Sum of absolute deviations from the segment median (the Laplace cost): an outlier
    // adds its distance to whichever segment holds it, so it cannot pull the split towards
    // itself. The default.
    absolute_deviation,
};

struct ChangePointOptions {
    SegmentCost cost = SegmentCost::absolute_deviation;
    Reduction reduction = Reduction::miss_distance; // used where timing vectors are reduced
    std::size_t min_segment_length = 3;             // points on each side of a change
    double alpha = 0.01;                            // KS significance level of the verification
    // Opt tries every split and keeps the most extreme one, so the KS p-value of that split
    // is optimistic. With the correction the test runs at alpha / (number of candidate
    // splits) (Bonferroni), which keeps false alarms on change-free series below alpha.
    bool correct_for_selection = true;
};

struct ChangePoint {
    std::size_t index = 0; // first index of the second segment: the change lies between
                           // index-1 and index
    double cost = 0;       // c(0, index-1) + c(index, T-1) of the chosen split
    KsTestResult test;     // left segment vs right segment
    bool significant() const { return test.reject; }
};

// Opt restricted to one change point: argmin_t c(0, t-1) + c(t, T-1) over
// min_segment_length <= t <= T - min_segment_length. All prefix and suffix costs come from
// running sums (squared error) or running medians (absolute deviation): O(T log T) instead
// of Algorithm 1's O(T^2) table. Ties pick the smallest t. nullopt when the series is
// shorter than 2 * min_segment_length.
std::optional<ChangePoint> opt_single_change_point(std::span<const double> series,
                                                   const ChangePointOptions& options);

// c for the segment [begin, end) computed directly (used by tests as the oracle).
double segment_cost(std::span<const double> values, std::size_t begin, std::size_t end,
                    SegmentCost cost);

// Opt + KS: the single change point when the test verifies it, nullopt otherwise.
std::optional<ChangePoint> detect_change_point(std::span<const double> series,
                                               const ChangePointOptions& options);

// Binary segmentation: detect a verified change point, then recurse into both segments.
// Returns the verified change-point indices in increasing order (at most max_points).
std::vector<std::size_t> detect_change_points(std::span<const double> series,
                                              const ChangePointOptions& options,
                                              std::size_t max_points = 8);

} // namespace kerncast::probe
