// Device test of the probe's latency under load (registered only when a GPU is present): the
// dram group measured on the GPU, its curve checked for shape and plain physical orderings,
// not values: no GPU figure is expected here that was not measured.
#include "kerncast/machine/validate.hpp"
#include "probed_group.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

TEST(DeviceProbeLoadedLatency, CurveRisesWithTheStreamsAndStartsAtTheUnloadedLatency) {
    const auto [analysis, machine] = testing::probe_group_on_device("dram");
    const ProbeValue* unloaded = analysis.find("dram", "latency_cycles");
    ASSERT_NE(unloaded, nullptr);
    EXPECT_NO_THROW(validate_machine(machine, "probed machine"));
    const MemoryLevel* dram = machine.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->latency_under_load);
    const auto& curve = dram->latency_under_load->value;
    for (double fraction : {0.0, 0.5}) {
        std::vector<LoadedLatency> points;
        for (const auto& point : curve)
            if (point.store_fraction == fraction)
                points.push_back(point);
        ASSERT_GE(points.size(), 3u) << fraction;
        // Nothing streaming: the same chain as dram.latency, so about its latency (the chase
        // there ran right after an eviction, here after others: within a quarter).
        EXPECT_EQ(points.front().bandwidth_gbs, 0) << fraction;
        EXPECT_NEAR(points.front().latency_cycles, unloaded->estimate.value,
                    0.25 * unloaded->estimate.value)
            << fraction;
        // Streams move bytes, and at the highest bandwidth a load waits longer than alone.
        EXPECT_GT(points.back().bandwidth_gbs, 0) << fraction;
        EXPECT_GT(points.back().latency_cycles, points.front().latency_cycles) << fraction;
        for (const auto& point : points)
            EXPECT_GT(point.latency_stddev_cycles, 0) << fraction << " " << point.bandwidth_gbs;
    }
}

} // namespace
} // namespace kerncast::probe
