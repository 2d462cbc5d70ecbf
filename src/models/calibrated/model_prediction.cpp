#include "kerncast/models/calibrated/model_prediction.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/calibrated/feature.hpp"
#include "kerncast/models/calibrated/model_features.hpp"

namespace kerncast::models::calibrated {

ModelPrediction predict_with_model(const CostModel& model, const analysis::KernelAnalysis& analysis,
                                   const kernel::BoundKernel& bound, const MachineModel& machine) {
    KERNCAST_CHECK(bound.launch() == analysis.launch,
                   "the bound kernel is not the analysis' launch");
    const std::vector<std::int64_t>& params = bound.values();
    const MachineParameters values = calibrated_parameters(machine, model);
    const std::vector<double> features = kernel_features(model, analysis, params);
    ModelPrediction out;
    out.model = model.name;
    out.output = model.output.name;
    out.kernel = analysis.spec.name;
    out.machine = machine.identity.id;
    for (std::size_t k = 0; k < analysis.parameters.size(); ++k)
        out.kernel_parameters.emplace_back(analysis.parameters[k], params[k]);
    for (std::size_t i = 0; i < model.parameters.size(); ++i)
        out.parameters.push_back({model.parameters[i].name, values.values[i], values.sources[i]});
    for (std::size_t i = 0; i < features.size(); ++i)
        out.features.push_back({model.features()[i].name, features[i], ""});
    out.predicted = model.evaluate(values.values, features);
    return out;
}

Prediction to_prediction(const ModelPrediction& prediction) {
    if (parse_feature(prediction.output).kind != FeatureKind::time)
        throw_input_error("cost model '" + prediction.model + "' predicts " + prediction.output +
                          ", not a time (f_time, f_time_min, f_time_mean)");
    Prediction summary;
    summary.model = "calibrated";
    summary.time_s = prediction.predicted;
    summary.notes.push_back("cost model " + prediction.model + " (" + prediction.output +
                            ") with the calibrated parameters of " + prediction.machine);
    return summary;
}

} // namespace kerncast::models::calibrated
