// Each model's prediction of one launch (model_times.hpp).
#include "kerncast/models/prediction/model_times.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/mwp_summary.hpp"
#include "kerncast/models/volumes/volume_summary.hpp"

namespace kerncast::models {

std::vector<ModelTime> model_times(const AnalysedLaunch& launch, const MachineModel& machine,
                                   const VolumePrediction& volumes) {
    std::vector<ModelTime> times;
    // The counters are not listed: no L2 sector size needed.
    const Prediction limiter = to_prediction(volumes, std::nullopt);
    times.push_back({"limiter (Ernst et al. 2023)", limiter, *limiter.limiter + " binds"});
    for (const auto variant : {mwp_cwp::Variant::classic, mwp_cwp::Variant::cache_aware}) {
        ModelTime time{"MWP-CWP " + mwp_cwp::to_string(variant), {}, ""};
        try {
            mwp_cwp::KernelMwpOptions options;
            options.variant = variant;
            options.registers = volumes.placement.registers;
            time.prediction = mwp_cwp::to_prediction(
                mwp_cwp::predict_kernel_mwp(launch, machine, options, &volumes));
            time.detail = *time.prediction->limiter;
        } catch (const Error& e) {
            time.detail = "not available: " + e.message();
        }
        times.push_back(time);
    }
    return times;
}

} // namespace kerncast::models
