// MWP-CWP for a kernel file: analysis (with index arithmetic) -> derived workload -> Hong & Kim's
// equations, classic or cache-aware. What `kerncast mwp KERNEL`, `predict` and `validate --model
// mwp` share. Pure.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/cache_aware.hpp"
#include "kerncast/models/mwp_cwp/derived_workload.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models::mwp_cwp {

struct KernelMwpOptions {
    Variant variant = Variant::classic;
    MwpCwpOptions model;
    RegisterCount registers; // per_thread 0: registers do not limit occupancy
};

struct KernelMwpPrediction {
    std::string kernel;
    Variant variant = Variant::classic;
    DerivedWorkload derived;
    std::optional<CacheAwareResult> cache_aware; // the cache-aware variant only
    MwpCwpResult model;                          // the equations' result (either variant)
    double flops = 0;                            // floating-point operations of the launch
};

// Input Errors: a launch the kernel cannot take, a parameter assumption violated, a machine
// lacking a value (the classic variant needs mwp_cwp.*, the cache-aware one also the volume
// model's caches and latencies). `volumes`, when given, is the volume model's prediction of the
// same launch (the cache-aware variant uses it instead of predicting it again).
KernelMwpPrediction
predict_kernel_mwp(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                   const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                   const MachineModel& machine, const KernelMwpOptions& options = {},
                   const VolumePrediction* volumes = nullptr);

// The same for a launch already analysed and bound (analysed_launch.hpp).
KernelMwpPrediction predict_kernel_mwp(const AnalysedLaunch& launch, const MachineModel& machine,
                                       const KernelMwpOptions& options = {},
                                       const VolumePrediction* volumes = nullptr);

} // namespace kerncast::models::mwp_cwp
