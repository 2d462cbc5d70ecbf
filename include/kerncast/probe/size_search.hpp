// The efficient search for a cache size (thesis 002, sec. 3.2 and 3.4): double the array
// size until the load times change, narrow the bracket by bisection, sweep the final region
// with a fine step, and locate the size by change-point detection on the whole series.
// A pure algorithm: the caller supplies a callback that "measures" one array size (on the
// GPU: one fine-grained pointer chase; in tests: a simulated cache).
#pragma once

#include "kerncast/probe/change_point.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace kerncast::probe {

// Returns the fine-grained load times (cycles) of one pointer chase over size_bytes.
using MeasureSize = std::function<std::vector<double>(std::int64_t size_bytes)>;
// Measures several sizes in one go (on the GPU: one launch, one block per SM and size, for
// caches private to an SM; thesis sec. 4.7.2). Returns one timing vector per size, in order.
using MeasureSizes =
    std::function<std::vector<std::vector<double>>(const std::vector<std::int64_t>& sizes)>;

struct SizeSearchOptions {
    std::int64_t start_bytes = 1024;  // first (and baseline) size; must not miss
    std::int64_t max_bytes = 1 << 30; // doubling stops here: the cache is at least this
    std::int64_t step_bytes = 256;    // resolution of the final sweep (sizes are multiples)
    int sweep_points_per_side = 8;    // sweep points below and above the bracket
    int batch = 1; // sizes per MeasureSizes call; > 1 turns bisection into a k-ary search
    // "The times changed" (doubling and bisection) is decided up to ~25 times per search, and
    // a false "changed" while doubling is fatal: strict level, and a minimum effect.
    double alpha = 1e-4;
    double min_effect = 0.05;          // minimum KS D for a change (5 % of the loads)
    ChangePointOptions change_point{}; // cost, segment length and level of the final CPD
    int max_refinements = 24;          // CPD-driven refinement rounds (see search_cache_size)
};

struct SizePoint {
    std::int64_t size_bytes = 0;
    std::vector<double> timings;
};

struct SizeSearchResult {
    std::vector<SizePoint> points;     // every measured size, ascending, no duplicates
    std::int64_t lower_bytes = 0;      // bisection bracket: no change at lower ...
    std::int64_t upper_bytes = 0;      // ... a change at upper
    bool exceeds_max = false;          // no change up to max_bytes: the size is >= max_bytes
    std::optional<ChangePoint> change; // verified change point in points (by index)
    std::int64_t size_bytes = 0;       // largest size without misses (0 when exceeds_max)
    int measurements = 0;              // sizes measured
    int rounds = 0;                    // MeasureSizes calls (launches)
};

// "The load times changed": KS(baseline, timings) rejects at alpha and D >= min_effect.
bool timings_changed(const std::vector<double>& baseline, const std::vector<double>& timings,
                     const SizeSearchOptions& options);

// Runs the search: (1) doubling from start_bytes until the KS test sees a change against the
// baseline, (2) bisection (k-ary with batches) of that bracket, (3) a sweep of
// sweep_points_per_side steps around it, (4) refinement: change-point detection over all
// points measured so far brackets the onset between two measured sizes; while that bracket
// is wider than one step, up to max(batch, 7) evenly spaced sizes inside it are measured and
// the CPD is redone. (4) repairs a bisection that a weak KS decision led astray (a few
// misses among many loads), since the CPD weighs every point. Throws an internal error for
// inconsistent options.
SizeSearchResult search_cache_size(const MeasureSizes& measure, const SizeSearchOptions& options);
// The same with one size per call (options.batch is ignored: 1).
SizeSearchResult search_cache_size(const MeasureSize& measure, const SizeSearchOptions& options);

// The final step alone, reused by the replay of recorded series: change-point detection on
// the geometric reduction of points (ascending sizes), then the onset of the rise that leads
// to the verified change. size_bytes is the size just before the onset; nullopt when no
// change is verified.
struct SizeLocation {
    ChangePoint change;               // the verified Opt change point
    std::size_t onset_index = 0;      // first point of the rise that ends at change.index
    std::int64_t size_bytes = 0;      // largest size before the change
    std::int64_t next_size_bytes = 0; // first size after it: the size lies in (size, next]
};
std::optional<SizeLocation> locate_size(const std::vector<SizePoint>& points,
                                        const ChangePointOptions& options);

} // namespace kerncast::probe
