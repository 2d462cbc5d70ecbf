// Views of the volume model: a VolumePrediction (kerncast predict) and an ExploreResult
// (kerncast explore) as report Documents. They only arrange numbers; they never compute.
#pragma once

#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/volume_stages.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/report/document.hpp"

#include <string>

namespace kerncast::models {

// schema "kerncast.predict/1"
report::Document predict_view(const VolumePrediction& prediction, const std::string& kernel_name,
                              const std::string& machine_id);

// Table "stages": which mechanisms run on the machine and the values each uses (predict
// --explain).
report::Table volume_stages_table(const VolumeStagePlan& plan);

// schema "kerncast.explore/1"; `top` rows (0 = all) of the ranking, skipped rows after them.
report::Document explore_view(const ExploreResult& result, std::size_t top = 0);
// explore --shortlist: the table "shortlist" of the configurations to measure (shortlist.hpp)
// and a note saying how many, at which confidence and error spread.
void add_shortlist(report::Document& document, const ExploreResult& result, double log_spread,
                   double confidence);

// "32x4x4"
std::string format_triple(const std::array<std::int64_t, 3>& values);

} // namespace kerncast::models
