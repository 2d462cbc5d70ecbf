// launch_registers: a fixed request fills the options and asks nothing per launch; auto counts
// with ptxas, its counter made at once or when first asked.
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::KernelSpec star3d_r4() {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
}

RegisterRequest request_of(RegisterRequest::Kind kind, int count = 0) {
    RegisterRequest request;
    request.kind = kind;
    request.count = count;
    return request;
}

// A machine whose SM (1.0) no NVRTC compiles for: making ptxas's counter fails.
MachineModel machine_ptxas_cannot_target() {
    MachineModel machine = resolve_machine("a100-sxm4-40gb");
    machine.identity.cc_major = 1;
    machine.identity.cc_minor = 0;
    return machine;
}

} // namespace

TEST(LaunchRegisters, AFixedCountFillsTheOptions) {
    auto spec = star3d_r4();
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    RegisterCount registers;
    const auto per_launch = launch_registers(request_of(RegisterRequest::Kind::count, 48), spec, {},
                                             machine, registers);
    EXPECT_FALSE(per_launch);
    EXPECT_EQ(registers.per_thread, 48);
    EXPECT_EQ(registers.source, RegisterSource::command_line);

    spec.registers_per_thread = 40; // no request: the kernel file's
    RegisterCount from_file;
    EXPECT_FALSE(
        launch_registers(request_of(RegisterRequest::Kind::none), spec, {}, machine, from_file));
    EXPECT_EQ(from_file.per_thread, 40);
    EXPECT_EQ(from_file.source, RegisterSource::kernel_file);
}

TEST(LaunchRegisters, TheCounterIsMadeAtOnceOrWhenFirstAsked) {
    const auto spec = star3d_r4();
    const MachineModel machine = machine_ptxas_cannot_target();
    const auto automatic = request_of(RegisterRequest::Kind::automatic);
    RegisterCount registers;
    EXPECT_THROW(launch_registers(automatic, spec, {}, machine, registers, CounterCreation::now),
                 Error);
    const auto later = launch_registers(automatic, spec, {}, machine, registers);
    ASSERT_TRUE(later); // nothing made yet
    EXPECT_THROW(later(spec.launch), Error);
    EXPECT_EQ(registers.per_thread, 0); // untouched: the count comes per launch
}

TEST(LaunchRegisters, AutoIsPtxasCountOfEachLaunch) {
    if (runtime::nvrtc_supported_architectures().empty())
        GTEST_SKIP() << "built without CUDA: no NVRTC";
    const auto spec = star3d_r4();
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    RegisterCount registers;
    const auto per_launch = launch_registers(request_of(RegisterRequest::Kind::automatic), spec, {},
                                             machine, registers, CounterCreation::now);
    ASSERT_TRUE(per_launch);
    const RegisterCount counted = per_launch(spec.launch);
    const RegisterCount expected = codegen::RegisterCounter(spec, {}, machine).count(spec.launch);
    EXPECT_EQ(counted.source, RegisterSource::ptxas);
    EXPECT_EQ(counted.per_thread, expected.per_thread);
    EXPECT_GT(counted.per_thread, 0);
    EXPECT_EQ(counted.target, "sm_80");
}
