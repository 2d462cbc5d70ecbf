// Reports of calibrated cost models: `kerncast calibrate` (schema kerncast.calibrate/1) and
// `kerncast predict --model` (schema kerncast.model-prediction/1). Views only print.
#pragma once

#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/model_prediction.hpp"
#include "kerncast/report/document.hpp"

#include <string>
#include <vector>

namespace kerncast::models::calibrated {

report::Document calibration_view(const CostModel& model,
                                  const std::vector<CalibrationSample>& samples,
                                  const CalibrationResult& result,
                                  const std::vector<std::string>& notes,
                                  const CalibrationCrossValidation* cross_validation = nullptr);

report::Document model_prediction_view(const ModelPrediction& prediction);

} // namespace kerncast::models::calibrated
