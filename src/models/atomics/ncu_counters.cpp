// Dong & Pai Table 1 from Nsight Compute metrics (docs/atomics.md, "Counters").
#include "kerncast/models/atomics/ncu_counters.hpp"

#include "kerncast/error.hpp"

#include <cmath>
#include <optional>

namespace kerncast::models::atomics {
namespace {

using Metrics = std::map<std::string, runtime::NamedValue>;

std::optional<double> find(const Metrics& metrics, const char* name, const std::string& origin) {
    const auto it = metrics.find(name);
    if (it == metrics.end())
        return std::nullopt;
    if (!std::isfinite(it->second.value) || it->second.value < 0)
        throw_input_error(origin + ": metric " + name + " must be >= 0, got " +
                          std::to_string(it->second.value));
    return it->second.value;
}

double require(const Metrics& metrics, const char* name, const std::string& origin,
               const std::string& what) {
    if (const auto value = find(metrics, name, origin))
        return *value;
    throw_input_error(origin + ": missing metric " + std::string(name) + " (" + what + ")",
                      {}, {"profile with `ncu --csv --page raw --metrics " + [] {
                          std::string list;
                          for (const auto& m : atomic_model_metrics())
                              list += (list.empty() ? "" : ",") + m;
                          return list;
                      }() + "` (docs/atomics.md)"});
}

std::string machine_label(const MachineModel& machine) {
    return machine.identity.id.empty() ? machine.identity.name : machine.identity.id;
}

} // namespace

std::vector<std::string> atomic_model_metrics() {
    using M = AtomicMetricNames;
    return {M::jobs,
            M::cas_jobs,
            M::alu_jobs,
            M::operations,
            M::active_cycles_sum,
            M::active_cycles_avg,
            M::warps_per_cycle,
            M::occupancy_percent,
            M::sm_count};
}

AtomicCounterReading read_atomic_counters(const Metrics& metrics, const MachineModel& machine,
                                          const std::string& operation, const std::string& origin) {
    using M = AtomicMetricNames;
    AtomicCounterReading r;
    r.jobs = require(metrics, M::jobs, origin, "N, shared-memory atomic warp-instructions");
    r.cas_jobs = require(metrics, M::cas_jobs, origin, "N_c, shared-memory CAS warp-instructions");
    if (r.cas_jobs > r.jobs)
        throw_input_error(origin + ": " + M::cas_jobs + " (" + std::to_string(r.cas_jobs) +
                          ") exceeds " + M::jobs + " (" + std::to_string(r.jobs) + ")");
    r.operations =
        require(metrics, M::operations, origin, "O, shared-memory atomic wavefronts (for e)");

    if (const auto count = find(metrics, M::sm_count, origin)) {
        r.sm_count = static_cast<int>(std::lround(*count));
        r.sm_count_from = M::sm_count;
    } else if (machine.compute.sm_count) {
        r.sm_count = machine.compute.sm_count->value;
        r.sm_count_from = "compute.sm_count of " + machine_label(machine);
    }
    if (r.sm_count < 1)
        throw_input_error(origin + ": missing metric " + std::string(M::sm_count) +
                          " and machine '" + machine_label(machine) +
                          "' gives no compute.sm_count");

    if (const auto sum = find(metrics, M::active_cycles_sum, origin)) {
        r.active_cycles_sum = *sum;
        r.active_cycles_from = M::active_cycles_sum;
    } else {
        r.active_cycles_sum =
            require(metrics, M::active_cycles_avg, origin, "T, cycles an SM ran the kernel") *
            r.sm_count;
        r.active_cycles_from = std::string(M::active_cycles_avg) + " x SMs";
    }

    if (const auto warps = find(metrics, M::warps_per_cycle, origin)) {
        r.average_warps = *warps;
        r.average_warps_from = M::warps_per_cycle;
    } else {
        const double percent =
            require(metrics, M::occupancy_percent, origin,
                    "o, achieved occupancy (or " + std::string(M::warps_per_cycle) + ")");
        if (!machine.compute.max_warps_per_sm)
            throw_input_error(origin +
                              ": n^ = o x WarpsPerSM needs compute.max_warps_per_sm, "
                              "which machine '" +
                              machine_label(machine) + "' does not give");
        r.average_warps = percent / 100.0 * machine.compute.max_warps_per_sm->value;
        r.average_warps_from = std::string(M::occupancy_percent) + " x compute.max_warps_per_sm";
    }

    if (r.jobs > 0 && !(r.active_cycles_sum > 0))
        throw_input_error(origin + ": " + std::to_string(r.jobs) +
                          " shared atomic warp-instructions in 0 active SM cycles (" +
                          r.active_cycles_from + ")");
    const double sms = r.sm_count;
    r.input.operation = operation;
    r.input.active_threads = active_threads_per_job(r.operations, r.jobs); // e = O / sum N
    r.input.sms.push_back(SmAtomicCounts{"average SM (" + std::to_string(r.sm_count) + " SMs)",
                                         (r.jobs - r.cas_jobs) / sms, r.cas_jobs / sms,
                                         r.average_warps, r.active_cycles_sum / sms});
    return r;
}

} // namespace kerncast::models::atomics
