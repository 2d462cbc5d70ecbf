#include "kerncast/support/hash.hpp"
#include "kerncast/support/integer.hpp"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

using kerncast::support::ceil_div;
using kerncast::support::floor_div;
using kerncast::support::floor_mod;
__extension__ using int128 = __int128;

// Brute-force oracle: std::floor of the exact quotient, over every sign combination.
TEST(Integer, FloorDivAndModMatchTheRealQuotient) {
    for (std::int64_t a = -40; a <= 40; ++a) {
        for (std::int64_t b = -7; b <= 7; ++b) {
            if (b == 0)
                continue;
            const auto expected = static_cast<std::int64_t>(
                std::floor(static_cast<double>(a) / static_cast<double>(b)));
            EXPECT_EQ(floor_div(a, b), expected) << a << " / " << b;
            EXPECT_EQ(floor_mod(a, b), a - b * expected) << a << " mod " << b;
            EXPECT_EQ(floor_div(static_cast<int128>(a), static_cast<int128>(b)),
                      static_cast<int128>(expected));
        }
    }
}

TEST(Integer, FloorDivDiffersFromTruncationOnlyForNegativeInexactQuotients) {
    EXPECT_EQ(floor_div<std::int64_t>(-1, 32), -1);
    EXPECT_EQ(-1 / 32, 0);
    EXPECT_EQ(floor_div<std::int64_t>(-64, 32), -2);
    EXPECT_EQ(floor_mod<std::int64_t>(-1, 32), 31);
}

TEST(Integer, CeilDivCountsPartialTiles) {
    EXPECT_EQ(ceil_div<std::int64_t>(0, 32), 0);
    EXPECT_EQ(ceil_div<std::int64_t>(1, 32), 1);
    EXPECT_EQ(ceil_div<std::int64_t>(32, 32), 1);
    EXPECT_EQ(ceil_div<std::int64_t>(33, 32), 2);
    EXPECT_EQ(ceil_div<std::int64_t>(15000, 128), 118);
}

TEST(Integer, FloorDividerEqualsFloorDivForPowersOfTwoAndOthers) {
    // Brute force against floor_div over negative and positive numerators, power-of-two
    // divisors (the shift) and others (the division).
    for (std::int64_t divisor : {1, 2, 3, 4, 7, 8, 32, 96, 128, 1024}) {
        const kerncast::support::FloorDivider divide(divisor);
        EXPECT_EQ(divide.divisor(), divisor);
        for (std::int64_t a = -5000; a <= 5000; ++a)
            ASSERT_EQ(divide(a), floor_div<std::int64_t>(a, divisor)) << a << " / " << divisor;
        for (std::int64_t a : {std::int64_t{1} << 62, -(std::int64_t{1} << 62)})
            ASSERT_EQ(divide(a), floor_div<std::int64_t>(a, divisor)) << a << " / " << divisor;
    }
}

TEST(Integer, RemainderEqualsTheRemainderOfADivision) {
    // Brute force against % : small and large divisors (the simulated L1's set counts, powers
    // of two, the largest), numerators near 0, near multiples of the divisor and near 2^64,
    // and splitmix64 outputs (the simulation's line hashes).
    kerncast::support::SplitMix64 random;
    const std::uint64_t max = ~std::uint64_t{0};
    for (std::uint64_t divisor :
         {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{64},
          std::uint64_t{248}, std::uint64_t{496}, std::uint64_t{1000}, (std::uint64_t{1} << 32) - 1,
          (std::uint64_t{1} << 32) + 1, std::uint64_t{1} << 63, max - 1, max, random.next(),
          random.next() >> 40}) {
        const kerncast::support::Remainder remainder(divisor);
        EXPECT_EQ(remainder.divisor(), divisor);
        std::vector<std::uint64_t> numerators{0,           1,       divisor - 1, divisor,
                                              divisor + 1, max - 1, max};
        for (std::uint64_t k : {std::uint64_t{2}, std::uint64_t{1000}, std::uint64_t{123457}})
            if (divisor <= max / k)
                for (std::uint64_t a : {k * divisor - 1, k * divisor, k * divisor + 1})
                    numerators.push_back(a);
        for (int i = 0; i < 10000; ++i)
            numerators.push_back(random.next());
        for (const std::uint64_t a : numerators)
            ASSERT_EQ(remainder(a), a % divisor) << a << " % " << divisor;
    }
}
