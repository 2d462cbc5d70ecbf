#include "../../../src/probe/probe_session.hpp"
#include "simulated_probe_device.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

struct SessionFixture : ::testing::Test {
    testing::SimulatedProbeDevice device;
    ProbeOptions options;
    ProbeSession session{device, options};
    void SetUp() override { session.setup(); }
};

TEST_F(SessionFixture, LayoutPutsSweepAfterTheBatchRegions) {
    EXPECT_EQ(session.sm_count, 4);
    EXPECT_EQ(session.batch, 4);
    EXPECT_EQ(session.l2_bytes, 2 << 20);
    EXPECT_EQ(session.sweep_bytes, 256 * MiB); // max(4 x L2, 256 MiB)
    EXPECT_EQ(session.sweep_first, ProbeSession::batch_region_bytes * ProbeSession::max_batch / 4);
    EXPECT_EQ(session.cold_first * 4,
              static_cast<std::size_t>(ProbeSession::batch_region_bytes * ProbeSession::max_batch +
                                       session.sweep_bytes));
    EXPECT_EQ(session.record.device.name, "Simulated GPU");
}

TEST(ProbeSession, LittleFreeMemoryShrinksTheSweepRegion) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = 256 * MiB;
    ProbeOptions options;
    ProbeSession session(device, options);
    session.setup();
    // 60 % of free memory, less the batch (160 MiB) and cold (64 MiB) regions: at least 64 MiB
    EXPECT_EQ(session.sweep_bytes, 64 * MiB);
}

TEST_F(SessionFixture, PlansForPrivateCachesAndL2) {
    const SweepPlan l1 = session.plan_for("l1");
    EXPECT_TRUE(l1.per_sm);
    EXPECT_EQ(l1.search.start_bytes, 1 * KiB);
    EXPECT_EQ(l1.search.step_bytes, 512);
    EXPECT_EQ(l1.search.batch, 4);
    EXPECT_EQ(l1.repetitions, 3);
    const SweepPlan l2 = session.plan_for("l2");
    EXPECT_FALSE(l2.per_sm);
    EXPECT_EQ(l2.repetitions, 1);
    EXPECT_EQ(l2.search.step_bytes, 64 * KiB);
    EXPECT_EQ(l2.search.start_bytes, 1 * MiB);
    EXPECT_EQ(l2.search.max_bytes, 8 * MiB); // min(4 x L2, sweep)
}

TEST_F(SessionFixture, BatchRemeasuresSizesThatSharedAnSm) {
    RawBenchmark bench;
    device.block_sms = {0, 1, 1}; // block 2 ran on block 1's SM
    const int before = device.fine_launches;
    const auto times = session.measure_batch(ProbeLoad::global_ca, {4 * KiB, 8 * KiB, 64 * KiB},
                                             128, 256, bench, 2, true);
    EXPECT_EQ(device.fine_launches - before, 2); // the batch, then 64 KiB alone
    ASSERT_EQ(bench.series.size(), 3U);
    EXPECT_EQ(bench.series[2].size_bytes, 64 * KiB);
    EXPECT_EQ(bench.series[2].repetition, 2);
    EXPECT_EQ(bench.series[2].values, times[2]);
    EXPECT_EQ(times[2], device.l1.chase(64 * KiB, 128, 256));
}

TEST_F(SessionFixture, SizeOrFallsBack) {
    EXPECT_EQ(session.size_or("l1", 7), 7);
    session.sizes["l1"] = 24 * KiB;
    EXPECT_EQ(session.size_or("l1", 7), 24 * KiB);
}

TEST_F(SessionFixture, SizeBeyondItsRegionIsRefused) {
    EXPECT_THROW(session.fine_grained(ProbeLoad::global_ca, {2 * MiB}, 128, 256, true, false, 0,
                                      ProbeSession::batch_region_bytes),
                 std::exception);
}

} // namespace
} // namespace kerncast::probe
