#include "kerncast/models/volumes/capacity_terms.hpp"

#include "kerncast/error.hpp"

#include <cmath>
#include <string>

namespace kerncast::models {

std::string_view capacity_fit_name(CapacityFitKind kind) {
    switch (kind) {
    case CapacityFitKind::l1_redundant_loads:
        return "l1_redundant_loads";
    case CapacityFitKind::y_layer_overlap:
        return "y_layer_overlap";
    case CapacityFitKind::z_layer_overlap:
        return "z_layer_overlap";
    case CapacityFitKind::l2_redundant_stores:
        return "l2_redundant_stores";
    case CapacityFitKind::l2_redundant_loads:
        return "l2_redundant_loads";
    }
    return "?";
}

double capacity_hit_rate(const CapacityFit& fit, double oversubscription) {
    return fit.a.value * std::exp(-fit.b.value * std::exp(-fit.c.value * oversubscription));
}

std::optional<CapacityFit>& capacity_fit_slot(CapacityFits& fits, CapacityFitKind kind) {
    switch (kind) {
    case CapacityFitKind::l1_redundant_loads:
        return fits.l1_redundant_loads;
    case CapacityFitKind::y_layer_overlap:
        return fits.y_layer_overlap;
    case CapacityFitKind::z_layer_overlap:
        return fits.z_layer_overlap;
    case CapacityFitKind::l2_redundant_stores:
        return fits.l2_redundant_stores;
    case CapacityFitKind::l2_redundant_loads:
        return fits.l2_redundant_loads;
    }
    throw Error(ErrorKind::internal, "unknown capacity fit kind");
}

const std::optional<CapacityFit>& capacity_fit_slot(const CapacityFits& fits,
                                                    CapacityFitKind kind) {
    return capacity_fit_slot(const_cast<CapacityFits&>(fits), kind);
}

const CapacityFit& capacity_fit(const CapacityFits& fits, CapacityFitKind kind,
                                const std::string& machine_id) {
    const std::optional<CapacityFit>& fit = capacity_fit_slot(fits, kind);
    if (!fit)
        throw_input_error("machine '" + machine_id + "' has no capacity_fits." +
                          std::string(capacity_fit_name(kind)) +
                          " (Ernst et al. 2023, sec. 4.5), which the volume model needs");
    return *fit;
}

double evaluate_decomposition(const VolumeDecomposition& decomposition, const CapacityFits& fits,
                              const std::string& machine_id) {
    double value = decomposition.base_bytes_per_point;
    for (const auto& term : decomposition.terms) {
        double miss = 1.0 - capacity_hit_rate(capacity_fit(fits, term.fit, machine_id),
                                              term.oversubscription);
        if (term.second_fit)
            miss *= 1.0 - capacity_hit_rate(capacity_fit(fits, *term.second_fit, machine_id),
                                            term.second_oversubscription);
        value += miss * term.volume_bytes_per_point;
    }
    return value;
}

} // namespace kerncast::models
