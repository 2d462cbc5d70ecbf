// The inputs the benchmarks share: the star3d_r4 example, the published range-2 star, and the
// A100 (40 GB), H100 SXM5, V100 SXM2 and V100 PCIe machine models, loaded once per program.
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

// The range-2 3D star of the published V100 measurements (600 x 600 x 512 doubles).
inline const kernel::KernelSpec& star3d_r2() {
    static const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    return spec;
}

// The V100 SXM2: the paper's capacity fits, no simulated L1, so a prediction is its footprints.
inline const MachineModel& v100_sxm2() {
    static const MachineModel machine = resolve_machine("v100-sxm2-32gb");
    return machine;
}

// The V100 PCIe: a simulated L1 of 16 ways without the miss pass.
inline const MachineModel& v100_pcie() {
    static const MachineModel machine = resolve_machine("v100-pcie-32gb");
    return machine;
}

inline const MachineModel& a100_40gb() {
    static const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    return machine;
}

// The H100 SXM5: a simulated L1 (its `ways`) that also costs the loads' L1 cycles (its
// `miss_pass`).
inline const MachineModel& h100_sxm5() {
    static const MachineModel machine = resolve_machine("h100-sxm5-80gb");
    return machine;
}

// The same without the miss pass: the simulated L1 for volumes only.
inline const MachineModel& h100_sxm5_without_miss_pass() {
    static const MachineModel machine = [] {
        MachineModel m = resolve_machine("h100-sxm5-80gb");
        m.shared_memory_banks.miss_pass->value = "none";
        return m;
    }();
    return machine;
}

} // namespace kerncast::bench
