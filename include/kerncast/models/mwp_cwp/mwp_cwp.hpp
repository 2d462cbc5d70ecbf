// The MWP-CWP performance model of Hong & Kim, "An Analytical Model for a GPU Architecture
// with Memory-level and Thread-level Parallelism Awareness", ISCA 2009, equations (1)-(27).
// Pure: a Workload and a MachineModel in, every intermediate of the paper's Table 2 out.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"
#include "kerncast/models/occupancy/occupancy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

// Variants of the published model; all off by default (the model as the equations say).
struct MwpCwpOptions {
    // MWP rounded to two decimals, as Table 2 printed it, and carried through (22), (23) and
    // (26). Reproduces the paper's 50737.2 cycles (printed 50738) for Table 2.
    bool paper_rounding = false;
    // ceil(#Rep) in (21): a partly filled last wave of blocks costs a whole wave.
    bool rep_ceiling = false;
    // MWP replaced by min(MWP, warps per block) in (26): a barrier waits only for the warps of
    // its own block.
    bool synch_bounded_by_block_warps = false;
};

// Which of equations (22)-(24) gives Exec_cycles_app.
enum class ExecutionCase {
    not_enough_warps, // (22): MWP = N and CWP = N (sec. 3.2.3)
    memory_bound,     // (23): CWP >= MWP, or Comp_cycles > Mem_cycles (sec. 3.2.1)
    compute_bound,    // (24): MWP > CWP (sec. 3.2.2); also used without memory instructions
};

// "22", "23", "24".
std::string equation_number(ExecutionCase c);

// A machine value the model used and where it came from.
struct UsedParameter {
    double value = 0;
    std::string field;  // machine-file field, e.g. "compute.boost_clock_mhz"
    std::string source; // key into MachineModel::sources ("" when the machine gives none)
};

// The machine parameters of Table 1 (rows 1-7) as the model read them.
struct MwpCwpMachineParameters {
    UsedParameter sm_count;
    UsedParameter warp_size;            // #Threads_per_warp
    UsedParameter clock_mhz;            // Freq: boost clock if known, else base clock
    UsedParameter mem_bandwidth_gbs;    // Mem_Bandwidth: DRAM sustained if known, else peak
    UsedParameter mem_ld_cycles;        // Mem_LD
    UsedParameter departure_del_uncoal; // Departure_del_uncoal, cycles
    UsedParameter departure_del_coal;   // Departure_del_coal, cycles
    UsedParameter issue_cycles;         // Issue_cycles
};

// The machine's Table 1 parameters; an input Error names the first one it lacks (or that is not
// positive). predict_mwp_cwp reads them so.
MwpCwpMachineParameters mwp_cwp_machine_parameters(const MachineModel& machine);

struct MwpCwpResult {
    Workload workload; // the inputs, as given
    MwpCwpOptions options;
    std::string machine_label; // the machine's id (or name)
    MwpCwpMachineParameters machine;

    // Blocks and warps per SM (sec. 3.4.1, Table 1 rows 10-12).
    std::optional<OccupancyResult> occupancy; // when the workload gives registers and smem
    int warps_per_block = 0;                  // ceil(threads per block / warp size)
    int active_blocks_per_sm_limit = 0;       // the occupancy result, or the workload's override
    bool active_blocks_per_sm_from_workload = false;
    int active_sms = 0; // #Active_SMs: workload override, else min(SMs, #Blocks)
    bool active_sms_from_workload = false;
    int active_blocks_per_sm = 0; // #Active_blocks_per_SM: limit, at most ceil(#Blocks/#Active_SMs)
    int active_warps_per_sm = 0;  // N, eq. (20)

    // Memory latency (eqs. 10-15). Without memory instructions both weights, Mem_L and
    // Departure_delay are 0.
    double mem_l_uncoal_cycles = 0;    // (10)
    double mem_l_coal_cycles = 0;      // (11)
    double weight_uncoal = 0;          // (13)
    double weight_coal = 0;            // (14)
    double mem_l_cycles = 0;           // (12)
    double departure_delay_cycles = 0; // (15)

    // Memory warp parallelism (eqs. 5-7, 16, 17); nullopt without memory instructions.
    std::optional<double> mwp_without_bw_full; // (16)
    std::optional<double> mwp_without_bw;      // (17)
    std::optional<double> bw_per_warp_gbs;     // (7), GB/s (Freq in GHz)
    std::optional<double> mwp_peak_bw;         // (6)
    std::optional<double> mwp;                 // (5), exact
    std::optional<double> mwp_used;            // MWP in (22)/(23): rounded with paper_rounding

    // Computation warp parallelism (eqs. 8, 9, 18, 19).
    double comp_cycles = 0; // (19)
    double mem_cycles = 0;  // (18)
    double cwp_full = 0;    // (8)
    double cwp = 0;         // (9)

    double rep = 0; // #Rep, eq. (21), ceil'ed with rep_ceiling

    ExecutionCase execution_case = ExecutionCase::memory_bound;
    std::string case_reason;    // why that case applied, with the compared values
    double exec_cycles_app = 0; // (22), (23) or (24)

    double mwp_in_synch = 0;           // the MWP factor of (26) after options (0 without memory)
    double synch_cost_cycles = 0;      // (26)
    double exec_cycles_with_synch = 0; // (27)
    double cpi = 0;                    // (25), from Exec_cycles_app
    double time_seconds = 0;           // Exec_cycles_with_synch / Freq

    std::vector<std::string> warnings; // conditions outside what the paper covers
};

// Hong & Kim 2009, eqs. (1)-(27). Throws an input Error when the machine lacks a parameter
// (naming the machine and the field), when the workload needs the occupancy calculation but
// no block fits, or when a workload override contradicts the machine.
MwpCwpResult predict_mwp_cwp(const Workload& workload, const MachineModel& machine,
                             const MwpCwpOptions& options = {});

} // namespace kerncast::models
