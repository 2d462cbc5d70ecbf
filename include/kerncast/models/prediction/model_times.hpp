// Each model's prediction of one launch for `kerncast predict` (and its Python twin), as the
// shared models::Prediction: the limiter model's (Ernst et al. 2023) beside MWP-CWP's classic and
// cache-aware variants (Hong & Kim 2009), all from the launch analysed once (analysed_launch.hpp).
// A variant the machine cannot feed says why instead of failing the prediction. Pure.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/prediction.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

struct ModelTime {
    std::string model;                    // "limiter (Ernst et al. 2023)", "MWP-CWP classic", ...
    std::optional<Prediction> prediction; // absent when the model cannot predict the launch
    std::string detail;                   // binding limiter / case of (22)-(24), or why unavailable
};

// `volumes` is the volume model's prediction of `launch` (its registers are used for the
// occupancy of MWP-CWP too).
std::vector<ModelTime> model_times(const AnalysedLaunch& launch, const MachineModel& machine,
                                   const VolumePrediction& volumes);

} // namespace kerncast::models
