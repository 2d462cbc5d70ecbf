// A launch analysed and bound once (analysed_launch.hpp): every model forecasts from it what it
// forecasts from the kernel file, and the launch checks run once, up front.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" + name +
                                    ".yaml");
}

ErrorKind error_kind(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                     const kernel::ParameterOverrides& overrides) {
    try {
        analyse_launch(spec, launch, overrides, builtin_machine("a100-sxm4-40gb"));
    } catch (const Error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "no error";
    return ErrorKind::internal;
}

} // namespace

TEST(AnalysedLaunch, TheVolumeModelForecastsWhatItForecastsFromTheFile) {
    // The shared analysis also counts index arithmetic (MWP-CWP's), which the volume model,
    // reading floating-point operations only, must not see.
    for (const char* machine_id : {"a100-sxm4-40gb", "h100-sxm5-80gb", "v100-pcie-32gb"}) {
        const MachineModel machine = builtin_machine(machine_id);
        for (const char* name : {"star3d_r4", "lbm_d3q15_pull", "matmul_tiled16", "box2d_r2"}) {
            const kernel::KernelSpec spec = example(name);
            const AnalysedLaunch launch = analyse_launch(spec, spec.launch, {}, machine);
            const VolumePrediction once = predict_launch(launch, machine);
            const VolumePrediction from_file = predict_launch(spec, spec.launch, {}, machine);
            EXPECT_EQ(once.points, from_file.points) << name << " " << machine_id;
            EXPECT_EQ(once.dram_load_bytes, from_file.dram_load_bytes) << name;
            EXPECT_EQ(once.l2_load_bytes, from_file.l2_load_bytes) << name;
            EXPECT_EQ(once.l1.cycles_per_point, from_file.l1.cycles_per_point) << name;
            EXPECT_EQ(once.fp_cycles_per_point, from_file.fp_cycles_per_point) << name;
            EXPECT_EQ(once.flops_per_point, from_file.flops_per_point) << name;
            EXPECT_EQ(once.limiter.points_per_second, from_file.limiter.points_per_second) << name;
            EXPECT_EQ(once.notes, from_file.notes) << name;
        }
    }
}

TEST(AnalysedLaunch, MwpCwpForecastsWhatItForecastsFromTheFile) {
    const MachineModel machine = builtin_machine("hk-example");
    const kernel::KernelSpec spec = example("hk_matmul_table2");
    const AnalysedLaunch launch = analyse_launch(spec, spec.launch, {}, machine);
    EXPECT_EQ(launch.subgroup_size, 32);
    const auto once = mwp_cwp::predict_kernel_mwp(launch, machine);
    const auto from_file = mwp_cwp::predict_kernel_mwp(spec, spec.launch, {}, machine);
    EXPECT_EQ(once.kernel, "hk_matmul_table2");
    EXPECT_EQ(once.model.exec_cycles_app, from_file.model.exec_cycles_app);
    EXPECT_EQ(once.flops, from_file.flops);
    EXPECT_GT(once.model.exec_cycles_app, 0);
}

TEST(AnalysedLaunch, LaunchChecksComeFirst) {
    const kernel::KernelSpec spec = example("star3d_r4");
    // A block beyond CUDA's 1024 threads: usage error, before any analysis.
    EXPECT_EQ(error_kind(spec, {{2048, 1, 1}, {1, 1, 1}}, {}), ErrorKind::usage);
    // A fold longer than the domain along z, and an unknown parameter: input errors.
    EXPECT_EQ(error_kind(spec, {{32, 4, 4}, {1, 1, 4096}}, {}), ErrorKind::input);
    EXPECT_EQ(error_kind(spec, spec.launch, {{"no_such_parameter", 1}}), ErrorKind::input);
}
