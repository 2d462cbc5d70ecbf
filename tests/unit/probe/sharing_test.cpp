#include "kerncast/probe/sharing.hpp"
#include "simulated_cache.hpp"

#include <gtest/gtest.h>
#include <random>

namespace kerncast::probe {
namespace {

using testing::SimulatedCache;

TEST(Sharing, InterferenceRevealsOnePhysicalCache) {
    SimulatedCache cache;
    cache.capacity_bytes = 24 * 1024;
    cache.line_bytes = 32;
    // A alone: 20 KiB fit. Shared: B's 20 KiB evicted most of A's lines first; modelled as
    // A's chase over 40 KiB of footprint in one cache.
    const auto alone = cache.chase(20 * 1024, 32, 512);
    const auto after_b = cache.chase(40 * 1024, 32, 512);
    const auto shared = infer_sharing(alone, after_b);
    EXPECT_TRUE(shared.shared);
    EXPECT_GT(shared.relative_increase, 1.0);
    // Separate caches: the second run looks like the first one.
    SimulatedCache other = cache;
    other.seed = 99;
    const auto separate = infer_sharing(alone, other.chase(20 * 1024, 32, 512));
    EXPECT_FALSE(separate.shared);
    EXPECT_GT(separate.p_value, 0.01);
}

std::vector<double> disturbances(int threads, int instances, unsigned seed) {
    // Warp w runs on scheduler w % 4; instance = scheduler / (4 / instances).
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0, 0.5);
    std::vector<double> values;
    for (int t = 1; t < threads; ++t) {
        const int scheduler = (t / 32) % 4;
        const bool shares = scheduler / (4 / instances) == 0;
        values.push_back((shares ? 60.0 : 33.0) + noise(rng));
    }
    return values;
}

TEST(Sharing, CountPerSmFromDisturbedThreads) {
    for (int instances : {1, 2, 4}) {
        const auto result = infer_count_per_sm(disturbances(256, instances, 4), 33.0);
        EXPECT_EQ(result.count, instances);
        EXPECT_DOUBLE_EQ(result.agreement, 1.0);
    }
}

TEST(Sharing, NoisyClassesLowerAgreement) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> coin(30, 40);
    std::vector<double> values;
    for (int t = 1; t < 256; ++t)
        values.push_back(coin(rng));
    const auto result = infer_count_per_sm(values, 33.0);
    EXPECT_LT(result.agreement, 0.9);
}

} // namespace
} // namespace kerncast::probe
