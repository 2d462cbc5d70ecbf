// The device-side chain and launch arithmetic, checked on the host by brute force: every
// chain is walked link by link and must be one cycle over exactly the intended elements.
#include "kerncast/probe/chain_layout.hpp"

#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <set>
#include <vector>

namespace kerncast::probe::chain {
namespace {

// Writes the chain the way build_chain does (one link per k, in any order) into a map
// element -> next, then walks it from its first link. Returns the cycle length, or 0 when
// the walk does not return to its start within count steps or meets an element twice.
struct WalkResult {
    std::uint64_t cycle_length = 0;
    std::set<std::uint64_t> visited;
};

WalkResult walk(const std::map<std::uint64_t, std::uint64_t>& links, std::uint64_t start,
                std::uint64_t max_steps) {
    WalkResult result;
    std::uint64_t here = start;
    for (std::uint64_t step = 0; step < max_steps + 1; ++step) {
        if (!result.visited.insert(here).second) {
            if (here == start)
                result.cycle_length = step;
            return result;
        }
        const auto it = links.find(here);
        if (it == links.end())
            return result; // a link into an element nobody wrote
        here = it->second;
    }
    return result;
}

TEST(ChainLayout, GcdMatchesTheStandardLibrary) {
    for (std::uint64_t a = 0; a < 60; ++a)
        for (std::uint64_t b = 0; b < 60; ++b)
            EXPECT_EQ(gcd(a, b), std::gcd(a, b)) << a << " " << b;
}

TEST(ChainLayout, MultiplierIsCoprimeAndNearTheGoldenRatio) {
    for (std::uint64_t count = 1; count < 5000; ++count) {
        const std::uint64_t m = coprime_multiplier(count);
        ASSERT_EQ(std::gcd(m, count), 1u) << count;
        ASSERT_LT(m, std::max<std::uint64_t>(count, 2)) << count;
        if (count > 100) {
            const double ratio = static_cast<double>(m) / static_cast<double>(count);
            EXPECT_NEAR(ratio, 0.618, 0.05) << count;
        }
    }
    // Large counts (a 4 GiB chain of 128-byte elements) stay exact in 64 bits.
    const std::uint64_t big = (4ull << 30) / 128 + 7;
    EXPECT_EQ(std::gcd(coprime_multiplier(big), big), 1u);
}

// Every chain the runner builds, walked on the host: one cycle through exactly the
// intended elements, for random and sequential chains, many counts and strides.
TEST(ChainLayout, RandomAndSequentialChainsAreOneCycleOverEveryElement) {
    const std::vector<std::uint64_t> counts{1,  2,  3,   4,   5,   7,    8,    12,   16,   31,
                                            64, 97, 100, 255, 256, 1000, 1024, 4096, 6561, 8191};
    for (std::uint64_t count : counts) {
        for (std::uint64_t stride : {1u, 8u, 32u}) {
            for (bool random : {false, true}) {
                const std::uint64_t first = 1000;
                const std::uint64_t multiplier = random ? coprime_multiplier(count) : 1;
                std::map<std::uint64_t, std::uint64_t> links;
                for (std::uint64_t k = 0; k < count; ++k) {
                    const ChainLink link = chain_link(first, count, stride, multiplier, k);
                    ASSERT_TRUE(links.emplace(link.element, link.next).second)
                        << "element written twice: count " << count;
                }
                std::set<std::uint64_t> intended;
                for (std::uint64_t i = 0; i < count; ++i)
                    intended.insert(first + i * stride);
                const WalkResult w =
                    walk(links, chain_link(first, count, stride, multiplier, 0).element, count);
                EXPECT_EQ(w.cycle_length, count)
                    << "count " << count << " stride " << stride << " random " << random;
                EXPECT_EQ(w.visited, intended);
            }
        }
    }
}

TEST(ChainLayout, RandomChainIsNotSequential) {
    // The pseudo-random chain must not degenerate into +1 steps (no locality for DRAM pages).
    const std::uint64_t count = 4096;
    const std::uint64_t m = coprime_multiplier(count);
    int sequential_links = 0;
    for (std::uint64_t k = 0; k < count; ++k) {
        const ChainLink link = chain_link(0, count, 1, m, k);
        sequential_links += link.next == link.element + 1;
    }
    EXPECT_LT(sequential_links, 8);
}

TEST(ChainLayout, ChainCountNeverZero) {
    EXPECT_EQ(chain_count(4096, 128), 32u);
    EXPECT_EQ(chain_count(100, 128), 1u);
    EXPECT_EQ(chain_count(4100, 4), 1025u);
}

TEST(ChainLayout, BatchRegionsDoNotOverlap) {
    // Block b's chain (any size up to the region, any stride) stays inside its region.
    const std::int64_t region_bytes = 1 << 20;
    const std::uint64_t region_first = 12345;
    for (std::uint64_t block = 0; block < 160; ++block) {
        const std::uint64_t first = batch_region_first(region_first, block, region_bytes);
        EXPECT_EQ(first, region_first + block * (region_bytes / 4));
        for (std::int64_t size : {std::int64_t{1024}, std::int64_t{300 * 1024}, region_bytes}) {
            for (int stride : {4, 128}) {
                const std::uint64_t count = chain_count(size, stride);
                const std::uint64_t last_element = first + (count - 1) * (stride / 4);
                EXPECT_LT(last_element, batch_region_first(region_first, block + 1, region_bytes));
            }
        }
    }
}

TEST(ChainLayout, TlbElementsSitOneInEachStrideSlot) {
    for (std::uint64_t stride : {4096ull, 65536ull, 2ull << 20, 32ull << 20}) {
        for (std::uint64_t k = 0; k < 200; ++k) {
            const std::uint64_t offset = tlb_element_offset(k, stride);
            EXPECT_EQ(offset / stride, k) << stride;
            EXPECT_EQ(offset % 8, 0u);
            // A page of the stride's size holds exactly one element.
            if (k > 0) {
                EXPECT_NE(offset / stride, tlb_element_offset(k - 1, stride) / stride);
            }
        }
        EXPECT_EQ(tlb_chain_bytes(1, stride), 8u);
        EXPECT_EQ(tlb_chain_bytes(10, stride), tlb_element_offset(9, stride) + 8);
    }
    // The skew spreads consecutive elements over 32 different 128-byte lines of a page.
    std::set<std::uint64_t> lines;
    for (std::uint64_t k = 0; k < 32; ++k)
        lines.insert(tlb_element_offset(k, 2 << 20) % (2 << 20) / 128);
    EXPECT_EQ(lines.size(), 32u);
}

// The TLB chain is built once over built_count elements and cut at count: the chase must
// cycle through exactly elements 0 .. count-1, in order.
TEST(ChainLayout, CutTlbChainCyclesThroughExactlyTheFootprint) {
    for (std::uint64_t stride : {32768ull, 2ull << 20}) {
        for (std::uint64_t built : {1ull, 2ull, 5ull, 64ull, 700ull}) {
            std::map<std::uint64_t, std::uint64_t> memory; // offset -> stored next offset
            for (std::uint64_t k = 0; k < built; ++k)
                memory[tlb_element_offset(k, stride)] = tlb_next_offset(k, built, stride);
            for (std::uint64_t count = 1; count <= built; ++count) {
                const std::uint64_t cut = tlb_cut_offset(count, built, stride);
                std::uint64_t here = 0;
                std::set<std::uint64_t> visited;
                std::uint64_t steps = 0;
                do {
                    ASSERT_TRUE(memory.count(here)) << "pointer into nowhere";
                    ASSERT_TRUE(visited.insert(here).second) << "element visited twice";
                    EXPECT_EQ(here, tlb_element_offset(steps, stride)) << "out of order";
                    here = tlb_cut_step(memory.at(here), cut);
                    ++steps;
                } while (here != 0 && steps <= built);
                EXPECT_EQ(steps, count) << "stride " << stride << " built " << built;
                EXPECT_EQ(visited.size(), count);
            }
        }
    }
}

// The bandwidth kernels' loops, simulated thread by thread for small shapes: every element
// is touched exactly `passes` times, so the byte counts the host divides by are right.
TEST(ChainLayout, GridStrideLoopTouchesEveryElementOncePerPass) {
    for (std::uint64_t blocks : {1u, 3u, 8u}) {
        for (std::uint64_t threads : {1u, 32u, 96u}) {
            for (std::uint64_t count : {1u, 100u, 1000u, 4096u}) {
                const int passes = 3;
                std::vector<int> touched(count, 0);
                for (int pass = 0; pass < passes; ++pass)
                    for (std::uint64_t b = 0; b < blocks; ++b)
                        for (std::uint64_t t = 0; t < threads; ++t)
                            for (std::uint64_t i = grid_stride_first(b, threads, t); i < count;
                                 i += grid_stride_step(blocks, threads))
                                ++touched[i];
                for (int n : touched)
                    ASSERT_EQ(n, passes);
                EXPECT_EQ(stream_bytes(static_cast<std::int64_t>(count), passes),
                          static_cast<std::int64_t>(
                              16 * std::accumulate(touched.begin(), touched.end(), 0ull)));
            }
        }
    }
}

TEST(ChainLayout, SliceLoopsTouchEachBlocksOwnSlice) {
    const std::uint64_t slice = 1024; // 16 KiB of uint4
    const std::uint64_t blocks = 5;
    for (std::uint64_t threads : {32u, 256u, 1000u}) {
        const int passes = 2;
        std::vector<int> touched(blocks * slice, 0);
        for (int pass = 0; pass < passes; ++pass)
            for (std::uint64_t b = 0; b < blocks; ++b)
                for (std::uint64_t t = 0; t < threads; ++t)
                    for (std::uint64_t i = t; i < slice; i += threads)
                        ++touched[slice_first(b, slice) + i];
        for (int n : touched)
            ASSERT_EQ(n, passes);
        EXPECT_EQ(slices_bytes(blocks, slice, passes),
                  static_cast<std::int64_t>(16 * blocks * slice * passes));
    }
}

} // namespace
} // namespace kerncast::probe::chain
