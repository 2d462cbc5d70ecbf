// Shared by the validate tests: an example kernel file, and a kernel record of a launch.
#pragma once

#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <map>
#include <string>
#include <utility>

namespace kerncast::validate::test {

inline kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
}

inline runtime::KernelRecord record_of(const std::string& name, kernel::Dim3 block,
                                       kernel::Dim3 fold,
                                       std::map<std::string, runtime::ParameterValue> parameters) {
    runtime::KernelRecord record;
    record.name = name;
    record.launch.block = block;
    record.launch.fold = fold;
    record.parameters = std::move(parameters);
    return record;
}

} // namespace kerncast::validate::test
