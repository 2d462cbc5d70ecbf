// Device test of the probe's L2 load/store mixes (registered only when a GPU is present): the
// bandwidth group measured on the GPU, checked for what must hold whatever the GPU, not for
// values: no GPU figure is expected here that was not measured.
#include "kerncast/machine/validate.hpp"
#include "probed_group.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

TEST(DeviceProbeL2Mix, EveryMixIsMeasuredAndLoadsAloneAgreeWithTheL2LoadStream) {
    const auto [analysis, machine] = testing::probe_group_on_device("bandwidth");
    const ProbeValue* loads = analysis.find("l2", "load_bandwidth_gbs");
    ASSERT_NE(loads, nullptr);
    EXPECT_NO_THROW(validate_machine(machine, "probed machine"));
    const MemoryLevel* l2 = machine.level("l2");
    ASSERT_NE(l2, nullptr);
    ASSERT_TRUE(l2->mixed_bandwidth_by_store_fraction);
    const auto& mixes = l2->mixed_bandwidth_by_store_fraction->value;
    ASSERT_EQ(mixes.size(), 8u); // 1:0, 4:1, 3:1, 2:1, 3:2, 1:1, 1:2, 0:1
    // Loads alone over L2-resident slices: the L2 load stream's kind of traffic (16-byte
    // ld.global.cg, 4 steps in flight a thread) over a quarter of L2, so within a quarter of it.
    EXPECT_EQ(mixes.front().store_fraction, 0.0);
    EXPECT_NEAR(mixes.front().bandwidth_gbs, loads->estimate.value, 0.25 * loads->estimate.value);
    for (const auto& mix : mixes)
        EXPECT_GT(mix.bandwidth_gbs, 0) << mix.store_fraction;
}

} // namespace
} // namespace kerncast::probe
