// Utilization of the shared-memory atomic unit, Dong & Pai sec. 3.3, Table 2: per SM the jobs
// N = N_f + N_c, the queued CAS c = n^ N_c / N, the busy time B = N S(n^, e, c) and the
// utilization U = B / T. Pure; docs/atomics.md.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/atomics/service_time.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

// Table 1's per-SM quantities (or those of an aggregate such as the average SM).
struct SmAtomicCounts {
    std::string label;             // "SM 3", "average SM (132 SMs)", ...
    double fetch_and_op_warps = 0; // N_f: fetch-and-op warp-instructions (jobs)
    double cas_warps = 0;          // N_c: compare-and-swap warp-instructions
    double average_warps = 0;      // n^ = o x WarpsPerSM: average resident warps (parallelism)
    double active_cycles = 0;      // T^(i): cycles the SM ran the kernel
};

struct AtomicUtilizationInput {
    std::string operation;     // the table's fetch-and-op grid: "add" or "popc_inc"
    double active_threads = 0; // e: one value for all SMs (Table 2: O / sum N)
    std::vector<SmAtomicCounts> sms;
};

struct SmUtilization {
    SmAtomicCounts counts;
    double jobs = 0;        // N = N_f + N_c
    double queued_cas = 0;  // c = n^ N_c / N
    ServiceTime service;    // S(n^, e, c), eqs. (1)-(3); zero when N = 0
    double busy_cycles = 0; // B = N S
    // U = B / T; > 1 where the estimate of n^ is too high (sec. 4.1). nullopt when T is not
    // known (0: a static forecast without kernel cycles).
    std::optional<double> utilization;
};

struct AtomicUtilization {
    std::string operation;
    double active_threads = 0;
    std::vector<SmUtilization> sms;
};

// Table 2. Input Errors: negative counts, a point outside the grid (service_time).
AtomicUtilization predict_utilization(const AtomicServiceGrid& grid,
                                      const AtomicUtilizationInput& input);

// e = O / sum_i N^(i) (Table 2): operations per job. 0 when there are no jobs.
double active_threads_per_job(double operations, double jobs);

} // namespace kerncast::models::atomics
