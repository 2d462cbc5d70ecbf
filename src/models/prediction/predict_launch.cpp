#include "kerncast/models/prediction/predict_launch.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/volumes/volumes.hpp"

namespace kerncast::models {

VolumePrediction predict_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                                const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                                const MachineModel& machine, const VolumeOptions& options,
                                const RegistersForLaunch& registers_for_launch) {
    // Limits first: the analysis of a 2^30-thread block or a fold longer than the domain would
    // take time that grows with it, for a launch that cannot run anyway.
    kernel::check_launch_limits(launch, "launch");
    const analysis::KernelAnalysis analysis =
        analysis::analyze(analysis::staging_judged_at(spec, overrides), launch);
    const kernel::BoundKernel bound = analysis::bind(analysis, overrides);
    analysis::check_fold_within_domain(bound);
    kernel::check_grid_limits(bound);
    try {
        if (!registers_for_launch)
            return predict_volumes(analysis, bound, machine, options);
        VolumeOptions with_registers = options;
        with_registers.registers = registers_for_launch(launch);
        return predict_volumes(analysis, bound, machine, with_registers);
    } catch (...) {
        kernel::rethrow_naming_kernel(bound);
    }
}

VolumePrediction predict_launch(const AnalysedLaunch& launch, const MachineModel& machine,
                                const VolumeOptions& options,
                                const RegistersForLaunch& registers_for_launch) {
    check_volume_machine(machine);
    check_arrays_fit_device_memory(launch.bound, machine);
    try {
        if (!registers_for_launch)
            return predict_volumes(launch.analysis, launch.bound, machine, options);
        VolumeOptions with_registers = options;
        with_registers.registers = registers_for_launch(launch.bound.launch());
        return predict_volumes(launch.analysis, launch.bound, machine, with_registers);
    } catch (...) {
        kernel::rethrow_naming_kernel(launch.bound);
    }
}

} // namespace kerncast::models
