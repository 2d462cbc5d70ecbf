// Predicting with a calibrated cost model (Stevens & Klöckner, sec. 7.3): the kernel's
// features at its parameter values, the calibrated parameters, the model's output.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/models/calibrated/calibrated_machine.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/models/prediction/prediction.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

struct NamedNumber {
    std::string name;
    double value = 0;
    std::string source; // parameters: the machine source; features: ""
};

struct ModelPrediction {
    std::string model;
    std::string output; // the output feature, e.g. "f_time"
    std::string kernel;
    std::string machine;
    std::vector<std::pair<std::string, std::int64_t>> kernel_parameters;
    std::vector<NamedNumber> parameters; // model.parameters order
    std::vector<NamedNumber> features;   // model.features() order
    double predicted = 0;                // the output: seconds for f_time
};

// `bound` is `analysis` bound to its parameter values (analysis::bind).
ModelPrediction predict_with_model(const CostModel& model, const analysis::KernelAnalysis& analysis,
                                   const kernel::BoundKernel& bound, const MachineModel& machine);

// The shared models::Prediction: model "calibrated", time_s = the predicted output (a time
// feature: f_time, f_time_min or f_time_mean, in seconds), no limiter, counters or flops; a
// note naming the cost model and its output. An input Error when the model predicts another
// feature than a time.
Prediction to_prediction(const ModelPrediction& prediction);

} // namespace kerncast::models::calibrated
