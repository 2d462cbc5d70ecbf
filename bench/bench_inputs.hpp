// The inputs the benchmarks share: the star3d_r4 example and the A100 (40 GB) machine model,
// loaded once per program.
#pragma once

#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"

#include <string>

namespace kerncast::bench {

inline const kernel::KernelSpec& star3d_r4() {
    static const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/star3d_r4.yaml");
    return spec;
}

inline const MachineModel& a100_40gb() {
    static const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    return machine;
}

} // namespace kerncast::bench
