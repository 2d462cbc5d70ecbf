#include "kerncast/models/volumes/capacity_coverage.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace kerncast::models {

namespace {

// The transition of a curve that no measurement places: between these hit rates its shape
// decides the volume (docs/volume-model.md).
constexpr double transition_low = 0.05, transition_high = 0.95;
// How far beyond the largest O of its samples a fitted curve counts as extrapolated: O itself is
// an estimate (footprints of a few sampled waves), so 10 % more is not yet outside.
constexpr double extrapolation_margin = 1.1;

} // namespace

std::vector<UncoveredCapacityTerm> uncovered_capacity_terms(const VolumeDecomposition& metric,
                                                            double total_bytes_per_point,
                                                            const MachineModel& machine,
                                                            double min_share) {
    std::vector<UncoveredCapacityTerm> uncovered;
    if (!(total_bytes_per_point > 0))
        return uncovered;
    std::array<double, capacity_fit_kinds> volume{}, weighted_o{};
    for (const auto& term : metric.terms) {
        if (term.volume_bytes_per_point <= 0)
            continue;
        const auto k = static_cast<std::size_t>(term.fit);
        volume[k] += term.volume_bytes_per_point;
        weighted_o[k] += term.volume_bytes_per_point * term.oversubscription;
    }
    for (std::size_t k = 0; k < volume.size(); ++k) {
        if (volume[k] <= 0 || volume[k] < min_share * total_bytes_per_point)
            continue;
        const auto kind = static_cast<CapacityFitKind>(k);
        const auto& curve = capacity_fit_slot(machine.capacity_fits, kind);
        if (!curve)
            continue;
        UncoveredCapacityTerm term;
        term.fit = kind;
        term.volume_bytes_per_point = volume[k];
        term.total_bytes_per_point = total_bytes_per_point;
        term.share = volume[k] / total_bytes_per_point;
        term.oversubscription = weighted_o[k] / volume[k];
        term.hit_rate = capacity_hit_rate(*curve, term.oversubscription);
        term.source = curve->c.source;
        const auto source = machine.sources.find(term.source);
        const FitProvenance* fitted =
            source != machine.sources.end() && source->second.fit ? &*source->second.fit : nullptr;
        if (!fitted) {
            if (term.hit_rate < transition_low || term.hit_rate > transition_high)
                continue;
        } else {
            const auto range =
                fitted->oversubscription_ranges.find(std::string(capacity_fit_name(kind)));
            if (range == fitted->oversubscription_ranges.end() ||
                term.oversubscription <= extrapolation_margin * range->second[1] ||
                term.hit_rate < transition_low)
                continue; // covered by its samples, their range is not recorded, or all miss
            term.largest_fitted_oversubscription = range->second[1];
        }
        uncovered.push_back(term);
    }
    std::sort(uncovered.begin(), uncovered.end(), [](const auto& a, const auto& b) {
        return a.volume_bytes_per_point > b.volume_bytes_per_point;
    });
    return uncovered;
}

std::string uncovered_capacity_note(std::string_view metric, const UncoveredCapacityTerm& term,
                                    const std::string& machine_id) {
    const std::string what = fmt::format(
        "{}: {} terms of {:.2f} B/point at O = {:.2f} hit {:.0f} % ({:.2f} of the {:.2f} B/point "
        "total miss); ",
        metric, capacity_fit_name(term.fit), term.volume_bytes_per_point, term.oversubscription,
        100 * term.hit_rate, term.volume_bytes_per_point * (1 - term.hit_rate),
        term.total_bytes_per_point);
    if (term.largest_fitted_oversubscription)
        return what + fmt::format("that O lies beyond the largest its fit ({}) saw, {:.2f}: the "
                                  "curve is extrapolated, so this part of the forecast is "
                                  "uncertain",
                                  term.source, *term.largest_fitted_oversubscription);
    return what + fmt::format("that hit rate lies in the transition of a curve no measurement of "
                              "{} places (source {}), so this part of the forecast is uncertain "
                              "(docs/volume-model.md)",
                              machine_id, term.source);
}

} // namespace kerncast::models
