#include "kerncast/error.hpp"
#include "kerncast/probe/tag_line.hpp"
#include "simulated_cache.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::SimulatedCache;

// The benchmark's chases on a simulated cache: strides 32 B .. 1 KiB over 1.25x the capacity,
// and the reference over half of it.
struct Chases {
    std::vector<std::vector<double>> times;
    std::vector<StrideTimings> strides;
    std::vector<double> hits;
};

Chases chases_on(const SimulatedCache& cache, std::int64_t array_bytes) {
    Chases c;
    for (int stride = 32; stride <= 1024; stride *= 2)
        c.times.push_back(cache.chase(array_bytes, stride, 2048));
    int stride = 32;
    for (const auto& t : c.times) {
        c.strides.push_back({stride, t});
        stride *= 2;
    }
    c.hits = cache.chase(cache.capacity_bytes / 2, 32, 2048);
    return c;
}

SimulatedCache sectored(int line, int sector, int ways) {
    SimulatedCache cache;
    cache.capacity_bytes = 24 * 1024;
    cache.line_bytes = line;
    cache.sector_bytes = sector;
    cache.ways = ways;
    cache.hashed_sets = true;
    cache.noise_cycles = 5;
    return cache;
}

TEST(TagLine, SectoredLineIsTheLargestMissingStride) {
    for (int line : {64, 128, 256}) {
        for (int ways : {0, 4}) {
            const SimulatedCache cache = sectored(line, 32, ways);
            const Chases c = chases_on(cache, cache.capacity_bytes * 5 / 4);
            const TagLineResult r = tag_line_from_strides(c.strides, c.hits);
            EXPECT_EQ(r.line_bytes, line) << line << " B, " << ways << " ways: " << r.problem;
            EXPECT_TRUE(r.clean) << line;
            ASSERT_EQ(r.strides.size(), 6u);
            for (const StrideMisses& s : r.strides) {
                EXPECT_EQ(s.loads, 2048u);
                EXPECT_DOUBLE_EQ(s.miss_fraction, s.stride_bytes <= line ? 1.0 : 0.0)
                    << line << " B line, stride " << s.stride_bytes;
            }
            EXPECT_NEAR(r.classes.hit_latency, 33, 5);
            EXPECT_NEAR(r.classes.miss_latency, 220, 5);
        }
    }
}

TEST(TagLine, UnsectoredLineToo) {
    const SimulatedCache cache = sectored(32, 0, 4);
    const Chases c = chases_on(cache, cache.capacity_bytes * 5 / 4);
    EXPECT_EQ(tag_line_from_strides(c.strides, c.hits).line_bytes, 32);
}

TEST(TagLine, RepetitionsOfAStridePool) {
    const SimulatedCache cache = sectored(128, 32, 4);
    const Chases c = chases_on(cache, cache.capacity_bytes * 5 / 4);
    std::vector<StrideTimings> twice = c.strides;
    twice.insert(twice.end(), c.strides.begin(), c.strides.end());
    const TagLineResult r = tag_line_from_strides(twice, c.hits);
    EXPECT_EQ(r.line_bytes, 128);
    EXPECT_EQ(r.strides.size(), 6u);
    EXPECT_EQ(r.strides.front().loads, 4096u);
}

TEST(TagLine, LowAddressBitPlacementIsRefusedNotMisread) {
    // Sets from the low bits: a stride of 2 lines fills only half the sets, which overflow as
    // the full set of lines did, so every stride misses.
    SimulatedCache cache = sectored(128, 32, 4);
    cache.hashed_sets = false;
    const Chases c = chases_on(cache, cache.capacity_bytes * 5 / 4);
    const TagLineResult r = tag_line_from_strides(c.strides, c.hits);
    EXPECT_EQ(r.line_bytes, 0);
    EXPECT_NE(r.problem.find("every stride up to 1024 B missed"), std::string::npos) << r.problem;
}

TEST(TagLine, AnArrayThatFitsGivesNoLine) {
    // Every chase over 3/4 of the capacity hits: one cluster, no line.
    const SimulatedCache cache = sectored(128, 32, 4);
    const Chases c = chases_on(cache, cache.capacity_bytes * 3 / 4);
    const TagLineResult r = tag_line_from_strides(c.strides, c.hits);
    EXPECT_EQ(r.line_bytes, 0);
    EXPECT_NE(r.problem.find("one cluster"), std::string::npos) << r.problem;
    // The smallest stride hitting while a larger one misses: no line either.
    const std::vector<double> hit(64, 40.0), miss(64, 220.0);
    const std::vector<StrideTimings> odd{{32, hit}, {64, miss}};
    const TagLineResult o = tag_line_from_strides(odd, {});
    EXPECT_EQ(o.line_bytes, 0);
    EXPECT_NE(o.problem.find("smallest stride (32 B) hit"), std::string::npos) << o.problem;
}

TEST(TagLine, AStrideThatMissesAgainIsNotClean) {
    const std::vector<double> hit(64, 40.0), miss(64, 220.0);
    const std::vector<StrideTimings> odd{{32, miss}, {64, miss}, {128, hit}, {256, miss}};
    const TagLineResult r = tag_line_from_strides(odd, {});
    EXPECT_EQ(r.line_bytes, 64);
    EXPECT_FALSE(r.clean);
}

TEST(TagLine, TheReferenceSetsTheThresholdWhenEveryStrideMisses) {
    SimulatedCache cache = sectored(128, 32, 4);
    cache.hashed_sets = false;
    const Chases c = chases_on(cache, cache.capacity_bytes * 5 / 4);
    EXPECT_NE(tag_line_from_strides(c.strides, {}).problem.find("one cluster"), std::string::npos);
    EXPECT_NEAR(tag_line_from_strides(c.strides, c.hits).classes.hit_latency, 33, 5);
}

TEST(TagLine, StridesMustDouble) {
    const std::vector<double> t{40, 40, 220, 220};
    const std::vector<StrideTimings> gap{{32, t}, {128, t}};
    try {
        tag_line_from_strides(gap, {});
        FAIL() << "strides 32, 128 accepted";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("128 B follows 32 B"), std::string::npos) << e.message();
    }
    const std::vector<StrideTimings> zero{{0, t}};
    EXPECT_THROW(tag_line_from_strides(zero, {}), Error);
}

} // namespace
} // namespace kerncast::probe
