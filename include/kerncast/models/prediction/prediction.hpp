// The one prediction result every model fills: what `kerncast predict` lists per model, what
// `kerncast validate` compares with measurements and what the reports rank. Each model keeps its
// detailed result (VolumePrediction, KernelMwpPrediction, calibrated::ModelPrediction, printed
// by its own view) and converts it with ONE function beside it:
//   models::to_prediction(const VolumePrediction&, ...) models/volumes/volume_summary.hpp
//   models::mwp_cwp::to_prediction(const KernelMwpPrediction&) models/mwp_cwp/mwp_summary.hpp
//   models::calibrated::to_prediction(const ModelPrediction&)
//   models/calibrated/model_prediction.hpp
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

struct Prediction {
    // Which model predicted: "volumes", "mwp-cwp classic", "mwp-cwp cache-aware", "calibrated".
    std::string model;
    double time_s = 0; // per launch
    // What orders launches of equal time_s, the smaller first (the volume model's next-largest
    // limit per launch, LimiterResult); 0 when the model has none.
    double tie_break_s = 0;
    // What bounds the time, as the model names it: the volume model's binding limiter ("DRAM",
    // "L2", "L1", "FP"), MWP-CWP's execution case ("case (23)", Hong & Kim 2009 eq. 22-24).
    // Absent when the model names none (a calibrated cost model).
    std::optional<std::string> limiter;
    // Predicted values of counters, keyed by the Nsight Compute metric they are compared with
    // and in that metric's unit (e.g. "dram__bytes_read.sum" in bytes).
    std::map<std::string, double> counters;
    // Floating-point operations per launch, when the model counts them (predicted throughput =
    // flops / time_s, ranked against a measured "flop/s" throughput).
    std::optional<double> flops;
    std::vector<std::string> notes; // what the summary leaves out or assumes
};

} // namespace kerncast::models
