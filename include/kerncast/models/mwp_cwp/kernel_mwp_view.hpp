// Views of MWP-CWP for a kernel file: the derived workload (instruction mapping, global accesses
// and their transactions, loops), the cache-aware levels, then the tables of mwp_view. They only
// arrange numbers.
#pragma once

#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/report/document.hpp"

#include <optional>
#include <string>

namespace kerncast::models::mwp_cwp {

// Schema "kerncast.mwp/1" (as for workload files) with the tables "instructions", "accesses",
// "loops", "levels" (cache-aware only) before those of mwp_view.
report::Document kernel_mwp_view(const KernelMwpPrediction& prediction);

} // namespace kerncast::models::mwp_cwp
