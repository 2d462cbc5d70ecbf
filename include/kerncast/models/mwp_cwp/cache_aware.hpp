// Cache-aware MWP-CWP: Hong & Kim 2009 name caches as their model's limitation (sec. 3.5); the
// volume model (Ernst et al. 2023) knows the traffic at every level. Mem_LD becomes the average
// memory latency over the levels that serve the loads (the AMAT form of Sim et al., PPoPP 2012,
// sec. 4.2), MWP_peak_BW (eq. 6) is bounded by the bandwidth of every level, not only DRAM, and
// the departure delays apply only to the requests that leave the SM (L1 misses).
// Pure; docs/mwp-cwp.md, "Cache-aware MWP-CWP", has the equations.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/derived_workload.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <string>
#include <vector>

namespace kerncast::models::mwp_cwp {

enum class Variant { classic, cache_aware };
std::string to_string(Variant variant); // "classic", "cache-aware"
Variant parse_variant(const std::string& text, const std::string& option); // usage Error

// One level that serves loads or bounds the bandwidth.
struct LevelShare {
    std::string level;              // "l1", "l2", "dram"
    double load_fraction = 0;       // share of the requested load bytes this level serves
    double latency_cycles = 0;      // its hit latency (DRAM: Mem_LD)
    std::string latency_field;      // machine field the latency came from
    double bytes_per_point = 0;     // traffic through the level (loads + stores), bytes per point
    double bytes_per_warp_inst = 0; // the same per warp memory instruction
    double bandwidth_gbs = 0;       // 0: the machine states none (the level does not bound)
    // Mem_Bandwidth this level allows in (6), scaled to Load_bytes_per_warp:
    // bandwidth x Load_bytes_per_warp / bytes_per_warp_inst (0 when it does not bound).
    double equivalent_bandwidth_gbs = 0;
};

struct CacheAwareResult {
    std::vector<LevelShare> levels;    // l1, l2, dram
    double average_latency_cycles = 0; // sum of load_fraction x latency: Mem_LD of (10), (11)
    double mem_bandwidth_gbs = 0;      // the smallest equivalent bandwidth: Mem_Bandwidth of (6)
    std::string binding_level;         // the level that gives it
    // Departure_del_coal and _uncoal are multiplied by the share of the loads that miss L1
    // (at least 0.001): only those requests leave the SM.
    double departure_scale = 1;
    MwpCwpResult model; // Hong & Kim's equations with those two inputs
};

// `volumes` is the volume model's prediction of the same launch; `workload` the derived one.
// Input Errors when the machine lacks a latency or the MWP-CWP parameters.
CacheAwareResult predict_cache_aware(const DerivedWorkload& workload,
                                     const VolumePrediction& volumes, const MachineModel& machine,
                                     const MwpCwpOptions& options = {});

} // namespace kerncast::models::mwp_cwp
