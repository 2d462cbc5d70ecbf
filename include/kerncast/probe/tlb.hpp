// TLB reach, page size and miss latency from pointer chases with one load per stride over
// growing footprints (docs/probe.md, "TLB"). The chase is the thesis's fine-grained p-chase
// (002, sec. 3.1) with the stride set to a candidate page size; the latency-versus-footprint
// curve of each stride is a staircase with one step per TLB level (staircase.hpp). With a
// sequential walk and a stride s, the chase touches footprint / max(s, P) pages of size P,
// so a level of E entries is exhausted at the footprint
//
//     reach(s) = E * max(s, P)
//
// constant for strides up to the page size and growing with the stride above it; the page
// size is the stride where the two regimes meet. Below the page size only one load in P / s
// crosses into a new page, so the step height shrinks by s / P.
#pragma once

#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/staircase.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::probe {

// ---- measurement plan (used by the runner, tested on the host) ----------------------------

// Footprints of one stride's curve: whole numbers of strides (pages touched), geometrically
// spaced with points_per_octave from min_pages to the largest multiple of the stride up to
// max_bytes, ascending and without duplicates.
std::vector<std::int64_t> tlb_footprints(std::int64_t stride_bytes, std::int64_t max_bytes,
                                         int points_per_octave = 8, std::int64_t min_pages = 2);

// Footprints to measure next so that every step's onset is bracketed by adjacent pages: for
// each step, up to max_points_per_step evenly spaced multiples of the stride strictly between
// the last footprint below the onset and the first at or above it. points: the curve
// measured so far (ascending). Empty when every bracket is one stride wide.
std::vector<std::int64_t> tlb_refinement_footprints(const std::vector<SizePoint>& points,
                                                    const std::vector<StaircaseStep>& steps,
                                                    std::int64_t stride_bytes,
                                                    int max_points_per_step = 15);

// Measures the timing vectors of a batch of footprints (on the GPU: one launch of tlb_chase
// over all of them). One vector per footprint, in order.
using MeasureFootprints =
    std::function<std::vector<std::vector<double>>(const std::vector<std::int64_t>& footprints)>;

struct TlbCurveOptions {
    int points_per_octave = 8;  // coarse curve density
    std::int64_t min_pages = 2; // smallest footprint, in strides
    int max_refinements = 3;    // refinement rounds (launches after the coarse one)
    int max_points_per_step = 15;
    StaircaseOptions staircase{};
};

struct TlbCurve {
    std::vector<SizePoint> points; // every measured footprint, ascending
    int launches = 0;
};

// One stride's curve: the coarse footprints in one batch, then refinement batches until every
// step's onset is bracketed by adjacent pages (or max_refinements). The runner and the tests
// drive the same plan.
TlbCurve measure_tlb_curve(const MeasureFootprints& measure, std::int64_t stride_bytes,
                           std::int64_t max_bytes, const TlbCurveOptions& options = {});

// ---- analysis --------------------------------------------------------------------------

// One step of one curve, in bytes and cycles.
struct TlbStep {
    std::int64_t reach_bytes = 0; // largest footprint before the rise (all hits there)
    std::int64_t next_bytes = 0;  // first footprint of the rise: reach in (reach, next]
    double miss_cycles = 0;       // step height: extra cycles per load of a miss here
    double p_value = 1;           // the pooled KS test that verified it
    double alpha = 0;             // the (corrected) level it was verified at
};

// The steps of one stride's curve (points ascending by footprint, size_bytes = footprint).
std::vector<TlbStep> tlb_steps(const std::vector<SizePoint>& points,
                               const StaircaseOptions& options = {});

// First-level reach (footprint) measured at one stride.
struct StrideReach {
    std::int64_t stride_bytes = 0;
    double reach_bytes = 0;
};

// The page size that best explains reach(s) = E * max(s, P) (see the top of this file):
// every measured stride is a candidate P; E is the median of reach / max(s, P) over the
// strides; a stride agrees when its reach lies within `tolerance` of the prediction. The
// candidate with the most agreeing strides wins (ties: the smaller P, whose E was fitted on
// more growth). When it is the largest stride, the page may be larger (at_least); when the
// smallest, it may be smaller (at_most): only a stride sweep on both sides pins it.
struct PageSizeInference {
    std::int64_t page_bytes = 0;
    double entries = 0;       // E of the first level
    int agreeing_strides = 0; // strides whose reach the model predicts within tolerance
    int strides = 0;          // strides with a measured reach
    bool at_least = false;    // no growth seen: the page is this large or larger
    bool at_most = false;     // growth from the smallest stride on: this large or smaller
};
std::optional<PageSizeInference> infer_page_size(const std::vector<StrideReach>& reaches,
                                                 double tolerance = 0.25);

} // namespace kerncast::probe
