#include "kerncast/support/integer.hpp"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>

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
