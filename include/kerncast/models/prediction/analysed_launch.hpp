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
// Input Error when the kernel's global and constant arrays (extents, alignment offset and
// element size at the bound parameters) need more bytes than the machine's DRAM holds
// (memory.dram.size_bytes; no check when the machine does not record it). Such a launch
// cannot be allocated, and its forecast would be a number for nothing that can run. Each
// model checks it once it knows the machine can run it (predict_launch, predict_kernel_mwp,
// explore), so a machine the model cannot run says that first.
void check_arrays_fit_device_memory(const kernel::BoundKernel& bound, const MachineModel& machine);

AnalysedLaunch analyse_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                              const kernel::ParameterOverrides& overrides,
                              const MachineModel& machine);

} // namespace kerncast::models
