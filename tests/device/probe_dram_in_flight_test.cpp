// Device test of the DRAM's bandwidth by loads in flight (registered only when a GPU is present):
// the bandwidth group measured on the GPU, checked for what must hold whatever the GPU, not for
// values: no GPU figure is expected here that was not measured.
#include "kerncast/machine/validate.hpp"
#include "probed_group.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

TEST(DeviceProbeDramInFlight, EveryMixWithLoadsHasFivePointsAndMoreInFlightIsNotSlower) {
    const MachineModel& machine = testing::probe_group_on_device("bandwidth").machine;
    EXPECT_NO_THROW(validate_machine(machine, "probed machine"));
    const MemoryLevel* dram = machine.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->bandwidth_by_loads_in_flight);
    const auto& points = dram->bandwidth_by_loads_in_flight->value;
    // 7 mixes with loads x one block an SM of 64, 128, 256, 512 and 1024 threads.
    ASSERT_EQ(points.size(), 35u);
    EXPECT_EQ(points.front().store_fraction, 0.0);
    EXPECT_EQ(points.front().loads_in_flight_bytes_per_sm, 64 * 64);
    // Loads alone: more loads in flight never move fewer bytes a second (5 % for the spread of
    // launches), and never more than the DRAM's peak (the validator's check).
    for (std::size_t i = 1; i < 5; ++i)
        EXPECT_GE(points[i].bandwidth_gbs, 0.95 * points[i - 1].bandwidth_gbs) << i;
}

} // namespace
} // namespace kerncast::probe
