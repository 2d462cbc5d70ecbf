// The words of a volume forecast's notes (volume_notes.hpp).
#include "kerncast/models/volumes/volume_notes.hpp"

#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/volumes/capacity_coverage.hpp"

#include <cmath>
#include <fmt/format.h>

namespace kerncast::models {

namespace {

// Where the L1 capacity misses and the loads' L1 cycles came from.
void l1_notes(const L1MissAssumption& l1, std::vector<std::string>& notes) {
    switch (l1.source) {
    case L1MissSource::capacity_fit:
        if (l1.miss_pass_requested)
            notes.push_back("shared_memory_banks.miss_pass \"after_hits\" is not applied: it "
                            "needs the simulated L1 (memory level l1, ways).");
        break;
    case L1MissSource::capacity_fit_instead:
        notes.push_back("L1 capacity misses come from the l1_redundant_loads fit (eq. 5), not "
                        "the simulated L1: " +
                        l1.simulation_refused + "." +
                        (l1.miss_pass_requested
                             ? " Nor do the loads' L1 cycles (shared_memory_banks.miss_pass): "
                               "the bank rule alone counts them."
                             : ""));
        break;
    case L1MissSource::simulation:
        notes.push_back(fmt::format("L1 capacity misses come from a simulation of one SM's L1 ({} "
                                    "lines of {} B in sets of {}, LRU; docs/volume-model.md), not "
                                    "the l1_redundant_loads fit.",
                                    l1.lines, l1.line_bytes, l1.ways));
        break;
    }
    if (l1.miss_pass_fill_cycles)
        notes.push_back(fmt::format(
            "Global loads whose lines miss L1 or are still being filled serve those lanes in a "
            "pass of their own (shared_memory_banks.miss_pass \"after_hits\"; a fill takes the L2 "
            "latency, {} cycles): their L1 cycles come from the simulated L1.",
            std::lround(*l1.miss_pass_fill_cycles)));
}

// "{threads} resident threads an SM x {running} x {points} point(s)".
std::string in_flight_threads(const DramLoadsInFlight& f) {
    const std::string running =
        f.warp_duration_cv
            ? fmt::format("{:.3f} of them running (a block's {} warps end apart, durations "
                          "varying by {:.1f} %, and its slots free when the last ends: "
                          "compute.warp_duration_cv)",
                          f.running_fraction, f.warps_per_block, 100 * *f.warp_duration_cv)
            : std::string("all of them running (the machine gives no compute.warp_duration_cv)");
    return fmt::format("{:.0f} resident threads an SM x {} x {:.0f} point(s)", f.resident_threads,
                       running, f.points_per_thread);
}

// "{at once} x {bytes} B of DRAM loads a point" for one phase's loads.
std::string in_flight_loads(const DramLoadsInFlight& f, const DramLoadPhase& phase) {
    std::string at_once;
    switch (f.no_window) {
    case NoLoadWindow::none:
        at_once = fmt::format("{:.3f} of the {:.0f} loads a thread at once (its {} registers hold "
                              "a window of {} {}-byte values: ({} - {}) / {})",
                              phase.window_fraction, phase.loads_per_thread, f.registers_per_thread,
                              f.window.value_or(0), f.value_bytes, f.registers_per_thread,
                              f.reserved_registers, f.registers_per_value);
        break;
    case NoLoadWindow::sequential_loop:
        at_once = "all the loads a thread at once (its loads run in a sequential loop: no window)";
        break;
    case NoLoadWindow::no_reserve:
        at_once = "all the loads a thread at once (the machine gives no "
                  "compute.load_window_reserved_registers: no window)";
        break;
    case NoLoadWindow::registers_unknown:
        at_once = "all the loads a thread at once (registers unknown: no window; --registers "
                  "N|auto or registers_per_thread in the kernel file)";
        break;
    }
    return fmt::format("{} x {:.2f} B of DRAM loads a point", at_once,
                       phase.dram_load_bytes_per_point);
}

// ", source {key}, which `kerncast machine show` cites ..." where the machine names one.
std::string in_flight_source(const DramLoadsInFlight& f) {
    return f.table_source.empty()
               ? ""
               : ", source " + f.table_source +
                     ", which `kerncast machine show` cites with how it was measured";
}

// The in-flight limiter's note: one phase's loads, or each barrier phase's and their sum.
std::string in_flight_note(const DramLoadsInFlight& f, const LimiterResult& limiter) {
    const char* repeated =
        f.barrier_in_loop ? " A barrier in a sequential loop repeats its phases every iteration; "
                            "a phase's loads are counted over all the iterations at once, so "
                            "where this limit binds the forecast may be too fast."
                          : "";
    if (f.phases.size() == 1)
        return fmt::format(
            "DRAM in flight: {} x {} = {:.1f} KiB of loads in flight an SM reach "
            "{:.0f} GB/s at the latency under that load (interpolated in the "
            "dram level's bandwidth_by_loads_in_flight{}).{}",
            in_flight_threads(f), in_flight_loads(f, f.phases[0]), f.phases[0].bytes_per_sm / 1024,
            limiter.dram_in_flight_bandwidth_bytes_per_s / 1e9, in_flight_source(f), repeated);
    std::string phases;
    for (size_t k = 0; k < f.phases.size(); ++k) {
        const DramLoadPhase& phase = f.phases[k];
        std::string arrays;
        for (const std::string& array : phase.arrays)
            arrays += (arrays.empty() ? "" : ", ") + array;
        phases += fmt::format("{}phase {} ({}): {} = {:.1f} KiB, {:.0f} GB/s", k == 0 ? "" : "; ",
                              k + 1, arrays.empty() ? "no loads" : arrays,
                              in_flight_loads(f, phase), phase.bytes_per_sm / 1024,
                              k < limiter.dram_in_flight_phase_bytes_per_s.size()
                                  ? limiter.dram_in_flight_phase_bytes_per_s[k] / 1e9
                                  : 0.0);
    }
    return fmt::format(
        "DRAM in flight, in {} barrier phases (a thread issues no load after a barrier before "
        "its block has reached it, so each phase's loads are in flight on their own, and its "
        "DRAM bytes move at the bandwidth they reach): {} x the phase's loads, {}. Over the kernel "
        "{:.0f} GB/s at "
        "the latencies under those loads (interpolated in the dram level's "
        "bandwidth_by_loads_in_flight{}).{}",
        f.phases.size(), in_flight_threads(f), phases,
        limiter.dram_in_flight_bandwidth_bytes_per_s / 1e9, in_flight_source(f), repeated);
}

// The limiters' side: an under-filled grid, the loads in flight, mixed bandwidths, block starts.
void limiter_notes(const VolumePrediction& p, std::vector<std::string>& notes) {
    const VolumeAssumptions& a = p.assumptions;
    if (p.placement.under_filled)
        notes.push_back(fmt::format(
            "The grid's {} blocks fill less than one wave ({} blocks per SM x {} SMs): the "
            "busiest SM holds {}, so the L1, FP and in-flight limiters count {:.1f} busy SMs. "
            "The DRAM and L2 limiters still divide by the whole GPU's bandwidth, which so few "
            "SMs may not reach: the throughput is an upper bound.",
            p.blocks, p.placement.occupancy.active_blocks_per_sm, a.machine_sms,
            p.placement.resident_blocks_per_sm, p.placement.busy_sms));
    if (p.limiter.dram_in_flight_bandwidth_bytes_per_s > 0 && !a.dram_in_flight.phases.empty())
        notes.push_back(in_flight_note(a.dram_in_flight, p.limiter));
    for (const MixedBandwidthUse& n : a.mixed_bandwidths)
        notes.push_back(fmt::format(
            "{} bandwidth {:.0f} GB/s for this kernel's mix ({:.2f} of its {} are stores), "
            "interpolated in the {} level's mixed_bandwidth_by_store_fraction "
            "(without the list the limit divides by sustained_bandwidth_gbs, {:.0f} GB/s).",
            n.limiter, n.bandwidth_bytes_per_s / 1e9, n.store_fraction, n.bytes, n.level,
            n.sustained_bytes_per_s / 1e9));
    if (p.fp.instance_cycles_per_point > 1.005 * p.fp.cycles_per_point)
        notes.push_back(fmt::format(
            "The fold's {} instances do the floating-point operations whose operands do not "
            "depend on their fold index once for all of them, as register-tiled code does (and "
            "kerncast's generated code where its fold fast path runs): {:.3f} issue cycles a "
            "point instead of {:.3f} (docs/kernel-format.md, What is counted).",
            p.launch.fold[0] * p.launch.fold[1] * p.launch.fold[2], p.fp.cycles_per_point,
            p.fp.instance_cycles_per_point));
    if (a.block_launch_rate_unknown)
        notes.push_back("The machine gives no block launch rate (compute.block_launches_per_cycle, "
                        "docs/machine-format.md): starting the thread blocks is assumed never "
                        "to limit.");
    if (a.dram_in_flight_unknown)
        notes.push_back("The machine's dram level gives no bandwidth_by_loads_in_flight "
                        "(docs/machine-format.md): the loads in flight are assumed never to "
                        "limit, so a launch of few resident threads or few loads each is "
                        "forecast at full DRAM bandwidth (docs/volume-model.md, DRAM in flight).");
}

} // namespace

std::vector<std::string> volume_notes(const VolumePrediction& p, const std::string& machine_id) {
    std::vector<std::string> notes;
    if (p.unmodelled_share >= large_unmodelled_share)
        notes.push_back(fmt::format("Unmodelled: {:.0f} % of the kernel's global accesses are "
                                    "outside the model (below); the forecast covers the rest only "
                                    "and may be far from the kernel's time.",
                                    100 * p.unmodelled_share));
    l1_notes(p.assumptions.l1, notes);
    for (const UnmodelledAccess& u : p.unmodelled)
        notes.push_back(fmt::format("'{}' ({}, {:.3g} executions a point): {}", u.access, u.kind,
                                    u.executions_per_point, u.left_out));
    notes.push_back(register_count_note(p.placement.registers));
    if (p.assumptions.l2_redundant_loads_assumed_hit)
        notes.push_back("The machine has no capacity_fits.l2_redundant_loads: redundant L2 "
                        "loads within a wave are assumed to hit (the paper's assumption).");
    if (p.placement.waves == 1)
        notes.push_back("The launch fits in one wave: no reuse from earlier blocks is possible.");
    for (const UncoveredMetricTerm& u : p.assumptions.uncovered)
        notes.push_back(uncovered_capacity_note(u.metric, u.term, machine_id));
    limiter_notes(p, notes);
    return notes;
}

} // namespace kerncast::models
