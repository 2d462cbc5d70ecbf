// unknown_registers_warning: only where registers were unknown and the DRAM in-flight limit
// binds; with NVRTC the size of the effect is the same launch predicted with ptxas's count.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"
#include "kerncast/models/prediction/unknown_registers.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::KernelSpec star3d_r4() {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
}

} // namespace

TEST(UnknownRegisters, NoWarningWithoutTheInFlightLimitOrWithACount) {
    const auto spec = star3d_r4();
    // On the A100 star3d_r4's default launch keeps enough loads in flight: DRAM binds.
    const MachineModel a100 = resolve_machine("a100-sxm4-40gb");
    const VolumePrediction plain = predict_launch(spec, spec.launch, {}, a100);
    ASSERT_NE(plain.limiter.binding, Limiter::dram_in_flight);
    EXPECT_FALSE(unknown_registers_warning(spec, spec.launch, {}, a100, {}, plain));
    // On the H100 the in-flight limit binds; a stated count leaves nothing to warn about.
    const MachineModel h100 = resolve_machine("h100-sxm5-80gb");
    VolumeOptions counted;
    counted.registers.per_thread = 32;
    counted.registers.source = RegisterSource::command_line;
    const VolumePrediction with_count = predict_launch(spec, spec.launch, {}, h100, counted);
    EXPECT_FALSE(unknown_registers_warning(spec, spec.launch, {}, h100, counted, with_count));
}

TEST(UnknownRegisters, TheWarningNamesTheEffectOfPtxassCount) {
    const auto spec = star3d_r4();
    const MachineModel h100 = resolve_machine("h100-sxm5-80gb");
    const VolumePrediction unknown = predict_launch(spec, spec.launch, {}, h100);
    ASSERT_EQ(unknown.limiter.binding, Limiter::dram_in_flight);
    const auto warning = unknown_registers_warning(spec, spec.launch, {}, h100, {}, unknown);
    ASSERT_TRUE(warning);
    EXPECT_EQ(warning->rfind("Registers unknown: the binding DRAM in-flight limit assumes", 0), 0u)
        << *warning;
    if (runtime::nvrtc_supported_architectures().empty()) {
        EXPECT_NE(warning->find("the effect cannot be sized here"), std::string::npos) << *warning;
        return;
    }
    // The figure is the same launch predicted with ptxas's count (an oracle: predict_launch with
    // launch_registers(auto)).
    RegisterRequest automatic;
    automatic.kind = RegisterRequest::Kind::automatic;
    RegisterCount unused;
    const VolumePrediction counted =
        predict_launch(spec, spec.launch, {}, h100, {},
                       launch_registers(automatic, spec, {}, h100, unused, CounterCreation::now));
    const std::string figures = fmt::format(
        "({} registers, --registers auto) this launch is forecast at {:.2f} instead of {:.2f} "
        "Gpoints/s",
        counted.placement.registers.per_thread, counted.limiter.points_per_second / 1e9,
        unknown.limiter.points_per_second / 1e9);
    EXPECT_NE(warning->find(figures), std::string::npos) << *warning;
    EXPECT_LT(counted.limiter.points_per_second, unknown.limiter.points_per_second);
}

// Where ptxas's count changes the forecast by less than 0.5 %, the warning says the forecast is
// the same rather than "+0 %": the staged hotspot on the A100 holds 2048 threads an SM with
// kerncast's 20 registers as with unknown ones.
TEST(UnknownRegisters, AnUnchangedForecastIsSaidToBeTheSame) {
    if (runtime::nvrtc_supported_architectures().empty())
        GTEST_SKIP() << "no NVRTC: the effect cannot be sized";
    const auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                               "/examples/autotuning/bat_hotspot_shared.yaml");
    const MachineModel a100 = resolve_machine("a100-sxm4-40gb");
    const VolumePrediction unknown = predict_launch(spec, spec.launch, {}, a100);
    ASSERT_EQ(unknown.limiter.binding, Limiter::dram_in_flight);
    const auto warning = unknown_registers_warning(spec, spec.launch, {}, a100, {}, unknown);
    ASSERT_TRUE(warning);
    EXPECT_NE(warning->find(fmt::format("this launch is forecast at the same {:.2f} Gpoints/s "
                                        "(within 0.5 %)",
                                        unknown.limiter.points_per_second / 1e9)),
              std::string::npos)
        << *warning;
    EXPECT_EQ(warning->find("instead of"), std::string::npos) << *warning;
}
