// The inputs the benchmarks share: the star3d_r4 example and the A100 (40 GB) and H100 SXM5
// machine models, loaded once per program.
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
