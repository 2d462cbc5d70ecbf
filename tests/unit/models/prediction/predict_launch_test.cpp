// predict_launch: the analysis, parameter and fold checks, then the volume model, as one call.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::KernelSpec star3d_r4() {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
}

} // namespace

TEST(PredictLaunch, EqualsTheAnalysisThenPredictVolumes) {
    const auto spec = star3d_r4();
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    const kernel::LaunchConfig launch{{16, 2, 32}, {1, 1, 2}};
    const std::vector<std::pair<std::string, std::int64_t>> overrides{{"nz", 256}};
    const auto analysis = analysis::analyze(spec, launch);
    const VolumePrediction expected =
        predict_volumes(analysis, analysis::bind(analysis, overrides), machine);
    const VolumePrediction got = predict_launch(spec, launch, overrides, machine);
    EXPECT_EQ(got.points, expected.points);
    EXPECT_EQ(got.blocks, expected.blocks);
    EXPECT_EQ(got.dram_load_bytes, expected.dram_load_bytes);
    EXPECT_EQ(got.l2_load_bytes, expected.l2_load_bytes);
    EXPECT_EQ(got.limiter.points_per_second, expected.limiter.points_per_second);
    // nz = 256 with a 4-point halo: 248 interior layers of 632 x 504 points.
    EXPECT_EQ(got.points, 248 * 504 * 632);
}

TEST(PredictLaunch, AsksForRegistersOnlyForAValidLaunch) {
    const auto spec = star3d_r4();
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    int asked = 0;
    const RegistersForLaunch registers = [&asked](const kernel::LaunchConfig&) {
        ++asked;
        RegisterCount count;
        count.per_thread = 128;
        count.source = RegisterSource::ptxas;
        return count;
    };
    // A fold longer than the domain along z: rejected before any register count.
    EXPECT_THROW(predict_launch(spec, {{32, 4, 4}, {1, 1, 1000000}}, {}, machine, {}, registers),
                 Error);
    EXPECT_THROW(predict_launch(spec, {{2048, 1, 1}, {1, 1, 1}}, {}, machine, {}, registers),
                 Error);
    EXPECT_EQ(asked, 0);
    const VolumePrediction got =
        predict_launch(spec, {{32, 4, 4}, {1, 1, 2}}, {}, machine, {}, registers);
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(got.placement.registers.per_thread, 128);
    EXPECT_EQ(got.placement.registers.source, RegisterSource::ptxas);
    // 128 registers x 512 threads = 64 Ki registers: one block per SM of the A100.
    EXPECT_EQ(got.placement.occupancy.active_blocks_per_sm, 1);
}
