// One launch configuration of a kernel through the volume model (Ernst et al. 2023, sec. 2-4):
// the kernel analysed at the launch, its parameters bound and checked, then predict_volumes.
// What `kerncast predict` computes, each row of `kerncast explore`, and the Python module's
// predict (docs/python.md).
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models {

// Registers per thread of one launch, asked only once the launch is known to be valid (ptxas
// compiling the generated code, codegen/register_usage.hpp, costs a compilation).
using RegistersForLaunch = std::function<RegisterCount(const kernel::LaunchConfig&)>;

// `overrides` replace the kernel file's parameter values (-D name=value). When
// `registers_for_launch` is set, its count replaces options.registers. Usage Errors: a block
// beyond CUDA's limits. Input Errors: a bad parameter value, a fold longer than the domain
// along its axis, and everything predict_volumes rejects.
VolumePrediction predict_launch(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                                const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                                const MachineModel& machine, const VolumeOptions& options = {},
                                const RegistersForLaunch& registers_for_launch = {});

// The same for a launch already analysed and bound (analysed_launch.hpp).
VolumePrediction predict_launch(const AnalysedLaunch& launch, const MachineModel& machine,
                                const VolumeOptions& options = {},
                                const RegistersForLaunch& registers_for_launch = {});

} // namespace kerncast::models
