#include "expect_error.hpp"
#include "kerncast/machine/validate.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

MemoryLevel level(const std::string& name, const std::string& shared_by) {
    MemoryLevel result;
    result.name = name;
    result.shared_by = shared_by;
    return result;
}

// A valid machine built in code; each test breaks one rule.
MachineModel valid_machine() {
    MachineModel m;
    m.identity = {"toy", "Toy GPU", "test", "Toy", 8, 0, false, ""};
    m.sources["sheet"] = Provenance{SourceKind::datasheet, "Toy datasheet", ""};
    m.compute.sm_count = Sourced<int>{4, "sheet"};
    m.compute.warp_size = Sourced<int>{32, "sheet"};
    MemoryLevel l1 = level("l1", "sm");
    l1.size_bytes = Sourced<std::int64_t>{128 * 1024, "sheet"};
    l1.line_bytes = Sourced<int>{128, "sheet"};
    l1.sector_bytes = Sourced<int>{32, "sheet"};
    MemoryLevel l2 = level("l2", "gpu");
    l2.size_bytes = Sourced<std::int64_t>{4 << 20, "sheet"};
    MemoryLevel dram = level("dram", "gpu");
    dram.peak_bandwidth_gbs = Sourced<double>{500, "sheet"};
    m.memory = {l1, l2, dram};
    return m;
}

std::optional<Error> validation_error(const MachineModel& m) {
    return caught_error([&] { validate_machine(m, "toy.json"); });
}

} // namespace

TEST(ValidateMachine, AcceptsAValidMachine) {
    EXPECT_NO_THROW(validate_machine(valid_machine(), "x"));
}

TEST(ValidateMachine, EverySourceMustBeDeclared) {
    MachineModel m = valid_machine();
    m.memory[2].peak_bandwidth_gbs->source = "nowhere";
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "source \"nowhere\" is not declared in \"sources\"");
    EXPECT_EQ(error->where().json_path, "/memory/2/peak_bandwidth_gbs");
    EXPECT_EQ(error->where().file, "toy.json");
}

TEST(ValidateMachine, MeasuredSourceNeedsARun) {
    MachineModel m = valid_machine();
    m.sources["probe"] = Provenance{SourceKind::measured, "kerncast probe", ""};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/sources/probe/run");
}

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

TEST(ValidateMachine, SectorMustDivideLine) {
    MachineModel m = valid_machine();
    m.memory[0].sector_bytes->value = 48;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "sector_bytes (48) must divide line_bytes (128)");
}

TEST(ValidateMachine, SustainedBandwidthCannotExceedPeak) {
    MachineModel m = valid_machine();
    m.memory[2].sustained_bandwidth_gbs = Sourced<double>{600, "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "sustained_bandwidth_gbs (600) exceeds peak_bandwidth_gbs (500)");
    EXPECT_EQ(error->where().json_path, "/memory/2/sustained_bandwidth_gbs");
}

TEST(ValidateMachine, L1MustBeSmallerThanL2) {
    MachineModel m = valid_machine();
    m.memory[0].size_bytes->value = 8 << 20;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "the L1 (8388608 B per SM) must be smaller than the L2 (4194304 B)");
}

TEST(ValidateMachine, SharedMemoryCannotExceedTheUnifiedL1) {
    MachineModel m = valid_machine();
    m.compute.shared_memory_per_sm_bytes = Sourced<int>{228 * 1024, "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/compute/shared_memory_per_sm_bytes");
}

TEST(ValidateMachine, DramIsRequiredAndLevelsAreOrdered) {
    MachineModel m = valid_machine();
    m.memory.pop_back();
    auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing the required memory level \"dram\"");
    EXPECT_EQ(error->where().json_path, "/memory");

    m = valid_machine();
    std::swap(m.memory[0], m.memory[1]);
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/memory/1/name");
}

TEST(ValidateMachine, UnknownLevelNameSuggestsOne) {
    MachineModel m = valid_machine();
    m.memory[1].name = "l22";
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown memory level \"l22\"");
    EXPECT_TRUE(has_note(*error, "did you mean \"l2\"?"));
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

TEST(ValidateMachine, AtomicServiceTableEntriesAreInRange) {
    MachineModel m = valid_machine();
    m.atomic_service_times = AtomicServiceTable{"sheet", {{4, 33, 0, 10.0}}};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be between 1 and the warp size 32, got 33");
    EXPECT_EQ(error->where().json_path, "/atomic_service_times/entries/0/active_threads");
}

TEST(ValidateMachine, RegisterGranularityIsWarpOrBlock) {
    MachineModel m = valid_machine();
    m.compute.register_allocation_granularity = Sourced<std::string>{"thread", "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "expected \"warp\" or \"block\", got \"thread\"");
}
