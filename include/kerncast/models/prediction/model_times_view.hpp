// The models' times of one launch side by side, as the table of `kerncast predict`. Only
// arranges numbers.
#pragma once

#include "kerncast/models/prediction/model_times.hpp"
#include "kerncast/report/document.hpp"

#include <vector>

namespace kerncast::models {

// Table "models": time per launch by model, and why a model is missing.
report::Table model_times_table(const std::vector<ModelTime>& times);

} // namespace kerncast::models
