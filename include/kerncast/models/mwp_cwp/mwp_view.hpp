// The report view of an MWP-CWP result: builds a Document (schema "kerncast.mwp/1") from the
// result struct; computes nothing.
#pragma once

#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/report/document.hpp"

namespace kerncast::models {

inline constexpr const char* mwp_schema = "kerncast.mwp/1";

// Tables: "workload" (Table 1 inputs), "machine" (machine parameters with their fields and
// sources), "occupancy" (when calculated), "intermediates" (every quantity of Table 2 with
// its equation, paper symbol, value and unit) and "result" (the case of (22)-(24), why, and
// the total).
report::Document mwp_view(const MwpCwpResult& result);

} // namespace kerncast::models
