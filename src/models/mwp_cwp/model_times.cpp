// Each model's time per launch (model_times.hpp).
#include "kerncast/models/mwp_cwp/model_times.hpp"

#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"

namespace kerncast::models::mwp_cwp {

std::vector<ModelTime>
model_times(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
            const std::vector<std::pair<std::string, std::int64_t>>& overrides,
            const MachineModel& machine, const VolumePrediction& volumes) {
    std::vector<ModelTime> times;
    times.push_back({"limiter (Ernst et al. 2023)", volumes.limiter.seconds_per_launch,
                     std::string(limiter_name(volumes.limiter.binding)) + " binds"});
    for (const auto variant : {Variant::classic, Variant::cache_aware}) {
        ModelTime time{"MWP-CWP " + to_string(variant), {}, ""};
        try {
            KernelMwpOptions options;
            options.variant = variant;
            options.registers = volumes.registers;
            const auto p = predict_kernel_mwp(spec, launch, overrides, machine, options, &volumes);
            time.seconds = p.model.time_seconds;
            time.detail = "case (" + equation_number(p.model.execution_case) + ")";
        } catch (const Error& e) {
            time.detail = "not available: " + e.message();
        }
        times.push_back(time);
    }
    return times;
}

} // namespace kerncast::models::mwp_cwp
