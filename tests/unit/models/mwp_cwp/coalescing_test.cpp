// Coalescing rules of the CUDA C Programming Guide 3.x, appendix G, worked by hand for each
// compute-capability family (Hong & Kim 2009, sec. 3.4.5, Table 3).
#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/coalescing.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

// 32 lanes, lane i at base + i * stride bytes.
std::vector<std::int64_t> lanes(std::int64_t base, std::int64_t stride, int count = 32) {
    std::vector<std::int64_t> out;
    for (int i = 0; i < count; ++i)
        out.push_back(base + i * stride);
    return out;
}

TEST(Coalescing, RuleByComputeCapability) {
    EXPECT_EQ(coalescing_rule(1, 0), CoalescingRule::half_warp_strict);
    EXPECT_EQ(coalescing_rule(1, 1), CoalescingRule::half_warp_strict);
    EXPECT_EQ(coalescing_rule(1, 2), CoalescingRule::half_warp_segments);
    EXPECT_EQ(coalescing_rule(1, 3), CoalescingRule::half_warp_segments);
    EXPECT_EQ(coalescing_rule(2, 0), CoalescingRule::warp_sectors);
    EXPECT_EQ(coalescing_rule(9, 0), CoalescingRule::warp_sectors);
    EXPECT_THROW(coalescing_rule(0, 0), Error);
}

TEST(Coalescing, StrictHalfWarpRule) {
    const auto rule = CoalescingRule::half_warp_strict;
    // Aligned consecutive 4-byte words: one 64 B transaction per half-warp.
    auto w = warp_transactions(rule, lanes(0, 4), 4);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 2);
    EXPECT_EQ(w.transferred_bytes, 128);
    // One word off the 64 B boundary: every thread its own transaction (Table 3: 32).
    w = warp_transactions(rule, lanes(4, 4), 4);
    EXPECT_FALSE(w.coalesced);
    EXPECT_EQ(w.transactions, 32);
    // Every thread the same word is not "the k-th thread the k-th word" on CC 1.0/1.1.
    w = warp_transactions(rule, lanes(64, 0), 4);
    EXPECT_FALSE(w.coalesced);
    EXPECT_EQ(w.transactions, 32);
    // 8-byte words: one 128 B transaction per half-warp; 16-byte words: two.
    EXPECT_EQ(warp_transactions(rule, lanes(0, 8), 8).transactions, 2);
    EXPECT_EQ(warp_transactions(rule, lanes(0, 16), 16).transactions, 4);
    // 2-byte words never coalesce on CC 1.0/1.1.
    EXPECT_EQ(warp_transactions(rule, lanes(0, 2), 2).transactions, 32);
}

TEST(Coalescing, HalfWarpSegments) {
    const auto rule = CoalescingRule::half_warp_segments;
    // Consecutive 4-byte words use the lower or upper 64 B of a 128 B segment: one 64 B
    // transaction per half-warp.
    auto w = warp_transactions(rule, lanes(0, 4), 4);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 2);
    EXPECT_EQ(w.transferred_bytes, 128);
    // Misaligned by a word: half-warp 0 (bytes 4..67) is one 128 B segment; half-warp 1 (68..131)
    // needs the upper 64 B of it and 32 B of the next: not coalesced.
    w = warp_transactions(rule, lanes(4, 4), 4);
    EXPECT_FALSE(w.coalesced);
    EXPECT_EQ(w.transactions, 3);
    EXPECT_EQ(w.transferred_bytes, 128 + 64 + 32);
    // A half-warp misaligned inside one segment is still one transaction (both halves: 128 B).
    w = warp_transactions(rule, lanes(32, 4, 16), 4);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 1);
    EXPECT_EQ(w.transferred_bytes, 128);
    // 128 B apart: one 32 B transaction per thread.
    w = warp_transactions(rule, lanes(0, 128), 4);
    EXPECT_EQ(w.transactions, 32);
    EXPECT_EQ(w.transferred_bytes, 32 * 32);
    // 12 B apart (RGB f32 pixels): 192 B per half-warp, two segments each.
    EXPECT_EQ(warp_transactions(rule, lanes(0, 12), 4).transactions, 4);
    // A broadcast is one 32 B transaction per half-warp.
    w = warp_transactions(rule, lanes(256, 0), 4);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 2);
    EXPECT_EQ(w.transferred_bytes, 64);
}

TEST(Coalescing, WarpSectors) {
    const auto rule = CoalescingRule::warp_sectors;
    auto w = warp_transactions(rule, lanes(0, 4), 4);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 4);
    EXPECT_EQ(w.sectors, 4);
    EXPECT_EQ(w.lines, 1);
    // One word off: 5 sectors in 2 lines, one more than the bytes need.
    w = warp_transactions(rule, lanes(4, 4), 4);
    EXPECT_FALSE(w.coalesced);
    EXPECT_EQ(w.sectors, 5);
    EXPECT_EQ(w.lines, 2);
    // Doubles: 8 sectors, coalesced; stride 2 floats: 8 sectors for 128 B, not coalesced.
    EXPECT_TRUE(warp_transactions(rule, lanes(0, 8), 8).coalesced);
    w = warp_transactions(rule, lanes(0, 8), 4);
    EXPECT_FALSE(w.coalesced);
    EXPECT_EQ(w.transactions, 8);
    // Broadcast: one sector.
    w = warp_transactions(rule, lanes(96, 0), 8);
    EXPECT_TRUE(w.coalesced);
    EXPECT_EQ(w.transactions, 1);
    // A partial warp of 8 lanes.
    EXPECT_EQ(warp_transactions(rule, lanes(0, 4, 8), 4).transactions, 1);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
