// One launch of a kernel, analysed and bound once for every model that forecasts it: the
// volume model (predict_launch), MWP-CWP (predict_kernel_mwp) and the models' times side by
// side (model_times). The analysis counts what every model needs (MWP-CWP's index arithmetic,
// sub-groups of the machine's warp; the volume model reads floating-point operations only), and
// the bound values are checked once: CUDA's launch limits, the fold against the domain, the
// grid against CUDA's limits (kernel_analysis.hpp, launch_text.hpp).
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/machine/machine_model.hpp"

namespace kerncast::models {

struct AnalysedLaunch {
    analysis::KernelAnalysis analysis;
    kernel::BoundKernel bound;
    std::int64_t subgroup_size = 32; // the warp the analysis counted sub-group operations in

    const std::vector<std::int64_t>& params() const { return bound.values(); }
};

// Usage Errors: a block beyond CUDA's limits. Input Errors: a bad parameter value, a violated
// assumption, a fold longer than the domain, a grid beyond CUDA's limits.
AnalysedLaunch analyse_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                              const kernel::ParameterOverrides& overrides,
                              const MachineModel& machine);

} // namespace kerncast::models
