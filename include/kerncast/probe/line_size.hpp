// Cache line size from the spacing of misses (thesis 002, sec. 4.3): a fine-grained chase
// with a small stride over an array well beyond the capacity misses once per line, so the
// distance between consecutive misses, times the stride, is the line size.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace kerncast::probe {

struct MissClassification {
    double threshold = 0;    // times above are misses
    double hit_latency = 0;  // median of the hits
    double miss_latency = 0; // median of the misses
    std::size_t misses = 0;
};

// Splits the load times into hits and misses: Opt (absolute deviation) on the sorted times finds
// the boundary between the two clusters; the threshold is the midpoint of their medians.
// nullopt when there are fewer than two clusters (all hits or all misses).
std::optional<MissClassification> classify_misses(std::span<const double> timings,
                                                  double alpha = 0.01);

struct LineSizeResult {
    int line_bytes = 0;       // most frequent miss spacing times stride_bytes
    double agreement = 0;     // fraction of spacings equal to the most frequent one
    std::size_t spacings = 0; // how many spacings were observed
    MissClassification classes;
};

// timings: per-access times of a chase whose consecutive accesses are stride_bytes apart.
// nullopt when fewer than three misses were seen (the array did not exceed the cache).
std::optional<LineSizeResult> line_size_from_misses(std::span<const double> timings,
                                                    int stride_bytes, double alpha = 0.01);

} // namespace kerncast::probe
