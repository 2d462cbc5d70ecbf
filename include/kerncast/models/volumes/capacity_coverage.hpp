// Which capacity-miss terms of a volume prediction rest on a part of their curve that no
// measurement places: the forecast's honest error bars (docs/volume-model.md, "Where a
// forecast is uncertain").
//
// A term (Ernst et al. 2023, sec. 4.5, eq. (5): (1 - hit(O)) x volume) is uncovered when
//   - its curve is not fitted to measurements (its source has no fit provenance: a kerncast
//     default) and the hit rate lies in the curve's transition, 5-95 %, where the curve's
//     assumed shape decides how much of the volume misses; far below or above it a set well
//     beyond the cache misses and one well within it hits, whatever the curve; or
//   - its curve is fitted, but O lies more than 10 % beyond the largest oversubscription of the
//     fit's samples (FitProvenance::oversubscription_ranges) and the curve still promises 5 %
//     hits or more: it is extrapolated there (a set far beyond the cache, hit < 5 %, misses
//     whatever the curve).
// A curve's source is that of its c (fit-volumes writes a, b and c under one source).
// Terms of one fit are taken together (the sampled waves give each their own O), weighted by
// volume; only fits whose terms reach `min_share` of the metric's total are reported.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/volumes/capacity_terms.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kerncast::models {

struct UncoveredCapacityTerm {
    CapacityFitKind fit = CapacityFitKind::l1_redundant_loads;
    double oversubscription = 0;       // volume-weighted over the fit's terms
    double hit_rate = 0;               // the curve's at that O
    double volume_bytes_per_point = 0; // the terms' volumes (what hits or misses), summed
    double total_bytes_per_point = 0;  // the metric's predicted total
    double share = 0;                  // the terms' volume / the total
    std::string source;                // the curve's source key (machine.sources)
    // The largest O the fit's samples reached, when the curve is fitted and extrapolated;
    // absent for a default curve.
    std::optional<double> largest_fitted_oversubscription;
};

// The uncovered terms of one metric's decomposition (its first fit of each term), largest
// volume first. `total_bytes_per_point` is the metric's predicted total (> 0 for any result).
std::vector<UncoveredCapacityTerm> uncovered_capacity_terms(const VolumeDecomposition& metric,
                                                            double total_bytes_per_point,
                                                            const MachineModel& machine,
                                                            double min_share = 0.05);

// One line for `predict`'s notes: "DRAM load: z_layer_overlap terms of 12.30 B/point at O = 0.93
// hit 81 % (2.34 of the 12.83 B/point total miss); ...".
std::string uncovered_capacity_note(std::string_view metric, const UncoveredCapacityTerm& term,
                                    const std::string& machine_id);

} // namespace kerncast::models
