// A predicted volume as the sum of a capacity-independent part and capacity-miss terms
// (Ernst et al. 2023, sec. 4.5, eq. (5)): every term is a volume that misses with probability
// 1 - hit(O) of one capacity fit at one oversubscription O. The volume model fills these so
// that the fits can be re-evaluated, and fitted (`kerncast fit-volumes`), without re-running
// the footprint analysis: O does not depend on the fit's coefficients.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace kerncast::models {

// The four hit-rate fits of sec. 4.5 and kerncast's fifth, redundant L2 loads within a wave
// (machine file `capacity_fits`).
enum class CapacityFitKind {
    l1_redundant_loads,
    y_layer_overlap,
    z_layer_overlap,
    l2_redundant_stores,
    l2_redundant_loads
};
inline constexpr int capacity_fit_kinds = 5;

// The machine-file key of a fit: "l1_redundant_loads", "y_layer_overlap", ...
std::string_view capacity_fit_name(CapacityFitKind kind);

// Ernst et al. 2023, sec. 4.5, eq. (4)-(5): share of the redundant volume that hits, as a
// function of the oversubscription O = allocated volume / cache capacity:
// a * exp(-b * exp(-c * O)).
double capacity_hit_rate(const CapacityFit& fit, double oversubscription);

// (1 - hit(O)) * volume_bytes_per_point is the term's contribution; with a second fit,
// (1 - hit(O)) * (1 - hit_second(O_second)) * volume: a miss at one level of what already
// missed at the level above (L1 capacity misses that then miss in L2).
struct CapacityTerm {
    CapacityFitKind fit = CapacityFitKind::l1_redundant_loads;
    double oversubscription = 0;
    double volume_bytes_per_point = 0;
    std::optional<CapacityFitKind> second_fit;
    double second_oversubscription = 0;
};

// One predicted metric: base + sum over terms of (1 - hit_fit(O)) * volume, bytes per point.
struct VolumeDecomposition {
    double base_bytes_per_point = 0;
    std::vector<CapacityTerm> terms;
};

// The slot of `kind` in `fits` (absent or present).
std::optional<CapacityFit>& capacity_fit_slot(CapacityFits& fits, CapacityFitKind kind);
const std::optional<CapacityFit>& capacity_fit_slot(const CapacityFits& fits, CapacityFitKind kind);

// The fit of `kind` in `fits`; an input Error naming the machine when it is absent.
const CapacityFit& capacity_fit(const CapacityFits& fits, CapacityFitKind kind,
                                const std::string& machine_id);

// The decomposition's value under `fits` (every fit its terms use must be present).
double evaluate_decomposition(const VolumeDecomposition& decomposition, const CapacityFits& fits,
                              const std::string& machine_id);

} // namespace kerncast::models
