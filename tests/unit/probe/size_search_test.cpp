#include "kerncast/probe/size_search.hpp"
#include "simulated_cache.hpp"

#include <cstdlib>
#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::SimulatedCache;

SizeSearchResult search(const SimulatedCache& cache, SizeSearchOptions options,
                        int stride_bytes = 32) {
    return search_cache_size(
        [&](std::int64_t size) { return cache.chase(size, stride_bytes, 512); }, options);
}

TEST(SizeSearch, FindsFullyAssociativeLruCapacity) {
    for (std::int64_t capacity : {12 * 1024, 24 * 1024, 25 * 1024 + 512, 48 * 1024}) {
        SimulatedCache cache;
        cache.capacity_bytes = capacity;
        cache.line_bytes = 128;
        const auto result = search(cache, {});
        ASSERT_FALSE(result.exceeds_max);
        ASSERT_TRUE(result.change.has_value()) << capacity;
        EXPECT_EQ(result.size_bytes, capacity);
        EXPECT_LE(result.lower_bytes, capacity);
        EXPECT_GT(result.upper_bytes, capacity);
    }
}

TEST(SizeSearch, FindsSetAssociativeCapacityWithNoiseAndOutliers) {
    SimulatedCache cache;
    cache.capacity_bytes = 32 * 1024;
    cache.line_bytes = 32;
    cache.ways = 4;
    cache.noise_cycles = 6;
    cache.outlier_rate = 0.01; // timer interrupts and the like
    const auto result = search(cache, {});
    ASSERT_TRUE(result.change.has_value());
    EXPECT_EQ(result.size_bytes, 32 * 1024);
}

TEST(SizeSearch, MeasuresFarFewerSizesThanALinearSweep) {
    SimulatedCache cache;
    cache.capacity_bytes = 40 * 1024 * 1024 / 64; // 640 KiB
    SizeSearchOptions options;
    options.step_bytes = 1024;
    const auto result = search(cache, options, 128);
    EXPECT_EQ(result.size_bytes, cache.capacity_bytes);
    // A linear sweep at 1 KiB steps would need 640+ launches.
    EXPECT_LT(result.measurements, 50);
    EXPECT_EQ(result.measurements, static_cast<int>(result.points.size()));
}

TEST(SizeSearch, BatchedSearchAgreesAndNeedsFewerRounds) {
    SimulatedCache cache;
    cache.capacity_bytes = 200 * 1024;
    cache.ways = 4;
    cache.noise_cycles = 3;
    const MeasureSizes batch = [&](const std::vector<std::int64_t>& sizes) {
        std::vector<std::vector<double>> timings;
        for (auto size : sizes)
            timings.push_back(cache.chase(size, 128, 512));
        return timings;
    };
    SizeSearchOptions options;
    options.step_bytes = 512;
    const auto sequential = search(cache, options, 128);
    options.batch = 132; // one block per SM of an H100
    const auto batched = search_cache_size(batch, options);
    EXPECT_EQ(sequential.size_bytes, 200 * 1024);
    EXPECT_EQ(batched.size_bytes, 200 * 1024);
    EXPECT_EQ(sequential.rounds, sequential.measurements);
    EXPECT_LE(batched.rounds, 4); // baseline, doubling, one k-ary step, sweep
    EXPECT_LT(batched.rounds * 4, sequential.rounds);
}

TEST(SizeSearch, RobustAcrossCachesSeedsAndOutliers) {
    // 90 simulated caches: fully associative and 4/8-way, with and without 1 % outliers.
    int exact = 0;
    int total = 0;
    for (int ways : {0, 4, 8})
        for (double outliers : {0.0, 0.01})
            for (std::uint32_t seed = 1; seed <= 5; ++seed)
                for (std::int64_t capacity : {24 * 1024, 32 * 1024, 100 * 1024}) {
                    SimulatedCache cache;
                    cache.capacity_bytes = capacity;
                    cache.line_bytes = ways == 0 ? 128 : 32;
                    cache.ways = ways;
                    cache.noise_cycles = 6;
                    cache.outlier_rate = outliers;
                    cache.seed = seed;
                    const auto result = search(cache, {});
                    ++total;
                    exact += result.size_bytes == capacity;
                    EXPECT_LE(std::abs(result.size_bytes - capacity), 4 * 256)
                        << ways << " " << outliers << " " << seed << " " << capacity;
                }
    EXPECT_GE(exact, total * 9 / 10);
}

TEST(SizeSearch, ReportsCacheLargerThanTheSearchRange) {
    SimulatedCache cache;
    cache.capacity_bytes = 64 * 1024;
    SizeSearchOptions options;
    options.max_bytes = 32 * 1024;
    const auto result = search(cache, options);
    EXPECT_TRUE(result.exceeds_max);
    EXPECT_FALSE(result.change.has_value());
    EXPECT_EQ(result.size_bytes, 0);
    EXPECT_EQ(result.lower_bytes, 32 * 1024);
}

TEST(SizeSearch, LocateSizeRejectsFlatSeries) {
    SimulatedCache cache;
    std::vector<SizePoint> points;
    for (std::int64_t size = 1024; size <= 16 * 1024; size += 512)
        points.push_back({size, cache.chase(size, 32, 256)});
    EXPECT_FALSE(locate_size(points, {}).has_value());
}

TEST(SizeSearch, UnchangedTimingsAreNotAChange) {
    SimulatedCache cache;
    SizeSearchOptions options;
    EXPECT_FALSE(timings_changed(cache.chase(2048, 32), cache.chase(4096, 32), options));
    EXPECT_TRUE(timings_changed(cache.chase(2048, 32), cache.chase(64 * 1024, 32), options));
}

} // namespace
} // namespace kerncast::probe
