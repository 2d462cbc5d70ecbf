// MWP-CWP predictions for recorded configurations (mwp_record_predictions.hpp).
#include "kerncast/validate/mwp_record_predictions.hpp"

#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/mwp_cwp/mwp_summary.hpp"
#include "kerncast/validate/record_binding.hpp"

namespace kerncast::validate {

using models::mwp_cwp::KernelMwpOptions;
using models::mwp_cwp::KernelMwpPrediction;
using models::mwp_cwp::Variant;

std::optional<KernelMwpPrediction> predict_record_mwp(const kernel::KernelSpec& spec,
                                                      const MachineModel& machine,
                                                      const runtime::KernelRecord& record,
                                                      const KernelMwpOptions& options) {
    if (!validate::record_is_of(spec, record))
        return std::nullopt;
    const kernel::LaunchConfig launch = record.launch.config();
    kernel::check_launch_limits(launch, "the recorded launch");
    KernelMwpOptions with_registers = options;
    with_registers.registers = validate::record_register_count(spec, record);
    return models::mwp_cwp::predict_kernel_mwp(
        spec, launch, validate::record_parameter_overrides(spec, record), machine, with_registers);
}

validate::PredictionSource mwp_record_predictions(const std::vector<kernel::KernelSpec>& specs,
                                                  const MachineModel& machine, Variant variant) {
    return [specs, machine,
            variant](const runtime::KernelRecord& record) -> std::optional<models::Prediction> {
        KernelMwpOptions options;
        options.variant = variant;
        for (const auto& spec : specs)
            if (auto p = predict_record_mwp(spec, machine, record, options))
                return to_prediction(*p);
        return std::nullopt;
    };
}

} // namespace kerncast::validate
