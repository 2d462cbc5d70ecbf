// Each model's prediction of one launch for `kerncast predict` (and its Python twin), as the
// shared models::Prediction: the limiter model's (Ernst et al. 2023) beside MWP-CWP's classic and
// cache-aware variants (Hong & Kim 2009). A variant the machine cannot feed says why instead of
// failing the prediction. Pure.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/prediction/prediction.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models::mwp_cwp {

struct ModelTime {
    std::string model;                    // "limiter (Ernst et al. 2023)", "MWP-CWP classic", ...
    std::optional<Prediction> prediction; // absent when the model cannot predict the launch
    std::string detail;                   // binding limiter / case of (22)-(24), or why unavailable
};

// `volumes` is the volume model's prediction of this launch (its registers are used for the
// occupancy of MWP-CWP too).
std::vector<ModelTime>
model_times(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
            const std::vector<std::pair<std::string, std::int64_t>>& overrides,
            const MachineModel& machine, const VolumePrediction& volumes);

} // namespace kerncast::models::mwp_cwp
