// Hong & Kim 2009 MWP-CWP model. Equation numbers refer to the ISCA 2009 paper
// (../shared/papers/001, sec. 3); docs/mwp-cwp.md says how edge cases are handled.
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace kerncast::models {

std::string equation_number(ExecutionCase c) {
    switch (c) {
    case ExecutionCase::not_enough_warps:
        return "22";
    case ExecutionCase::memory_bound:
        return "23";
    case ExecutionCase::compute_bound:
        return "24";
    }
    return "?";
}

namespace {

std::string machine_label(const MachineModel& machine) {
    return !machine.identity.id.empty()     ? machine.identity.id
           : !machine.identity.name.empty() ? machine.identity.name
                                            : "(unnamed)";
}

template <class T>
UsedParameter use(const MachineModel& machine, const Known<T>& field, const std::string& path) {
    if (!field)
        throw_input_error(fmt::format("machine '{}' lacks {}, which the MWP-CWP model needs",
                                      machine_label(machine), path),
                          {}, {"add it to the machine file; kerncast never assumes a value"});
    if (!(static_cast<double>(field->value) > 0))
        throw_input_error(fmt::format("machine '{}' has {} = {}; the MWP-CWP model needs a "
                                      "positive value",
                                      machine_label(machine), path, field->value));
    return {static_cast<double>(field->value), path, field->source};
}

} // namespace

MwpCwpMachineParameters mwp_cwp_machine_parameters(const MachineModel& machine) {
    MwpCwpMachineParameters p;
    const auto& c = machine.compute;
    p.sm_count = use(machine, c.sm_count, "compute.sm_count");
    p.warp_size = use(machine, c.warp_size, "compute.warp_size");
    // Freq: the clock the SM runs at under load; the boost clock where the machine has one.
    p.clock_mhz = c.boost_clock_mhz ? use(machine, c.boost_clock_mhz, "compute.boost_clock_mhz")
                                    : use(machine, c.base_clock_mhz, "compute.base_clock_mhz");
    // Mem_Bandwidth: what the DRAM delivers; the sustained value where the machine has one.
    const auto dram = std::find_if(machine.memory.begin(), machine.memory.end(),
                                   [](const MemoryLevel& level) { return level.name == "dram"; });
    if (dram == machine.memory.end())
        throw_input_error(fmt::format("machine '{}' has no memory level named \"dram\", whose "
                                      "bandwidth the MWP-CWP model needs",
                                      machine_label(machine)));
    p.mem_bandwidth_gbs =
        dram->sustained_bandwidth_gbs
            ? use(machine, dram->sustained_bandwidth_gbs, "memory.dram.sustained_bandwidth_gbs")
            : use(machine, dram->peak_bandwidth_gbs, "memory.dram.peak_bandwidth_gbs");
    const auto& m = machine.mwp_cwp;
    p.mem_ld_cycles = use(machine, m.mem_ld_cycles, "mwp_cwp.mem_ld_cycles");
    p.departure_del_uncoal =
        use(machine, m.departure_del_uncoal_cycles, "mwp_cwp.departure_del_uncoal_cycles");
    p.departure_del_coal =
        use(machine, m.departure_del_coal_cycles, "mwp_cwp.departure_del_coal_cycles");
    p.issue_cycles = use(machine, m.issue_cycles, "mwp_cwp.issue_cycles");
    return p;
}

namespace {

// Blocks and warps per SM, #Active_SMs (sec. 3.4.1; Table 1 rows 10-12).
void schedule_blocks(const Workload& w, const MachineModel& machine, MwpCwpResult& r) {
    const int sm_count = static_cast<int>(r.machine.sm_count.value);
    const int warp_size = static_cast<int>(r.machine.warp_size.value);
    const auto& c = machine.compute;
    if (c.max_threads_per_block && w.threads_per_block > c.max_threads_per_block->value)
        throw_input_error(fmt::format("the workload's {} threads per block exceed the maximum "
                                      "of {} of machine '{}'",
                                      w.threads_per_block, c.max_threads_per_block->value,
                                      machine_label(machine)),
                          {{}, 0, 0, "/threads_per_block", {}});
    r.warps_per_block =
        static_cast<int>((std::int64_t{w.threads_per_block} + warp_size - 1) / warp_size);

    if (w.registers_per_thread && w.shared_memory_per_block_bytes)
        r.occupancy = compute_occupancy(
            {w.threads_per_block, *w.registers_per_thread, *w.shared_memory_per_block_bytes},
            machine);
    r.active_blocks_per_sm_from_workload = w.active_blocks_per_sm.has_value();
    if (w.active_blocks_per_sm) {
        r.active_blocks_per_sm_limit = *w.active_blocks_per_sm;
    } else {
        KERNCAST_CHECK(r.occupancy.has_value(), "the workload parser requires the resources");
        r.active_blocks_per_sm_limit = r.occupancy->active_blocks_per_sm;
    }

    r.active_sms_from_workload = w.active_sms.has_value();
    if (w.active_sms) {
        if (*w.active_sms > sm_count)
            throw_input_error(fmt::format("the workload's active_sms ({}) exceeds the {} SMs of "
                                          "machine '{}'",
                                          *w.active_sms, sm_count, machine_label(machine)),
                              {{}, 0, 0, "/active_sms", {}});
        r.active_sms = *w.active_sms;
    } else {
        // The block scheduler spreads blocks over all SMs; fewer blocks than SMs leave some idle.
        r.active_sms = static_cast<int>(std::min<std::int64_t>(sm_count, w.blocks));
    }
    // An SM holds no more blocks than the launch gives it.
    const std::int64_t blocks_per_active_sm = (w.blocks + r.active_sms - 1) / r.active_sms;
    r.active_blocks_per_sm = static_cast<int>(
        std::min<std::int64_t>(r.active_blocks_per_sm_limit, blocks_per_active_sm));
    // N, eq. (20) and Table 1 row 12; an override must not exceed what the machine allows.
    const std::int64_t warps = std::int64_t{r.active_blocks_per_sm} * r.warps_per_block;
    const SourceLocation at_override{{}, 0, 0, "/active_blocks_per_sm", {}};
    if (r.active_blocks_per_sm_from_workload && c.max_blocks_per_sm &&
        r.active_blocks_per_sm > c.max_blocks_per_sm->value)
        throw_input_error(fmt::format("the workload's {} active blocks per SM exceed the "
                                      "maximum of {} of machine '{}'",
                                      r.active_blocks_per_sm, c.max_blocks_per_sm->value,
                                      machine_label(machine)),
                          at_override);
    if (r.active_blocks_per_sm_from_workload && c.max_warps_per_sm &&
        warps > c.max_warps_per_sm->value)
        throw_input_error(fmt::format("the workload's {} active blocks per SM of {} warps are "
                                      "{} warps, more than the {} an SM of machine '{}' holds",
                                      r.active_blocks_per_sm, r.warps_per_block, warps,
                                      c.max_warps_per_sm->value, machine_label(machine)),
                          at_override);
    if (warps > std::numeric_limits<int>::max())
        throw_input_error(fmt::format("{} active warps per SM is out of range", warps),
                          at_override);
    r.active_warps_per_sm = static_cast<int>(warps);
}

double round_to_hundredths(double value) {
    return std::round(value * 100.0) / 100.0;
}

} // namespace

MwpCwpResult predict_mwp_cwp(const Workload& w, const MachineModel& machine,
                             const MwpCwpOptions& options) {
    MwpCwpResult r;
    r.workload = w;
    r.options = options;
    r.machine = mwp_cwp_machine_parameters(machine);
    r.machine_label = machine_label(machine);
    schedule_blocks(w, machine, r);
    const auto& p = r.machine;
    const double n = r.active_warps_per_sm;
    const double mem_insts = w.mem_insts();
    const bool has_memory = mem_insts > 0;

    // Memory latency of one memory warp.
    r.mem_l_uncoal_cycles =
        p.mem_ld_cycles.value + (w.uncoal_per_mw - 1) * p.departure_del_uncoal.value; // (10)
    r.mem_l_coal_cycles = p.mem_ld_cycles.value;                                      // (11)
    if (has_memory) {
        r.weight_uncoal = w.uncoal_mem_insts / mem_insts; // (13)
        r.weight_coal = w.coal_mem_insts / mem_insts;     // (14)
    }
    r.mem_l_cycles =
        r.mem_l_uncoal_cycles * r.weight_uncoal + r.mem_l_coal_cycles * r.weight_coal; // (12)
    r.departure_delay_cycles = p.departure_del_uncoal.value * w.uncoal_per_mw * r.weight_uncoal +
                               p.departure_del_coal.value * r.weight_coal; // (15)

    // Computation and memory cycles per warp, CWP.
    r.mem_cycles =
        r.mem_l_uncoal_cycles * w.uncoal_mem_insts + r.mem_l_coal_cycles * w.coal_mem_insts; // (18)
    r.comp_cycles = p.issue_cycles.value * w.total_insts();                                  // (19)
    KERNCAST_CHECK(r.comp_cycles > 0, "the workload parser rejects kernels without instructions");
    r.cwp_full = (r.mem_cycles + r.comp_cycles) / r.comp_cycles; // (8)
    r.cwp = std::min(r.cwp_full, n);                             // (9)

    // #Rep: waves of active blocks each SM runs.
    r.rep = static_cast<double>(w.blocks) /
            (static_cast<double>(r.active_blocks_per_sm) * r.active_sms); // (21)
    if (options.rep_ceiling)
        r.rep = std::ceil(r.rep);

    if (!has_memory) {
        // Nothing to overlap: the warps' computation runs back to back, (24) with Mem_L = 0.
        r.execution_case = ExecutionCase::compute_bound;
        r.case_reason = "no memory instructions: (24) with Mem_L = 0, computation only";
        r.exec_cycles_app = (r.mem_l_cycles + r.comp_cycles * n) * r.rep; // (24)
    } else {
        // MWP: memory warps one SM can have in flight.
        r.mwp_without_bw_full = r.mem_l_cycles / r.departure_delay_cycles; // (16)
        r.mwp_without_bw = std::min(*r.mwp_without_bw_full, n);            // (17)
        // Freq in GHz x bytes / cycles = GB/s, the unit Table 2 prints (0.175 GB/s).
        const double freq_ghz = p.clock_mhz.value / 1000.0;
        r.bw_per_warp_gbs = freq_ghz * w.load_bytes_per_warp / r.mem_l_cycles;           // (7)
        r.mwp_peak_bw = p.mem_bandwidth_gbs.value / (*r.bw_per_warp_gbs * r.active_sms); // (6)
        r.mwp = std::min({*r.mwp_without_bw, *r.mwp_peak_bw, n});                        // (5)
        // Paper rounding never rounds to 0, which (23) divides by.
        r.mwp_used = options.paper_rounding ? std::max(0.01, round_to_hundredths(*r.mwp)) : *r.mwp;

        const double mwp = *r.mwp;
        const double mwp_used = *r.mwp_used;
        const double comp_period = r.comp_cycles / mem_insts; // (2): Comp_p
        // The paper's case conditions, tested in its order on the exact MWP.
        if (mwp == n && r.cwp == n) {
            r.execution_case = ExecutionCase::not_enough_warps;
            r.case_reason = fmt::format("MWP = CWP = N = {}: too few warps to hide any latency", n);
            r.exec_cycles_app =
                (r.mem_cycles + r.comp_cycles + comp_period * (mwp_used - 1)) * r.rep; // (22)
        } else if (r.cwp >= mwp || r.comp_cycles > r.mem_cycles) {
            r.execution_case = ExecutionCase::memory_bound;
            r.case_reason =
                r.cwp >= mwp ? fmt::format("CWP ({:.6g}) >= MWP ({:.6g}): memory waiting dominates",
                                           r.cwp, mwp)
                             : fmt::format("Comp_cycles ({:.6g}) > Mem_cycles ({:.6g})",
                                           r.comp_cycles, r.mem_cycles);
            r.exec_cycles_app =
                (r.mem_cycles * n / mwp_used + comp_period * (mwp_used - 1)) * r.rep; // (23)
        } else {
            r.execution_case = ExecutionCase::compute_bound;
            r.case_reason = fmt::format(
                "MWP ({:.6g}) > CWP ({:.6g}): computation dominates, memory is hidden", mwp, r.cwp);
            r.exec_cycles_app = (r.mem_l_cycles + r.comp_cycles * n) * r.rep; // (24)
        }
    }

    // Synchronisation (sec. 3.4.6): each barrier costs Departure_delay x (MWP - 1) per block.
    if (has_memory) {
        r.mwp_in_synch = *r.mwp_used;
        if (options.synch_bounded_by_block_warps)
            r.mwp_in_synch = std::min(r.mwp_in_synch, static_cast<double>(r.warps_per_block));
    }
    r.synch_cost_cycles = has_memory ? r.departure_delay_cycles * (r.mwp_in_synch - 1) *
                                           w.synch_insts * r.active_blocks_per_sm * r.rep
                                     : 0;                               // (26)
    r.exec_cycles_with_synch = r.exec_cycles_app + r.synch_cost_cycles; // (27)

    // (25): cycles per warp instruction, per SM.
    r.cpi = r.exec_cycles_app / (w.total_insts() * (w.threads_per_block / p.warp_size.value) *
                                 (static_cast<double>(w.blocks) / r.active_sms));
    r.time_seconds = r.exec_cycles_with_synch / (p.clock_mhz.value * 1e6);

    if (!std::isfinite(r.exec_cycles_with_synch) || !std::isfinite(r.cpi))
        throw_input_error("the workload's counts are too large: the prediction overflows");
    if (has_memory && *r.mwp_used < 1)
        r.warnings.push_back(fmt::format(
            "MWP = {:.6g} < 1 (bandwidth-starved): (MWP - 1) is negative in (22), (23) and (26), "
            "a case the paper does not discuss; treat the prediction with suspicion",
            *r.mwp_used));
    return r;
}

} // namespace kerncast::models
