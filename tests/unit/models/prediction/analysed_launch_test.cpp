// A launch analysed and bound once (analysed_launch.hpp): every model forecasts from it what it
// forecasts from the kernel file, and the launch checks run once, up front.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/volumes/volume_notes.hpp"

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
            EXPECT_EQ(once.fp.cycles_per_point, from_file.fp.cycles_per_point) << name;
            EXPECT_EQ(once.fp.flops_per_point, from_file.fp.flops_per_point) << name;
            EXPECT_EQ(once.limiter.points_per_second, from_file.limiter.points_per_second) << name;
            EXPECT_EQ(volume_notes(once, machine_id), volume_notes(from_file, machine_id)) << name;
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

TEST(AnalysedLaunch, ArraysLargerThanTheDeviceMemoryAreRefused) {
    // fd5pt_16 at n: u (n + 2)^2 and res n^2 floats. n = 70000: 19.6 + 19.6 GB = 39.2 GB, which
    // the A100's 40 GiB (42.9 GB) hold; n = 75000: 45.0 GB, which they do not.
    const kernel::KernelSpec spec = example("fd5pt_16");
    const MachineModel a100 = builtin_machine("a100-sxm4-40gb");
    const auto bound_at = [&](std::int64_t n) {
        return analyse_launch(spec, {{16, 16, 1}, {1, 1, 1}}, {{"n", n}}, a100).bound;
    };
    EXPECT_NO_THROW(check_arrays_fit_device_memory(bound_at(70000), a100));
    const kernel::BoundKernel too_large = bound_at(75000);
    try {
        check_arrays_fit_device_memory(too_large, a100);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "the kernel's arrays need 45 GB, more than the 42.95 GB of device "
                               "memory of machine 'a100-sxm4-40gb': a launch that cannot be "
                               "allocated is not forecast");
        ASSERT_EQ(e.notes().size(), 2u);
        EXPECT_EQ(e.notes()[0], "arrays: u 22.5 GB, res 22.5 GB");
        EXPECT_EQ(e.notes()[1], "parameters: n = 75000");
        EXPECT_NE(e.where().file.find("fd5pt_16.yaml"), std::string::npos);
    }
    // Both models refuse it; the 80 GB A100 holds it; a machine that does not record its DRAM
    // size is not checked.
    const AnalysedLaunch launch =
        analyse_launch(spec, {{16, 16, 1}, {1, 1, 1}}, {{"n", 75000}}, a100);
    EXPECT_THROW(predict_launch(launch, a100), Error);
    const MachineModel h100 = builtin_machine("h100-sxm5-80gb");
    EXPECT_NO_THROW(check_arrays_fit_device_memory(too_large, builtin_machine("a100-sxm4-80gb")));
    MachineModel unsized = h100;
    for (MemoryLevel& level : unsized.memory)
        if (level.name == "dram")
            level.size_bytes = {};
    const kernel::BoundKernel huge =
        analyse_launch(spec, {{16, 16, 1}, {1, 1, 1}}, {{"n", 262144}}, h100).bound;
    EXPECT_THROW(check_arrays_fit_device_memory(huge, h100), Error);
    EXPECT_THROW(mwp_cwp::predict_kernel_mwp(
                     analyse_launch(spec, {{16, 16, 1}, {1, 1, 1}}, {{"n", 262144}}, h100), h100),
                 Error);
    EXPECT_NO_THROW(check_arrays_fit_device_memory(huge, unsized));
}
