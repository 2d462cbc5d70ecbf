// The service time of the shared-memory atomic unit, Dong & Pai, "Modeling Utilization to
// Identify Shared-memory Atomic Bottlenecks", sec. 3.1-3.2, equations (1)-(3): the measured
// total time T(n, e, c) of a machine's table, linearly interpolated at non-integral n, e, c.
// Pure; docs/atomics.md.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <string>

namespace kerncast::models::atomics {

// A point of the model: n warp-instructions queued or in service, e active threads per
// warp-instruction on one address/bank, c of the n compare-and-swap (0 <= c <= n).
struct ServicePoint {
    double queued_warps = 0;   // n
    double active_threads = 0; // e
    double cas_warps = 0;      // c
};

struct ServiceTime {
    ServicePoint point;
    double total_cycles = 0;   // T(n, e, c), eq. (2)
    double service_cycles = 0; // S(n, e, c) = T / n, eq. (3); 0 at n = 0
    // The sampled n and e around the point (n_low = 0 is eq. (1)'s T(0, e, c) = 0).
    int queued_warps_low = 0, queued_warps_high = 0;
    int active_threads_low = 0, active_threads_high = 0;
};

// Eq. (1)-(3). T is trilinear in (n, e, c) between the grid's samples, with T(0, e, c) = 0
// below the smallest sampled n (eq. 1). The CAS count moves with n at a fixed CAS fraction
// c / n: at a sampled n_k the table is read at c_k = n_k c / n, linearly between the two
// integral CAS counts around it (the paper does not say how c > n_k is read; a fixed
// fraction keeps every corner inside 0..n_k and is exact at integral points). Input Errors:
// n < 0, n above the largest sampled n, e outside the sampled e, c outside 0..n.
ServiceTime service_time(const AtomicServiceGrid& grid, const ServicePoint& point);

// The grid for `operation` in the machine's table. Input Error when the machine has no table
// (naming the machine and saying it lacks a measured table) or no grid for the operation.
const AtomicServiceGrid& service_grid(const MachineModel& machine, const std::string& operation);

} // namespace kerncast::models::atomics
