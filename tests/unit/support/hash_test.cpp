// splitmix64 against the reference generator's published outputs for seed 0
// (Vigna's splitmix64.c: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f).
#include "kerncast/support/hash.hpp"

#include <gtest/gtest.h>

using namespace kerncast::support;

TEST(SplitMix64, ReferenceOutputsForSeedZero) {
    SplitMix64 rng{0};
    EXPECT_EQ(rng.next(), 0xe220a8397b1dcdafull);
    EXPECT_EQ(rng.next(), 0x6e789e6aa1b965f4ull);
    EXPECT_EQ(rng.next(), 0x06c45d188009454full);
}

TEST(SplitMix64, HashIsTheFirstOutputFromThatState) {
    static_assert(splitmix64_hash(0) == 0xe220a8397b1dcdafull);
    SplitMix64 rng{12345};
    EXPECT_EQ(splitmix64_hash(12345), rng.next());
}
