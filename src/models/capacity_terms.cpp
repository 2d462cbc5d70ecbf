#include "kerncast/models/capacity_terms.hpp"

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

const CapacityFit& capacity_fit(const CapacityFits& fits, CapacityFitKind kind,
                                const std::string& machine_id) {
    const std::optional<CapacityFit>* fit = nullptr;
    switch (kind) {
    case CapacityFitKind::l1_redundant_loads:
        fit = &fits.l1_redundant_loads;
        break;
    case CapacityFitKind::y_layer_overlap:
        fit = &fits.y_layer_overlap;
        break;
    case CapacityFitKind::z_layer_overlap:
        fit = &fits.z_layer_overlap;
        break;
    case CapacityFitKind::l2_redundant_stores:
        fit = &fits.l2_redundant_stores;
        break;
    case CapacityFitKind::l2_redundant_loads:
        fit = &fits.l2_redundant_loads;
        break;
    }
    if (!fit || !*fit)
        throw_input_error("machine '" + machine_id + "' has no capacity_fits." +
                          std::string(capacity_fit_name(kind)) +
                          " (Ernst et al. 2023, sec. 4.5), which the volume model needs");
    return **fit;
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
