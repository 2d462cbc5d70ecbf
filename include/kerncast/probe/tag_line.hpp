// The line a cache tag covers, apart from what one miss fetches (docs/probe.md, "Tag line").
// A sectored cache (NVIDIA's L1 and L2: 128 B lines of four 32 B sectors) fetches one sector a
// miss, which is what line_size_from_misses measures, but holds only capacity / line tags. A
// chase whose loads lie s bytes apart over an array of A bytes needs A / max(s, line) tags.
// Over A = f x capacity (1 < f < 2) it misses while s < f x line (more lines than tags) and
// hits from there, provided the set placement spreads the touched lines over all sets
// (hashed placement: no power-of-two stride conflicts in NVIDIA's L1). With strides that
// double from the sector, the line is the largest stride that missed, the next one hitting.
// The same principle as MT4G's line size: the capacity a chase sees grows once its stride
// passes the line.
#pragma once

#include "kerncast/probe/line_size.hpp"

#include <span>
#include <string>
#include <vector>

namespace kerncast::probe {

// The times of one chase over the array beyond the capacity.
struct StrideTimings {
    int stride_bytes = 0;
    std::span<const double> timings;
};

struct StrideMisses {
    int stride_bytes = 0;
    double miss_fraction = 0; // loads above the hit/miss threshold
    std::size_t loads = 0;    // timed loads (repetitions of a stride pooled)
};

struct TagLineResult {
    int line_bytes = 0;                // 0: not determined (problem says why)
    std::string problem;               // why not, in words
    bool clean = false;                // every stride missed >= 90 % or hit >= 90 %, in order
    std::vector<StrideMisses> strides; // ascending
    MissClassification classes;        // the threshold, from every series pooled
};

// over_capacity: the chases over one array beyond the capacity, strides doubling from the
// smallest (a stride may repeat: repetitions pool). reference_hits: times of a chase that fits
// the cache (every load a hit): they only help set the threshold when every stride missed.
// Input Error when the strides are not positive and doubling.
TagLineResult tag_line_from_strides(std::span<const StrideTimings> over_capacity,
                                    std::span<const double> reference_hits, double alpha = 0.01);

} // namespace kerncast::probe
