// How much a forecast made without a register count rests on it. Registers decide how many
// threads an SM holds and how many loads each keeps in flight before its first use; unknown,
// the volume model lets neither limit. Where the machine measured its DRAM bandwidth by loads
// in flight (the Hopper files) and that limit binds, the forecast depends on the count
// directly. kerncast says so, with the size of the effect: the same launch with ptxas's count
// for kerncast's generated code (one NVRTC compilation, no GPU), where NVRTC is present.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/report/document.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models {

// A warning for `prediction` (of `launch`, made with `options`) when its registers were unknown
// and the DRAM in-flight limit binds; nullopt otherwise. With NVRTC it predicts the launch again
// with ptxas's count and names both throughputs; without, it says that the effect cannot be
// sized here and how to give a count. `subject` names the launch in the text ("this launch",
// "the best configuration"). `analysed`, when given, is the launch already analysed: the second
// prediction reuses it.
std::optional<std::string> unknown_registers_warning(
    const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
    const std::vector<std::pair<std::string, std::int64_t>>& overrides, const MachineModel& machine,
    const VolumeOptions& options, const VolumePrediction& prediction,
    const std::string& subject = "this launch", const AnalysedLaunch* analysed = nullptr);

// explore's use: the warning for the ranking's best configuration, put first among the notes of
// `document` (explore_view of `result`, swept with `options`).
void add_best_registers_warning(report::Document& document, const kernel::KernelSpec& spec,
                                const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                                const MachineModel& machine, const ExploreOptions& options,
                                const ExploreResult& result);

} // namespace kerncast::models
