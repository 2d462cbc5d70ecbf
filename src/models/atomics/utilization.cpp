// Dong & Pai sec. 3.3, Table 2.
#include "kerncast/models/atomics/utilization.hpp"

#include "kerncast/error.hpp"

#include <cmath>
#include <sstream>

namespace kerncast::models::atomics {
namespace {

void check_count(double value, const std::string& what, const std::string& sm) {
    if (!std::isfinite(value) || value < 0) {
        std::ostringstream out;
        out << what << " of " << sm << " must be a count >= 0, got " << value;
        throw_input_error(out.str());
    }
}

} // namespace

double active_threads_per_job(double operations, double jobs) {
    return jobs > 0 ? operations / jobs : 0.0;
}

AtomicUtilization predict_utilization(const AtomicServiceGrid& grid,
                                      const AtomicUtilizationInput& input) {
    AtomicUtilization result;
    result.operation = grid.operation;
    result.active_threads = input.active_threads;
    for (const auto& sm : input.sms) {
        check_count(sm.fetch_and_op_warps, "fetch-and-op warp-instructions N_f", sm.label);
        check_count(sm.cas_warps, "CAS warp-instructions N_c", sm.label);
        check_count(sm.average_warps, "average warps n^", sm.label);
        check_count(sm.active_cycles, "active cycles T", sm.label);
        SmUtilization row;
        row.counts = sm;
        row.jobs = sm.fetch_and_op_warps + sm.cas_warps; // Table 2: N
        if (row.jobs > 0) {
            row.queued_cas = sm.average_warps * sm.cas_warps / row.jobs; // Table 2: c
            row.service = service_time(
                grid, ServicePoint{sm.average_warps, input.active_threads, row.queued_cas});
            row.busy_cycles = row.jobs * row.service.service_cycles; // B = N S
            if (sm.active_cycles > 0)
                row.utilization = row.busy_cycles / sm.active_cycles; // U = B / T
        } else if (sm.active_cycles > 0) {
            row.utilization = 0.0;
        }
        result.sms.push_back(row);
    }
    return result;
}

} // namespace kerncast::models::atomics
