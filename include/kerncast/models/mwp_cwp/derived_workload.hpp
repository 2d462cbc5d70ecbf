// The MWP-CWP workload (Hong & Kim 2009, Table 1 rows 8-21) derived from a kernel file, a launch
// and a machine instead of written by hand: per-thread instruction counts from the exact counts
// of the kernel analysis (src/analysis) through a documented instruction mapping
// (docs/mwp-cwp.md, "Workloads from kernel files"), memory transactions per warp of every
// global access under the machine's coalescing rule, and the occupancy inputs. Pure.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/coalescing.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"
#include "kerncast/models/occupancy/register_count.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::models::mwp_cwp {

// Instruction classes of the mapping, each a count of warp instructions per thread (averaged
// over the launched threads: Hong & Kim's "dynamic number of instructions in one thread").
struct InstructionMix {
    double floating_point = 0;  // add, mul, div, cmp, min, max, special functions; an fma
                                // (the analysis' madd) is one instruction, not two
    double integer = 0;         // integer operations, the subscripts' index arithmetic included
    double address = 0;         // address formation: per memory access, one multiply-add per
                                // flattened dimension beyond the first and one base add
    double shared_memory = 0;   // ld.shared / st.shared (computation, Hong & Kim sec. 3.6)
    double constant_memory = 0; // ld.const (computation: cached, sec. 3.5)
    double barriers = 0;        // bar.sync (computation, Fig. 13 lines 8 and 13)
    double loop_control = 0;    // compare + branch per iteration of a loop that is not unrolled
    double thread_setup = 0;    // per thread once: thread and block indices, kernel arguments
    double global_loads = 0;    // ld.global (memory instructions)
    double global_stores = 0;   // st.global and global atomics (memory instructions)

    double computation() const {
        return floating_point + integer + address + shared_memory + constant_memory + barriers +
               loop_control + thread_setup;
    }
    double memory() const { return global_loads + global_stores; }
};

// One global-memory access of the kernel: its executions and its warps' transactions.
struct AccessTransactions {
    std::string text;      // the reference as written, e.g. "M[row, 16*iter + tx]"
    std::string direction; // "load", "store", "atomic"
    int element_bytes = 0;
    bool indirect = false;            // data-dependent address: counted as fully uncoalesced
    double per_thread = 0;            // executions per thread (average over launched threads)
    double transactions_per_warp = 0; // average over the sampled warps
    double sectors_per_warp = 0;      // distinct 32 B sectors, average
    double lines_per_warp = 0;        // distinct 128 B lines, average
    int warps_sampled = 0;            // the warps of block 0, first sequential/fold iteration
    bool coalesced = false;           // every sampled warp coalesced (Table 1 row 17)
};

// A sequential loop and what the mapping charged for it.
struct LoopControl {
    std::string index;
    double iterations_per_thread = 0; // all iterations, enclosing loops included
    bool unrolled = false;            // trip count independent of the parameters
    double control_per_thread = 0;    // setp + bra per iteration unless unrolled
};

struct DerivedWorkload {
    Workload workload; // what predict_mwp_cwp reads
    InstructionMix mix;
    std::vector<AccessTransactions> accesses;
    std::vector<LoopControl> loops;
    CoalescingRule rule = CoalescingRule::warp_sectors;
    std::int64_t points_per_thread = 1; // the fold: domain points one thread computes
    RegisterCount registers;            // what the occupancy calculation uses
    std::vector<std::string> notes;
};

struct DeriveOptions {
    RegisterCount registers; // per_thread 0: registers do not limit occupancy
};

// `analysis` must count index arithmetic (CountOptions::count_index_arithmetic); `bound` is it
// bound to its parameter values (analysis::bind). The machine gives the warp size and the
// coalescing rule (compute capability). Input Errors for a machine without them.
DerivedWorkload derive_workload(const analysis::KernelAnalysis& analysis,
                                const kernel::BoundKernel& bound, const MachineModel& machine,
                                const DeriveOptions& options = {});

} // namespace kerncast::models::mwp_cwp
