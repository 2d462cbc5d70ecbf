// Report views of the atomic-unit model (schema "kerncast.atomics/1"): build Documents from the
// result structs; compute nothing. docs/atomics.md, "Output".
#pragma once

#include "kerncast/models/atomics/ncu_counters.hpp"
#include "kerncast/models/atomics/service_time_record.hpp"
#include "kerncast/models/atomics/static_forecast.hpp"
#include "kerncast/models/atomics/utilization.hpp"
#include "kerncast/report/document.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

inline constexpr const char* atomics_schema = "kerncast.atomics/1";

// One profiled launch: its counters and, when the machine has a table, the utilization.
struct LaunchUtilization {
    std::string kernel;
    std::string launch_id;
    AtomicCounterReading reading;
    std::optional<AtomicUtilization> utilization;
};

// `kerncast atomics --ncu-csv`: table "launches" (one row per launch: N, N_c, O, e, n^, c, T,
// and S, B, U with a table), notes on where each quantity came from.
report::Document counters_view(const std::vector<LaunchUtilization>& launches,
                               const std::string& machine_label, const std::string& origin,
                               const std::string& table_note);

// `kerncast atomics KERNEL`: tables "launch", "accesses" and "utilization".
report::Document forecast_view(const AtomicForecast& forecast,
                               const std::optional<AtomicUtilization>& utilization,
                               const std::string& machine_label, const std::string& table_note);

// One forecast of a sweep over a kernel parameter (`kerncast atomics KERNEL --sweep n=...`).
struct SweepForecast {
    std::int64_t value = 0; // the swept parameter's value
    AtomicForecast forecast;
    std::optional<AtomicUtilization> utilization; // with the machine's table
};

// `kerncast atomics KERNEL --sweep NAME=V1,V2,...`: table "sweep" (one row per value: N, e,
// n^, T(n,e,c), S, B, T, U) and charts against the parameter: the atomic warp-instructions per
// SM, and the busy cycles B and utilization U where the table (and --kernel-cycles) give them.
report::Document forecast_sweep_view(const std::string& parameter,
                                     const std::vector<SweepForecast>& sweep,
                                     const std::string& machine_label,
                                     const std::string& table_note);

// `kerncast atomics --replay`: the table built from a record, per (operation, n, e) row.
report::Document service_table_view(const ServiceRecord& record, const AtomicServiceTable& table);

} // namespace kerncast::models::atomics
