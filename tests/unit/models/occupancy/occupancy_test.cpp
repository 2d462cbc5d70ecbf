// Occupancy limits, each binding in turn, on CC 1.0 and CC 8.0-like machines. Expected values
// are worked out by hand from the CUDA Occupancy Calculator's rules in each test's comment.
#include "../test_machines.hpp"
#include "kerncast/error.hpp"
#include "kerncast/models/occupancy/occupancy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

using test::cc80_like;
using test::hk_example;
using ::testing::HasSubstr;

std::string error_of(const LaunchResources& launch, const MachineModel& machine) {
    try {
        compute_occupancy(launch, machine);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        return e.message();
    }
    ADD_FAILURE() << "expected an input error";
    return "";
}

// --- CC 1.0 --------------------------------------------------------------------------

TEST(OccupancyCc10, RegistersBind) {
    // 256 threads = 8 warps; 8 * 32 * 16 = 4096 registers (a multiple of 256) per block;
    // 8192 / 4096 = 2 blocks. Warps allow 24 / 8 = 3, blocks 8, no shared memory.
    const auto r = compute_occupancy({256, 16, 0}, hk_example());
    EXPECT_EQ(r.warps_per_block, 8);
    EXPECT_EQ(r.registers_per_block_allocated, 4096);
    EXPECT_EQ(r.blocks_limited_by_registers, 2);
    EXPECT_EQ(r.blocks_limited_by_warps, 3);
    EXPECT_EQ(r.blocks_limited_by_blocks, 8);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, std::nullopt);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::registers);
    EXPECT_EQ(r.active_blocks_per_sm, 2);
    EXPECT_EQ(r.active_warps_per_sm, 16);
    EXPECT_DOUBLE_EQ(r.occupancy, 16.0 / 24.0);
}

TEST(OccupancyCc10, WarpsRoundedToPairsForRegisters) {
    // 96 threads = 3 warps, charged as 4 (warp allocation granularity 2): 4 * 32 * 10 = 1280
    // registers; 8192 / 1280 = 6 blocks (3 * 32 * 10 = 960 -> 1024 would allow 8).
    const auto r = compute_occupancy({96, 10, 0}, hk_example());
    EXPECT_EQ(r.registers_per_block_allocated, 1280);
    EXPECT_EQ(r.blocks_limited_by_registers, 6);
    EXPECT_EQ(r.blocks_limited_by_warps, 8);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::registers);
    EXPECT_EQ(r.active_blocks_per_sm, 6);
    EXPECT_EQ(r.active_warps_per_sm, 18);
}

TEST(OccupancyCc10, SharedMemoryBinds) {
    // 5000 B -> 5120 B (units of 512); 16384 / 5120 = 3 blocks. Registers: 4 * 32 * 8 = 1024
    // -> 8 blocks; warps 24 / 4 = 6; blocks 8.
    const auto r = compute_occupancy({128, 8, 5000}, hk_example());
    EXPECT_EQ(r.shared_memory_per_block_allocated_bytes, 5120);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 3);
    EXPECT_EQ(r.blocks_limited_by_registers, 8);
    EXPECT_EQ(r.blocks_limited_by_warps, 6);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::shared_memory);
    EXPECT_EQ(r.active_blocks_per_sm, 3);
    EXPECT_EQ(r.active_warps_per_sm, 12);
}

TEST(OccupancyCc10, WarpsBind) {
    // 512 threads = 16 warps: 24 / 16 = 1 block. Registers 16 * 32 * 8 = 4096 -> 2 blocks.
    const auto r = compute_occupancy({512, 8, 0}, hk_example());
    EXPECT_EQ(r.blocks_limited_by_warps, 1);
    EXPECT_EQ(r.blocks_limited_by_registers, 2);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::warps);
    EXPECT_EQ(r.active_blocks_per_sm, 1);
    EXPECT_EQ(r.active_warps_per_sm, 16);
}

TEST(OccupancyCc10, BlocksBind) {
    // 32 threads = 1 warp, charged as 2: 2 * 32 * 8 = 512 registers -> 16 blocks; warps 24;
    // shared memory 100 B -> 512 B -> 32 blocks; the 8-block limit binds.
    const auto r = compute_occupancy({32, 8, 100}, hk_example());
    EXPECT_EQ(r.registers_per_block_allocated, 512);
    EXPECT_EQ(r.blocks_limited_by_registers, 16);
    EXPECT_EQ(r.blocks_limited_by_warps, 24);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 32);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::blocks);
    EXPECT_EQ(r.active_blocks_per_sm, 8);
    EXPECT_EQ(r.active_warps_per_sm, 8);
}

TEST(OccupancyCc10, TieKeepsTheEarlierLimit) {
    // 384 threads = 12 warps: warps allow 2, registers 12 * 32 * 10 = 3840 -> 2 as well.
    const auto r = compute_occupancy({384, 10, 0}, hk_example());
    EXPECT_EQ(r.blocks_limited_by_warps, 2);
    EXPECT_EQ(r.blocks_limited_by_registers, 2);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::warps);
}

TEST(OccupancyCc10, PartialWarpCountsAsAWarp) {
    // 100 threads occupy 4 warps.
    EXPECT_EQ(compute_occupancy({100, 0, 0}, hk_example()).warps_per_block, 4);
}

TEST(OccupancyCc10, ImpossibleLaunches) {
    EXPECT_THAT(error_of({513, 8, 0}, hk_example()),
                HasSubstr("513 threads per block exceed the maximum of 512"));
    EXPECT_THAT(error_of({128, 125, 0}, hk_example()),
                HasSubstr("125 registers per thread exceed the maximum of 124"));
    // 16 warps * 32 * 17 = 8704 registers > 8192.
    EXPECT_THAT(error_of({512, 17, 0}, hk_example()),
                HasSubstr("a block needs 8704 registers (allocated), the SM has 8192"));
    EXPECT_THAT(error_of({128, 8, 16385}, hk_example()),
                HasSubstr("16385 B of shared memory per block exceed the per-block limit of "
                          "16384 B"));
    EXPECT_THAT(error_of({0, 8, 0}, hk_example()), HasSubstr("threads per block must be positive"));
    EXPECT_THAT(error_of({32, -1, 0}, hk_example()), HasSubstr("must not be negative"));
}

TEST(OccupancyCc10, ErrorNamesTheMachine) {
    EXPECT_THAT(error_of({513, 8, 0}, hk_example()), HasSubstr("'hk-example-test'"));
}

// --- CC 8.0-like ------------------------------------------------------------------------

TEST(OccupancyCc80, RegistersBind) {
    // 64 registers * 32 = 2048 per warp; 65536 / 2048 = 32 warps = 4 blocks of 8 warps.
    // Warps allow 64 / 8 = 8; shared memory: only the 1 KiB reservation -> 164 blocks.
    const auto r = compute_occupancy({256, 64, 0}, cc80_like());
    EXPECT_EQ(r.registers_per_block_allocated, 16384);
    EXPECT_EQ(r.blocks_limited_by_registers, 4);
    EXPECT_EQ(r.blocks_limited_by_warps, 8);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 164);
    EXPECT_EQ(r.shared_memory_per_block_allocated_bytes, 1024);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::registers);
    EXPECT_EQ(r.active_blocks_per_sm, 4);
    EXPECT_EQ(r.active_warps_per_sm, 32);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
}

TEST(OccupancyCc80, RegisterUnitAndWarpGranularity) {
    // 33 * 32 = 1056 -> 1280 registers per warp (unit 256); 65536 / 1280 = 51 warps, rounded
    // down to a multiple of 4: 48; blocks of 3 warps: 16 (51 / 3 = 17 without the rounding).
    const auto r = compute_occupancy({96, 33, 0}, cc80_like());
    EXPECT_EQ(r.registers_per_block_allocated, 3 * 1280);
    EXPECT_EQ(r.blocks_limited_by_registers, 16);
    EXPECT_EQ(r.blocks_limited_by_warps, 21);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::registers);
    EXPECT_EQ(r.active_blocks_per_sm, 16);
}

TEST(OccupancyCc80, SharedMemoryBindsWithReservation) {
    // 41000 B + 1024 B reserved = 42024 -> 42112 B (units of 128); 167936 / 42112 = 3 blocks
    // (without the reservation 41088 B would allow 4). Registers: 32 * 32 = 1024 per warp ->
    // 64 warps -> 16 blocks; warps 64 / 4 = 16.
    const auto r = compute_occupancy({128, 32, 41000}, cc80_like());
    EXPECT_EQ(r.shared_memory_per_block_allocated_bytes, 42112);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 3);
    EXPECT_EQ(r.blocks_limited_by_registers, 16);
    EXPECT_EQ(r.blocks_limited_by_warps, 16);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::shared_memory);
    EXPECT_EQ(r.active_blocks_per_sm, 3);
    EXPECT_EQ(r.active_warps_per_sm, 12);
}

TEST(OccupancyCc80, OptInSharedMemoryAllowsOneLargeBlock) {
    // 166912 B (the opt-in maximum) + 1024 B = 167936 B: exactly one block per SM.
    const auto r = compute_occupancy({128, 32, 166912}, cc80_like());
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 1);
    EXPECT_EQ(r.active_blocks_per_sm, 1);
}

TEST(OccupancyCc80, WarpsBind) {
    // 1024 threads = 32 warps: 64 / 32 = 2 blocks; registers 16 * 32 = 512 per warp -> 128
    // warps -> 4 blocks.
    const auto r = compute_occupancy({1024, 16, 0}, cc80_like());
    EXPECT_EQ(r.blocks_limited_by_warps, 2);
    EXPECT_EQ(r.blocks_limited_by_registers, 4);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::warps);
    EXPECT_EQ(r.active_warps_per_sm, 64);
    EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
}

TEST(OccupancyCc80, BlocksBind) {
    // 32 threads: warps allow 64 blocks, registers 128, shared memory 164; 32 blocks bind.
    const auto r = compute_occupancy({32, 16, 0}, cc80_like());
    EXPECT_EQ(r.blocks_limited_by_warps, 64);
    EXPECT_EQ(r.blocks_limited_by_registers, 128);
    EXPECT_EQ(r.blocks_limited_by_shared_memory, 164);
    EXPECT_EQ(r.binding_limit, OccupancyLimit::blocks);
    EXPECT_EQ(r.active_blocks_per_sm, 32);
    EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
}

TEST(OccupancyCc80, ImpossibleLaunches) {
    EXPECT_THAT(error_of({1025, 16, 0}, cc80_like()),
                HasSubstr("1025 threads per block exceed the maximum of 1024"));
    EXPECT_THAT(error_of({128, 256, 0}, cc80_like()),
                HasSubstr("256 registers per thread exceed the maximum of 255"));
    // 65 * 32 = 2080 -> 2304 per warp, 32 warps: 73728 > 65536 per block.
    EXPECT_THAT(error_of({1024, 65, 0}, cc80_like()),
                HasSubstr("a block needs 73728 registers (allocated), more than the 65536 one "
                          "block may have"));
    EXPECT_THAT(error_of({128, 32, 166913}, cc80_like()),
                HasSubstr("166913 B of shared memory per block exceed the per-block limit of "
                          "166912 B"));
}

TEST(OccupancyCc80, PerBlockRegisterCheckRoundsWarpsToSubPartitions) {
    // 800 threads = 25 warps x (80 x 32 = 2560 registers) = 64000 <= 65536, but the hardware
    // checks 28 warps (rounded up to the 4 sub-partitions): 71680 > 65536.
    EXPECT_THAT(error_of({800, 80, 0}, cc80_like()),
                HasSubstr("a block needs 71680 registers (allocated), more than the 65536 one "
                          "block may have"));
}

TEST(OccupancyMachine, MaxRegistersPerThreadIsOnlyALimit) {
    auto machine = hk_example();
    machine.compute.max_registers_per_thread.reset();
    EXPECT_EQ(compute_occupancy({256, 16, 0}, machine).active_blocks_per_sm, 2);
}

TEST(OccupancyMachine, MissingFieldIsAnInputErrorNamingMachineAndField) {
    auto machine = cc80_like();
    machine.compute.registers_per_sm.reset();
    const std::string message = error_of({128, 32, 0}, machine);
    EXPECT_THAT(message, HasSubstr("machine 'cc80-test' lacks compute.registers_per_sm"));
    // Without registers the register file is not consulted, so the same machine works.
    EXPECT_EQ(compute_occupancy({128, 0, 0}, machine).blocks_limited_by_registers, std::nullopt);

    auto cc10 = hk_example();
    cc10.compute.warp_allocation_granularity.reset();
    EXPECT_THAT(error_of({128, 8, 0}, cc10), HasSubstr("compute.warp_allocation_granularity"));
    cc10 = hk_example();
    cc10.compute.max_warps_per_sm.reset();
    cc10.compute.max_threads_per_sm.reset();
    EXPECT_THAT(error_of({128, 8, 0}, cc10), HasSubstr("compute.max_warps_per_sm"));
    cc10 = hk_example();
    cc10.compute.register_allocation_granularity = test::known(std::string("thread"));
    EXPECT_THAT(error_of({128, 8, 0}, cc10), HasSubstr("expected \"warp\" or \"block\""));
}

TEST(OccupancyMachine, ThreadsPerSmAloneGivesTheWarpLimit) {
    auto machine = hk_example();
    machine.compute.max_warps_per_sm.reset(); // 768 threads / 32 = 24 warps
    const auto r = compute_occupancy({128, 0, 0}, machine);
    EXPECT_EQ(r.max_warps_per_sm, 24);
    EXPECT_EQ(r.blocks_limited_by_warps, 6);
}

} // namespace
} // namespace kerncast::models
