// The volume model's predictions of recorded configurations (volume_predictions.hpp).
#include "kerncast/validate/volume_predictions.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/volumes/volume_summary.hpp"
#include "kerncast/validate/record_binding.hpp"

namespace kerncast::validate {

std::optional<models::VolumePrediction>
predict_record_volumes(const kernel::KernelSpec& spec, const MachineModel& machine,
                       const runtime::KernelRecord& record, const models::VolumeOptions& options) {
    if (!record_is_of(spec, record))
        return std::nullopt;
    const kernel::LaunchConfig launch = record.launch.config();
    kernel::check_launch_limits(launch, "the recorded launch");
    const kernel::ParameterOverrides values = record_parameter_overrides(spec, record);
    const analysis::KernelAnalysis analysis =
        analysis::analyze(analysis::staging_judged_at(spec, values), launch);
    const kernel::BoundKernel bound = analysis::bind(analysis, values);
    analysis::check_fold_within_domain(bound);
    kernel::check_grid_limits(bound);
    return models::predict_volumes(analysis, bound, machine, options);
}

double l2_sector_bytes(const MachineModel& machine) {
    const MemoryLevel* l2 = machine.level("l2");
    if (!l2 || !l2->sector_bytes || l2->sector_bytes->value <= 0)
        throw_input_error("machine '" + machine.identity.id +
                          "' has no memory level l2 with sector_bytes, which the L2 sector "
                          "counters need");
    return l2->sector_bytes->value;
}

std::optional<models::Prediction> predict_record(const kernel::KernelSpec& spec,
                                                 const MachineModel& machine,
                                                 const runtime::KernelRecord& record) {
    models::VolumeOptions options;
    options.registers = record_register_count(spec, record);
    const auto volumes = predict_record_volumes(spec, machine, record, options);
    if (!volumes)
        return std::nullopt;
    return models::to_prediction(*volumes, l2_sector_bytes(machine));
}

PredictionSource volume_model_predictions(const kernel::KernelSpec& spec,
                                          const MachineModel& machine) {
    return [spec, machine](const runtime::KernelRecord& record) {
        return predict_record(spec, machine, record);
    };
}

PredictionSource volume_model_predictions(const std::vector<kernel::KernelSpec>& specs,
                                          const MachineModel& machine) {
    return
        [specs, machine](const runtime::KernelRecord& record) -> std::optional<models::Prediction> {
            for (const auto& spec : specs)
                if (auto prediction = predict_record(spec, machine, record))
                    return prediction;
            return std::nullopt;
        };
}

} // namespace kerncast::validate
