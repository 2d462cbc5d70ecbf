// Cache-aware MWP-CWP (cache_aware.hpp; docs/mwp-cwp.md, "Cache-aware MWP-CWP").
#include "kerncast/models/mwp_cwp/cache_aware.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace kerncast::models::mwp_cwp {

std::string to_string(Variant variant) {
    return variant == Variant::classic ? "classic" : "cache-aware";
}

Variant parse_variant(const std::string& text, const std::string& option) {
    if (text == "classic")
        return Variant::classic;
    if (text == "cache-aware")
        return Variant::cache_aware;
    throw_usage_error(
        fmt::format("{}: '{}' is not a variant; use classic or cache-aware", option, text));
}

namespace {

// The departure delays never vanish: a kernel whose loads all hit L1 still issues them.
constexpr double min_departure_scale = 1e-3;

const MemoryLevel& require_level(const MachineModel& m, const std::string& name) {
    const MemoryLevel* level = m.level(name);
    if (!level)
        throw_input_error(fmt::format("machine '{}' has no memory level {}, which the "
                                      "cache-aware MWP-CWP model needs",
                                      m.identity.id, name));
    return *level;
}

// Hit latency of a level: the mean of the near and far partitions of a partitioned L2 (half
// of the sectors are in each), else its latency_cycles.
std::pair<double, std::string> hit_latency(const MachineModel& m, const MemoryLevel& level) {
    if (level.latency_near_cycles && level.latency_far_cycles)
        return {(level.latency_near_cycles->value + level.latency_far_cycles->value) / 2,
                fmt::format("memory.{}.latency_near_cycles/latency_far_cycles (mean)", level.name)};
    if (!level.latency_cycles)
        throw_input_error(fmt::format("machine '{}' lacks memory.{}.latency_cycles, which the "
                                      "cache-aware MWP-CWP model needs",
                                      m.identity.id, level.name),
                          {}, {"add it to the machine file; kerncast never assumes a value"});
    return {level.latency_cycles->value, fmt::format("memory.{}.latency_cycles", level.name)};
}

double bandwidth_of(const MemoryLevel& level) {
    return level.sustained_bandwidth_gbs ? level.sustained_bandwidth_gbs->value
           : level.peak_bandwidth_gbs    ? level.peak_bandwidth_gbs->value
                                         : 0;
}

} // namespace

CacheAwareResult predict_cache_aware(const DerivedWorkload& d, const VolumePrediction& v,
                                     const MachineModel& machine, const MwpCwpOptions& options) {
    if (!machine.mwp_cwp.mem_ld_cycles)
        throw_input_error(fmt::format("machine '{}' lacks mwp_cwp.mem_ld_cycles, which the "
                                      "MWP-CWP model needs",
                                      machine.identity.id),
                          {}, {"add it to the machine file; kerncast never assumes a value"});
    CacheAwareResult r;
    const double requested = v.l1.load_request_bytes_per_point;
    const double from_l2 = v.l2_load_bytes, from_dram = v.dram_load_bytes;
    // Shares of the requested load bytes served by each level (Sim et al. 2012's miss ratios).
    double f_dram = 1, f_l2 = 0;
    if (requested > 0) {
        f_dram = std::clamp(from_dram / requested, 0.0, 1.0);
        f_l2 = std::clamp((from_l2 - from_dram) / requested, 0.0, 1.0 - f_dram);
    }
    const double f_l1 = std::max(0.0, 1.0 - f_l2 - f_dram);

    const MemoryLevel& l1 = require_level(machine, "l1");
    const MemoryLevel& l2 = require_level(machine, "l2");
    const MemoryLevel& dram = require_level(machine, "dram");
    const double warp_size = machine.compute.warp_size ? machine.compute.warp_size->value : 32;
    const double mem_insts = d.workload.mem_insts();
    auto per_warp_inst = [&](double bytes_per_point) {
        return mem_insts > 0 ? bytes_per_point * static_cast<double>(d.points_per_thread) *
                                   warp_size / mem_insts
                             : 0;
    };
    auto add = [&](const MemoryLevel& level, double fraction, std::pair<double, std::string> lat,
                   double bytes_per_point) {
        LevelShare s;
        s.level = level.name;
        s.load_fraction = fraction;
        s.latency_cycles = lat.first;
        s.latency_field = lat.second;
        s.bytes_per_point = bytes_per_point;
        s.bytes_per_warp_inst = per_warp_inst(bytes_per_point);
        s.bandwidth_gbs = bandwidth_of(level);
        if (s.bandwidth_gbs > 0 && s.bytes_per_warp_inst > 0)
            s.equivalent_bandwidth_gbs =
                s.bandwidth_gbs * d.workload.load_bytes_per_warp / s.bytes_per_warp_inst;
        r.levels.push_back(s);
    };
    const auto no_latency = std::pair<double, std::string>{0, ""};
    add(l1, f_l1, f_l1 > 0 ? hit_latency(machine, l1) : no_latency, requested + v.l2_store_bytes);
    add(l2, f_l2, f_l2 > 0 ? hit_latency(machine, l2) : no_latency,
        v.l2_load_bytes + v.l2_store_bytes);
    add(dram, f_dram, {machine.mwp_cwp.mem_ld_cycles->value, "mwp_cwp.mem_ld_cycles"},
        v.dram_load_bytes + v.dram_store_bytes);

    // Average memory latency: sum over levels of share x latency (Sim et al. 2012, AMAT).
    for (const auto& s : r.levels)
        r.average_latency_cycles += s.load_fraction * s.latency_cycles;
    // The bandwidth bound of (6) over every level: the smallest equivalent bandwidth.
    r.mem_bandwidth_gbs = std::numeric_limits<double>::infinity();
    for (const auto& s : r.levels)
        if (s.equivalent_bandwidth_gbs > 0 && s.equivalent_bandwidth_gbs < r.mem_bandwidth_gbs) {
            r.mem_bandwidth_gbs = s.equivalent_bandwidth_gbs;
            r.binding_level = s.level;
        }
    if (r.binding_level.empty()) {
        r.mem_bandwidth_gbs = bandwidth_of(dram);
        r.binding_level = "dram";
    }

    // Hong & Kim's equations with Mem_LD and Mem_Bandwidth replaced.
    MachineModel effective = machine;
    effective.sources["cache-aware"] = {
        SourceKind::derived,
        "cache-aware MWP-CWP: Mem_LD = the average latency over L1, L2 and DRAM from the volume "
        "model's traffic; Mem_Bandwidth = the tightest level bandwidth (docs/mwp-cwp.md)",
        ""};
    effective.mwp_cwp.mem_ld_cycles = Sourced<double>{r.average_latency_cycles, "cache-aware"};
    for (auto& level : effective.memory)
        if (level.name == "dram")
            level.sustained_bandwidth_gbs = Sourced<double>{r.mem_bandwidth_gbs, "cache-aware"};
    // Only requests that miss L1 leave the SM and queue behind each other (Fig. 10's departure
    // delays): the delays scale with the share of the loads L1 does not serve.
    r.departure_scale = std::max(min_departure_scale, 1.0 - r.levels.front().load_fraction);
    auto& m = effective.mwp_cwp;
    if (m.departure_del_coal_cycles)
        m.departure_del_coal_cycles->value *= r.departure_scale;
    if (m.departure_del_uncoal_cycles)
        m.departure_del_uncoal_cycles->value *= r.departure_scale;
    r.model = predict_mwp_cwp(d.workload, effective, options);
    return r;
}

} // namespace kerncast::models::mwp_cwp
