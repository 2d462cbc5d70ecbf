// Table 1 of Dong & Pai from current Nsight Compute metrics: the counters of one profiled
// launch turned into the utilization model's input. docs/atomics.md, "Counters".
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/atomics/utilization.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

// The ncu metrics (full names with roll-up) of each quantity; the first of a list that the
// launch has is used.
struct AtomicMetricNames {
    static constexpr const char* jobs = "smsp__inst_executed_op_shared_atom.sum";
    static constexpr const char* cas_jobs = "smsp__inst_executed_op_shared_atom_dot_cas.sum";
    static constexpr const char* alu_jobs = "smsp__inst_executed_op_shared_atom_dot_alu.sum";
    static constexpr const char* operations =
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum";
    static constexpr const char* active_cycles_sum = "sm__cycles_active.sum";
    static constexpr const char* active_cycles_avg = "sm__cycles_active.avg";
    static constexpr const char* warps_per_cycle = "sm__warps_active.avg.per_cycle_active";
    static constexpr const char* occupancy_percent =
        "sm__warps_active.avg.pct_of_peak_sustained_active";
    static constexpr const char* sm_count = "device__attribute_multiprocessor_count";
};

// The metric list `ncu --metrics` needs for the model (what `atomics --run` asks for).
std::vector<std::string> atomic_model_metrics();

// One launch's counters, the values read and the input they give (one aggregate SM: ncu
// reports these counters only as sums/averages over SMs, Dong & Pai sec. 3.3).
struct AtomicCounterReading {
    double jobs = 0;              // N over all SMs
    double cas_jobs = 0;          // N_c over all SMs
    double operations = 0;        // O: shared-atomic wavefronts over all SMs
    double active_cycles_sum = 0; // sum_i T^(i)
    double average_warps = 0;     // n^
    int sm_count = 0;
    std::string sm_count_from;      // the metric or machine field it came from
    std::string average_warps_from; // the metric (and machine field) it came from
    std::string active_cycles_from;
    AtomicUtilizationInput input; // one "average SM"
};

// Reads Table 1's quantities from one launch's metrics. Input Error naming the metric (and
// `origin`, e.g. the CSV file and launch) when a required one is missing or negative; the
// machine supplies the SM count and max warps per SM when the CSV lacks them.
AtomicCounterReading read_atomic_counters(const std::map<std::string, runtime::NamedValue>& metrics,
                                          const MachineModel& machine, const std::string& operation,
                                          const std::string& origin);

} // namespace kerncast::models::atomics
