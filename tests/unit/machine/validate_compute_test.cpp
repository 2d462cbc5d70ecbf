// The rules of the SM's values, the banks' miss pass and MWP-CWP (validate_compute.cpp).
#include "validate_fixture.hpp"

#include <fmt/format.h>

using namespace kerncast;
using namespace kerncast::machine_test;

TEST(ValidateMachine, CountsAndSizesMustBePositive) {
    MachineModel m = valid_machine();
    m.compute.sm_count->value = 0;
    auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be positive, got 0");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");

    m = valid_machine();
    m.memory[0].size_bytes->value = -1;
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/memory/0/size_bytes");

    m = valid_machine();
    m.compute.reserved_shared_memory_per_block_bytes = Sourced<int>{0, "sheet"}; // zero is fine
    EXPECT_NO_THROW(validate_machine(m, "x"));
}

TEST(ValidateMachine, AWavefrontWindowOfZeroMeansNoDistance) {
    MachineModel m = valid_machine();
    m.shared_memory_banks.wavefront_window_bytes = Sourced<int>{0, "sheet"};
    EXPECT_NO_THROW(validate_machine(m, "x"));
    m.shared_memory_banks.wavefront_window_bytes->value = -1;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must not be negative, got -1");
    EXPECT_EQ(error->where().json_path, "/shared_memory_banks/wavefront_window_bytes");
}

TEST(ValidateMachine, WarpDurationSpreadIsNotNegative) {
    // compute.warp_duration_cv: 0 (warps that end together) is fine, a negative spread is not.
    MachineModel m = valid_machine();
    m.compute.warp_duration_cv = Sourced<double>{0.0, "sheet"};
    EXPECT_NO_THROW(validate_machine(m, "x"));
    m.compute.warp_duration_cv->value = -0.1;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must not be negative, got -0.1");
    EXPECT_EQ(error->where().json_path, "/compute/warp_duration_cv");
}

TEST(ValidateMachine, MissPassIsNoneOrAfterHits) {
    MachineModel m = valid_machine();
    ASSERT_EQ(m.memory[1].name, "l2");
    m.memory[1].latency_cycles = Sourced<double>{200.0, "sheet"};
    m.shared_memory_banks.miss_pass = Sourced<std::string>{"after_hits", "sheet"};
    EXPECT_NO_THROW(validate_machine(m, "x"));
    m.shared_memory_banks.miss_pass->value = "none";
    EXPECT_NO_THROW(validate_machine(m, "x"));
    m.shared_memory_banks.miss_pass->value = "after_hit";
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown miss_pass \"after_hit\"");
    EXPECT_EQ(error->where().json_path, "/shared_memory_banks/miss_pass");
    ASSERT_FALSE(error->notes().empty());
    EXPECT_EQ(error->notes().front(), "did you mean \"after_hits\"?");
    // The pass needs to know how long a fill is in flight: the L2 latency.
    m = valid_machine();
    m.shared_memory_banks.miss_pass = Sourced<std::string>{"after_hits", "sheet"};
    for (auto& level : m.memory)
        level.latency_cycles.reset();
    const auto no_latency = validation_error(m);
    ASSERT_TRUE(no_latency);
    EXPECT_NE(no_latency->message().find("needs the L2 latency"), std::string::npos);
    EXPECT_EQ(no_latency->where().json_path, "/shared_memory_banks/miss_pass");
}

TEST(ValidateMachine, ClocksAndSharedMemoryLimitsAreConsistent) {
    MachineModel m = valid_machine();
    m.compute.base_clock_mhz = Sourced<double>{1500, "sheet"};
    m.compute.boost_clock_mhz = Sourced<double>{1410, "sheet"};
    auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "base_clock_mhz (1500) exceeds boost_clock_mhz (1410)");

    m = valid_machine();
    m.compute.shared_memory_per_block_bytes = Sourced<int>{64 * 1024, "sheet"};
    m.compute.shared_memory_per_block_optin_bytes = Sourced<int>{48 * 1024, "sheet"};
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/compute/shared_memory_per_block_bytes");
}

TEST(ValidateMachine, CarveOutsEndAtTheSharedMemoryPerSm) {
    MachineModel m = valid_machine();
    m.compute.shared_memory_per_sm_bytes = Sourced<int>{100 * 1024, "sheet"};
    m.compute.shared_memory_carveouts_kib = Sourced<std::vector<int>>{{0, 8, 64}, "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "the largest carve-out (64 KiB) must equal "
                                "shared_memory_per_sm_bytes (102400 B)");
}

TEST(ValidateMachine, RegisterGranularityIsWarpOrBlock) {
    MachineModel m = valid_machine();
    m.compute.register_allocation_granularity = Sourced<std::string>{"thread", "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "expected \"warp\" or \"block\", got \"thread\"");
}
