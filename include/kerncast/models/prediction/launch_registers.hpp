// Registers per thread for the occupancy of `predict` and `explore` (CLI and Python module):
// what --registers asks for, following docs/volume-model.md's precedence, wired one way.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models {

// When ptxas's counter is made (it checks up front that the machine's SM can be compiled for).
enum class CounterCreation {
    now,             // before any launch (explore: the error precedes the sweep)
    on_first_launch, // when first asked, i.e. once the launch is known valid (predict)
};

// A count the request fixes (N, or none given and the kernel file's registers_per_thread:
// fixed_register_count) goes to `registers`, and the result is empty. Otherwise (auto) ptxas
// counts each launch it is asked for: NVRTC compiling kerncast's generated CUDA
// (codegen::RegisterCounter, one compilation per distinct source; safe to call from several
// threads).
// With `prepare` given, it is set (auto only) to count many launches ahead of the returned
// function, in batches (codegen::RegisterCounter::prepare; explore's whole sweep).
using PrepareRegisters =
    std::function<void(const std::vector<kernel::LaunchConfig>&, unsigned jobs)>;
RegistersForLaunch
launch_registers(const RegisterRequest& request, const kernel::KernelSpec& spec,
                 const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                 const MachineModel& machine, RegisterCount& registers,
                 CounterCreation creation = CounterCreation::on_first_launch,
                 PrepareRegisters* prepare = nullptr);

// explore_space's registers (ExploreOptions::registers_for_case): for each kernel file of a
// space and each set of parameter values, the count the request fixes for that file (N, or its
// registers_per_thread), or ptxas's count of each launch (one counter per kernel file and
// values, made when first asked). Safe to call from several threads; `kernels` and `machine`
// must outlive it.
using RegistersForCase = std::function<RegisterCount(
    std::size_t kernel, const std::vector<std::pair<std::string, std::int64_t>>& values,
    const kernel::LaunchConfig& launch)>;
// With `prepare` given, it is set to count a case's launches ahead in batches (the counter of
// that kernel file and values; nothing where the request fixes the count).
using PrepareRegistersForCase = std::function<void(
    std::size_t kernel, const std::vector<std::pair<std::string, std::int64_t>>& values,
    const std::vector<kernel::LaunchConfig>& launches, unsigned jobs)>;
RegistersForCase space_registers(const RegisterRequest& request,
                                 const std::vector<kernel::KernelSpec>& kernels,
                                 const MachineModel& machine,
                                 PrepareRegistersForCase* prepare = nullptr);

} // namespace kerncast::models
