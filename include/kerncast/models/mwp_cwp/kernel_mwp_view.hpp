// Views of MWP-CWP for a kernel file: the derived workload (instruction mapping, global accesses
// and their transactions, loops), the cache-aware levels, then the tables of mwp_view. They only
// arrange numbers.
#pragma once

#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/model_times.hpp"
#include "kerncast/report/document.hpp"

#include <optional>
#include <string>

namespace kerncast::models::mwp_cwp {

// Schema "kerncast.mwp/1" (as for workload files) with the tables "instructions", "accesses",
// "loops", "levels" (cache-aware only) before those of mwp_view.
report::Document kernel_mwp_view(const KernelMwpPrediction& prediction);

// Table "models": each model's time per launch side by side.
report::Table model_times_table(const std::vector<ModelTime>& times);

} // namespace kerncast::models::mwp_cwp
