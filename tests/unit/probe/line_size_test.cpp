#include "kerncast/probe/line_size.hpp"
#include "simulated_cache.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::SimulatedCache;

TEST(LineSize, SpacingOfMissesGivesTheLine) {
    for (int line : {32, 64, 128, 256}) {
        SimulatedCache cache;
        cache.capacity_bytes = 16 * 1024;
        cache.line_bytes = line;
        cache.noise_cycles = 5;
        // Thesis sec. 4.3: 4-byte stride over an array well beyond the capacity.
        const auto timings = cache.chase(4 * cache.capacity_bytes, 4, 2048);
        const auto result = line_size_from_misses(timings, 4);
        ASSERT_TRUE(result.has_value()) << line;
        EXPECT_EQ(result->line_bytes, line);
        EXPECT_DOUBLE_EQ(result->agreement, 1.0);
        EXPECT_NEAR(result->classes.hit_latency, 33, 5);
        EXPECT_NEAR(result->classes.miss_latency, 220, 5);
    }
}

TEST(LineSize, SectoredCacheMissesEverySector) {
    // A miss fetches one sector: misses recur every sector, not every line.
    SimulatedCache cache;
    cache.capacity_bytes = 16 * 1024;
    cache.line_bytes = 128;
    cache.sector_bytes = 32;
    const auto result = line_size_from_misses(cache.chase(4 * cache.capacity_bytes, 4, 2048), 4);
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->line_bytes, 32);
    EXPECT_DOUBLE_EQ(result->agreement, 1.0);
}

TEST(LineSize, OutliersLowerAgreementButNotTheAnswer) {
    SimulatedCache cache;
    cache.capacity_bytes = 16 * 1024;
    cache.line_bytes = 64;
    cache.outlier_rate = 0.01;
    const auto result = line_size_from_misses(cache.chase(64 * 1024, 4, 4096), 4);
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->line_bytes, 64);
    EXPECT_LT(result->agreement, 1.0);
    EXPECT_GT(result->agreement, 0.6); // each outlier splits one spacing in two
}

TEST(LineSize, AllHitsGiveNoAnswer) {
    SimulatedCache cache;
    const auto timings = cache.chase(4096, 4, 1024);
    EXPECT_FALSE(classify_misses(timings).has_value());
    EXPECT_FALSE(line_size_from_misses(timings, 4).has_value());
}

} // namespace
} // namespace kerncast::probe
