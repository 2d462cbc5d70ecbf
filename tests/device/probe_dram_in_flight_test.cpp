// Device test of the DRAM's bandwidth by loads in flight (registered only when a GPU is present):
// the bandwidth group measured on the GPU, checked for what must hold whatever the GPU, not for
// values: no GPU figure is expected here that was not measured.
#include "kerncast/machine/validate.hpp"
#include "probed_group.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

TEST(DeviceProbeDramInFlight, EveryMixWithLoadsHasThreePointsAndMoreInFlightIsNotSlower) {
    const MachineModel& machine = testing::probe_group_on_device("bandwidth").machine;
    EXPECT_NO_THROW(validate_machine(machine, "probed machine"));
    const MemoryLevel* dram = machine.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->bandwidth_by_loads_in_flight);
    const auto& points = dram->bandwidth_by_loads_in_flight->value;
    // 7 mixes with loads x one block an SM of 256, 512 and 1024 threads.
    ASSERT_EQ(points.size(), 21u);
    EXPECT_EQ(points.front().store_fraction, 0.0);
    EXPECT_EQ(points.front().loads_in_flight_bytes_per_sm, 256 * 64);
    // Loads alone: four times the loads in flight never move fewer bytes a second (5 % for the
    // spread of launches), and never more than the DRAM's peak (the validator's check).
    EXPECT_GE(points[2].bandwidth_gbs, 0.95 * points[0].bandwidth_gbs);
}

} // namespace
} // namespace kerncast::probe
