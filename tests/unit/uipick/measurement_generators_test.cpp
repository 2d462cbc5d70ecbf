// The microbenchmark generators of Stevens & Klöckner sec. 7.1.2: every default variant is a
// valid kernel, the skip rules hold, and the global access pattern has the access counts its
// design says (AFR 1: every element read once per input array, written once).
#include "../../../src/uipick/generator_sets.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <gtest/gtest.h>
#include <set>

using namespace kerncast;
using namespace kerncast::uipick;

TEST(MeasurementGenerators, NamesAreUniqueAndDescribed) {
    std::set<std::string> names;
    for (const auto& g : measurement_generators()) {
        EXPECT_TRUE(names.insert(g.name).second) << g.name;
        EXPECT_FALSE(g.description.empty()) << g.name;
        EXPECT_NE(g.source.find("Stevens & Kl"), std::string::npos) << g.name;
        EXPECT_TRUE(g.tags.count(g.name)) << g.name << " is not tagged with its name";
    }
    EXPECT_TRUE(names.count("gmem_pattern"));
    EXPECT_TRUE(names.count("empty_kernel"));
}

TEST(MeasurementGenerators, GlobalPatternReadsEachInputOnceAndWritesOnce) {
    const Generation g =
        generate_kernels(measurement_generators(),
                         parse_filter_tags({"gmem_pattern", "dtype:float32", "lsize_0:16",
                                            "lsize_1:8", "layout:xfast", "narrays:3", "n:64"}));
    ASSERT_EQ(g.kernels.size(), 1u);
    const analysis::KernelAnalysis a = analysis::analyze(g.kernels[0].spec);
    const auto params = analysis::bind(a, {}).values();
    std::int64_t loads = 0, stores = 0;
    for (const auto& access : a.accesses) {
        const std::int64_t count = access.count.evaluate(params);
        EXPECT_EQ(access.footprint_elements.evaluate(params), 64 * 64) << access.array;
        (access.direction == analysis::Direction::load ? loads : stores) += count;
    }
    EXPECT_EQ(loads, 3 * 64 * 64);
    EXPECT_EQ(stores, 64 * 64);
    EXPECT_EQ(a.thread_blocks.evaluate(params), (64 / 16) * (64 / 8));
}

TEST(MeasurementGenerators, VariantsThatCannotRunAreSkippedWithTheReason) {
    const Generation g =
        generate_kernels(measurement_generators(),
                         parse_filter_tags({"gmem_pattern", "dtype:float32", "lsize_0:64,48",
                                            "lsize_1:32", "layout:xfast", "narrays:1", "n:96"}));
    // 64 x 32 = 2048 threads; 48 x 32 = 1536 threads: both over the 1024 limit.
    EXPECT_TRUE(g.kernels.empty());
    ASSERT_EQ(g.skipped.size(), 2u);
    for (const auto& skipped : g.skipped)
        EXPECT_NE(skipped.reason.find("1024"), std::string::npos) << skipped.reason;
    const Generation misfit =
        generate_kernels(measurement_generators(),
                         parse_filter_tags({"gmem_pattern", "dtype:float32", "lsize_0:16",
                                            "lsize_1:16", "layout:xfast", "narrays:1", "n:72"}));
    ASSERT_EQ(misfit.skipped.size(), 1u);
    EXPECT_NE(misfit.skipped[0].reason.find("multiple"), std::string::npos);
}
