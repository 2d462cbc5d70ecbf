// Report views of the atomic-unit model (schema "kerncast.atomics/1"): build Documents from the
// result structs; compute nothing. docs/atomics.md, "Output".
#pragma once

#include "kerncast/models/atomics/ncu_counters.hpp"
#include "kerncast/models/atomics/service_time_record.hpp"
#include "kerncast/models/atomics/static_forecast.hpp"
#include "kerncast/models/atomics/utilization.hpp"
#include "kerncast/report/document.hpp"

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

// `kerncast atomics --replay`: the table built from a record, per (operation, n, e) row.
report::Document service_table_view(const ServiceRecord& record, const AtomicServiceTable& table);

} // namespace kerncast::models::atomics
