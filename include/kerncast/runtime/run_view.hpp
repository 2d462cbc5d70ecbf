// The report of one measurement record (what `kerncast run` prints).
#pragma once

#include "kerncast/report/document.hpp"
#include "kerncast/runtime/measurement.hpp"

namespace kerncast::runtime {

// Schema "kerncast.run/1": a summary table (kernel, device, launch, time statistics, SM
// clocks), the per-repetition times, and the counters when there are any.
report::Document run_view(const Measurement& measurement);

} // namespace kerncast::runtime
