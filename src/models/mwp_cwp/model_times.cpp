// Each model's prediction of one launch (model_times.hpp).
#include "kerncast/models/mwp_cwp/model_times.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/mwp_summary.hpp"
#include "kerncast/models/volumes/volume_summary.hpp"

namespace kerncast::models::mwp_cwp {

std::vector<ModelTime>
model_times(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
            const std::vector<std::pair<std::string, std::int64_t>>& overrides,
            const MachineModel& machine, const VolumePrediction& volumes) {
    std::vector<ModelTime> times;
    // The counters are not listed: no L2 sector size needed.
    const Prediction limiter = to_prediction(volumes, std::nullopt);
    times.push_back({"limiter (Ernst et al. 2023)", limiter, *limiter.limiter + " binds"});
    for (const auto variant : {Variant::classic, Variant::cache_aware}) {
        ModelTime time{"MWP-CWP " + to_string(variant), {}, ""};
        try {
            KernelMwpOptions options;
            options.variant = variant;
            options.registers = volumes.registers;
            time.prediction = to_prediction(
                predict_kernel_mwp(spec, launch, overrides, machine, options, &volumes));
            time.detail = *time.prediction->limiter;
        } catch (const Error& e) {
            time.detail = "not available: " + e.message();
        }
        times.push_back(time);
    }
    return times;
}

} // namespace kerncast::models::mwp_cwp
