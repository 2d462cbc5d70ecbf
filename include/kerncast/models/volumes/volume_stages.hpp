// Which mechanisms of the volume model run on a machine, and the machine values each one
// uses (docs/volume-model.md). One function decides it from the machine file; predict_volumes
// follows the plan and `kerncast predict --explain` prints it, so what a forecast on a given
// machine is made of can be read without the code. Kernel-dependent fallbacks (a kernel
// without a static request order keeps the L1 fit, a thread in a loop has no load window)
// are the prediction's notes, not the plan's.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace kerncast::models {

struct StageParameter {
    std::string name;   // the machine-file path, e.g. "memory.l1.ways"
    std::string value;  // with its unit
    std::string source; // the machine's source key, "" when the value has none
};

struct VolumeStage {
    std::string name;    // e.g. "l1_simulation"
    std::string section; // where docs/volume-model.md specifies it
    bool runs = false;
    std::string instead; // when it does not run: why, and what takes its place
    std::vector<StageParameter> parameters;
};

struct VolumeStagePlan {
    // The decisions predict_volumes reads.
    bool simulated_l1 = false;       // l1 ways: the simulated L1, else the l1_redundant_loads fit
    bool miss_pass = false;          // shared_memory_banks.miss_pass "after_hits" (needs the above)
    bool l2_redundant_loads = false; // capacity_fits.l2_redundant_loads, else they hit
    bool launch_limit = false;       // compute.block_launches_per_cycle
    bool dram_mixed_bandwidth = false;
    bool l2_mixed_bandwidth = false;
    bool dram_in_flight = false;     // dram bandwidth_by_loads_in_flight
    bool block_retirement = false;   // compute.warp_duration_cv (with dram_in_flight)
    bool load_window = false;        // compute.load_window_reserved_registers (with dram_in_flight)
    std::vector<VolumeStage> stages; // in the order predict_volumes runs them

    // The stage named `name`; internal error when there is none.
    const VolumeStage& stage(std::string_view name) const;
};

// The plan for `machine`, with each stage's description. Input error (as check_volume_machine)
// when the machine lacks what the model needs whatever runs.
VolumeStagePlan plan_volume_stages(const MachineModel& machine);

// The decisions alone (`stages` empty), for a machine check_volume_machine accepted: what
// predict_volumes reads on every prediction, without formatting the descriptions.
VolumeStagePlan volume_stage_decisions(const MachineModel& machine);

} // namespace kerncast::models
