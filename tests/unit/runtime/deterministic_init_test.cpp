#include "kerncast/runtime/deterministic_init.hpp"

#include <gtest/gtest.h>
#include <set>

namespace kerncast::runtime {
namespace {

TEST(DeterministicInit, SeedsDifferByName) {
    // FNV-1a 32-bit reference values: "" -> 0x811c9dc5, "a" -> 0xe40c292c.
    EXPECT_EQ(buffer_seed(""), 0x811c9dc5u);
    EXPECT_EQ(buffer_seed("a"), 0xe40c292cu);
    EXPECT_NE(buffer_seed("x"), buffer_seed("y"));
}

TEST(DeterministicInit, RealsAreInRangeAndSpread) {
    const std::uint64_t seed = buffer_seed("x");
    double sum = 0;
    std::set<float> distinct;
    for (std::uint64_t i = 0; i < 100000; ++i) {
        const float f = initial_f32(seed, i);
        const double d = initial_f64(seed, i);
        ASSERT_GE(f, -1.0f);
        ASSERT_LT(f, 1.0f);
        ASSERT_GE(d, -1.0);
        ASSERT_LT(d, 1.0);
        sum += d;
        distinct.insert(f);
    }
    EXPECT_NEAR(sum / 100000, 0.0, 0.02); // uniform on [-1, 1): mean 0, sd of mean ~0.002
    EXPECT_GT(distinct.size(), 99000u);
}

TEST(DeterministicInit, IntegersAreSmallAndDeterministic) {
    for (std::uint64_t i = 0; i < 1000; ++i) {
        const auto v = initial_integer(7, i);
        ASSERT_GE(v, 0);
        ASSERT_LT(v, 1024);
        ASSERT_EQ(v, initial_integer(7, i));
    }
    static_assert(element_hash(1, 2) == element_hash(1, 2)); // usable in constant expressions
    EXPECT_NE(element_hash(1, 2), element_hash(2, 1));
}

} // namespace
} // namespace kerncast::runtime
