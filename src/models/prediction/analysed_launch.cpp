#include "kerncast/models/prediction/analysed_launch.hpp"

#include "kerncast/kernel/launch_text.hpp"

namespace kerncast::models {

AnalysedLaunch analyse_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                              const kernel::ParameterOverrides& overrides,
                              const MachineModel& machine) {
    // Limits first: the analysis of a 2^30-thread block or a fold longer than the domain would
    // take time that grows with it, for a launch that cannot run anyway.
    kernel::check_launch_limits(launch, "launch");
    analysis::CountOptions counting;
    counting.count_index_arithmetic = true; // MWP-CWP's instruction mix
    if (machine.compute.warp_size)
        counting.subgroup_size = machine.compute.warp_size->value;
    analysis::KernelAnalysis analysis = analysis::analyze(spec, launch, counting);
    kernel::BoundKernel bound = analysis::bind(analysis, overrides);
    analysis::check_fold_within_domain(bound);
    kernel::check_grid_limits(bound);
    return {std::move(analysis), std::move(bound), counting.subgroup_size};
}

} // namespace kerncast::models
