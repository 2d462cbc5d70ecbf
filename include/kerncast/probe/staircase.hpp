// Every step of a latency staircase: a curve of timing vectors over growing footprints whose
// level rises once per exhausted structure (TLB levels: L1 TLB -> L2 TLB -> page walk).
// Binary segmentation with the thesis's two ingredients (002, sec. 3.3): Opt places the single
// most likely change of the reduced curve (eq. (3.1), absolute-deviation cost), and a
// two-sample Kolmogorov-Smirnov test verifies it (sec. 3.3.4) — here on the pooled raw load
// times of the two sides, thousands of samples, so the test has power even when each level
// holds only a few footprints. A verified step must also be a rise of a minimum height (the
// pooled test alone would call a one-cycle drift significant). Both segments are searched
// again until no verified step is left.
#pragma once

#include "kerncast/probe/change_point.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace kerncast::probe {

struct StaircaseOptions {
    // Opt's cost and segment length, the KS level and its Bonferroni correction over the
    // candidate splits of each segment (change_point.hpp).
    ChangePointOptions change_point{SegmentCost::absolute_deviation, Reduction::miss_distance, 2,
                                    0.01, true};
    // A step rises by at least max(min_height, min_relative_height * lower level).
    double min_height = 5.0;
    double min_relative_height = 0.03;
    // Between two levels lies a plateau of at least this many points that rises by less than
    // a quarter of the smaller adjacent step; steps without one are one ramp and merge.
    std::size_t min_plateau_points = 3;
    std::size_t max_steps = 8;
};

struct StaircaseStep {
    std::size_t index = 0;       // first point of the upper level (Opt's split)
    std::size_t onset_index = 0; // first point of the rise (<= index; a ramp starts earlier)
    double lower_level = 0;      // median of the reduced values of the level below
    double upper_level = 0;      // ... and of the level above
    double height = 0;           // upper_level - lower_level
    KsTestResult test;           // pooled load times below vs above the split
};

// Each timing vector reduced to its mean: a level's height is the mean extra time per load
// (the geometric reduction's miss fraction would lose how much a miss costs, and the levels
// differ exactly in that). Robustness to outliers comes from Opt's cost and the medians.
std::vector<double> staircase_levels(const std::vector<std::vector<double>>& timing_vectors);

// Steps in increasing order of footprint (point index). timing_vectors are ordered by
// footprint; the first must lie on the lowest level.
std::vector<StaircaseStep> find_steps(const std::vector<std::vector<double>>& timing_vectors,
                                      const StaircaseOptions& options = {});

} // namespace kerncast::probe
