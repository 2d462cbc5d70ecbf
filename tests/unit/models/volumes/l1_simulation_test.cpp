// The simulated L1 (l1_simulation.hpp): LRU sets, sector valid bits and program order on
// hand-made request streams worked out by hand, the block programs of the published star
// kernel against counts by hand, and first touches against a brute-force footprint.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/l1_simulation.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace kerncast;
using namespace kerncast::models;

namespace {

// One warp loading sector `s` of each line in `lines` (4 sectors per line) in turn.
BlockPrograms one_warp_cycling(const std::vector<std::int64_t>& lines, std::int64_t s = 0) {
    BlockPrograms block;
    block.arrays = {"a"};
    block.points = 1;
    block.warps.resize(1);
    for (const std::int64_t line : lines)
        block.warps[0].push_back({0, false, {line * 4 + s}, {}, 0});
    return block;
}

L1Geometry geometry(std::int64_t lines, std::int64_t ways) {
    return {lines, ways, 128, 32};
}

kernel::KernelSpec star_kernel() {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                    "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
}

// The published star's block programs at `launch`, for the block at `index`.
std::optional<BlockPrograms> star_programs(const kernel::LaunchConfig& launch,
                                           const kernel::Dim3& index, std::string& why_not) {
    const auto analysis = analysis::analyze(star_kernel(), launch);
    return block_programs(analysis, analysis::bind(analysis, {}).values(),
                          l1_bank_layout(resolve_machine("v100-pcie-32gb")), index, why_not);
}

} // namespace

TEST(L1Simulation, LruThrashesWhenTheLoopIsOneLineLongerThanTheCache) {
    // Lines 0, 1, 2 loaded twice per block: a fully associative cache of 3 lines misses only
    // the first touches; one of 2 lines evicts each line just before its reuse (LRU).
    const BlockPrograms block = one_warp_cycling({0, 1, 2, 0, 1, 2});
    const L1Simulation fits = simulate_l1(block, 1, geometry(3, 3));
    EXPECT_DOUBLE_EQ(fits.first_touch_bytes[0], 3 * 32.0);
    EXPECT_DOUBLE_EQ(fits.load_miss_bytes[0], 3 * 32.0);
    const L1Simulation thrashes = simulate_l1(block, 1, geometry(2, 2));
    EXPECT_DOUBLE_EQ(thrashes.first_touch_bytes[0], 3 * 32.0);
    EXPECT_DOUBLE_EQ(thrashes.load_miss_bytes[0], 6 * 32.0);
}

// One set of 1 to 4 ways against a brute-force LRU of the same lines: every block copy (one
// slot, six generations, the middle four measured) loads its own copy of the lines, so the
// copies before it still hold ways. Lines a few apart take the L1 with packed keys, lines 2^39
// apart (beyond their 38 bits) the one that compares whole keys: both give the oracle's misses.
TEST(L1Simulation, OneSetOfAnyWidthAgreesWithABruteForceLru) {
    std::mt19937 random(7);
    std::vector<std::pair<std::int64_t, std::int64_t>> accesses; // (line number, sector)
    for (int k = 0; k < 300; ++k)
        accesses.push_back(
            {static_cast<std::int64_t>(random() % 7), static_cast<std::int64_t>(random() % 4)});
    for (const std::int64_t spacing : {std::int64_t{1}, std::int64_t{1} << 39})
        for (std::int64_t ways = 1; ways <= 4; ++ways) {
            SCOPED_TRACE("spacing " + std::to_string(spacing) + ", " + std::to_string(ways) +
                         " ways");
            BlockPrograms block;
            block.arrays = {"a"};
            block.points = 1;
            block.warps.resize(1);
            for (const auto& [line, sector] : accesses)
                block.warps[0].push_back({0, false, {line * spacing * 4 + sector}, {}, 0});
            // The oracle: (copy, line) keys most recent first, each with its valid sectors.
            std::vector<std::pair<std::pair<int, std::int64_t>, unsigned>> lru;
            std::int64_t measured_misses = 0;
            for (int copy = 0; copy < 5; ++copy)
                for (const auto& [line, sector] : accesses) {
                    const std::pair key{copy, line};
                    auto at = std::find_if(lru.begin(), lru.end(),
                                           [&](const auto& entry) { return entry.first == key; });
                    unsigned valid = 0;
                    if (at != lru.end()) {
                        valid = at->second;
                        lru.erase(at);
                    } else if (static_cast<std::int64_t>(lru.size()) == ways) {
                        lru.pop_back();
                    }
                    const unsigned bit = 1u << sector;
                    if ((valid & bit) == 0 && copy >= 1)
                        ++measured_misses;
                    lru.insert(lru.begin(), {key, valid | bit});
                }
            const L1Simulation simulated = simulate_l1(block, 1, geometry(ways, ways));
            EXPECT_DOUBLE_EQ(simulated.load_miss_bytes[0], measured_misses * 32.0 / 4);
        }
}

TEST(L1Simulation, LeastRecentlyUsedNotFirstLoadedIsEvicted) {
    // 0, 1, 0, 2, 0 in 2 lines: 2 evicts 1 (used before the second 0), so the last 0 hits.
    const L1Simulation lru = simulate_l1(one_warp_cycling({0, 1, 0, 2, 0}), 1, geometry(2, 2));
    EXPECT_DOUBLE_EQ(lru.load_miss_bytes[0], 3 * 32.0);
}

TEST(L1Simulation, ASectorOfAPresentLineStillMissesOnce) {
    BlockPrograms block = one_warp_cycling({0, 0});
    block.warps[0][1].sectors = {1}; // the second request: sector 1 of line 0
    block.warps[0].push_back({0, false, {0, 1}, {}, 0});
    const L1Simulation result = simulate_l1(block, 1, geometry(4, 4));
    EXPECT_DOUBLE_EQ(result.load_miss_bytes[0], 2 * 32.0);
    EXPECT_DOUBLE_EQ(result.first_touch_bytes[0], 2 * 32.0);
}

TEST(L1Simulation, StoresAllocateButAreNotLoadMisses) {
    // A store fills line 5 and then evicts line 0 from a one-line cache: the reload misses.
    BlockPrograms block = one_warp_cycling({0});
    block.warps[0].push_back({0, true, {5 * 4}, {}, 0});
    block.warps[0].push_back({0, false, {0}, {}, 0});
    const L1Simulation result = simulate_l1(block, 1, geometry(1, 1));
    EXPECT_DOUBLE_EQ(result.load_miss_bytes[0], 2 * 32.0);
    EXPECT_DOUBLE_EQ(result.first_touch_bytes[0], 32.0);
}

TEST(L1Simulation, ResidentBlocksShareTheCapacity) {
    // Each block reuses its 3 lines; alone they fit in 4 lines, but two resident blocks
    // (6 live lines, fully associative) thrash: every load misses.
    const BlockPrograms block = one_warp_cycling({0, 1, 2, 0, 1, 2});
    EXPECT_DOUBLE_EQ(simulate_l1(block, 1, geometry(4, 4)).load_miss_bytes[0], 3 * 32.0);
    EXPECT_DOUBLE_EQ(simulate_l1(block, 2, geometry(4, 4)).load_miss_bytes[0], 6 * 32.0);
    EXPECT_DOUBLE_EQ(simulate_l1(block, 2, geometry(8, 8)).load_miss_bytes[0], 3 * 32.0);
}

TEST(L1Simulation, FewerWaysMissBeforeTheCacheIsFull) {
    // 24 lines reused in a cache of 64 lines: fully associative, only first touches miss;
    // direct mapped, lines that hash to one set evict each other (birthday collisions among 24
    // lines in 64 sets are all but certain).
    std::vector<std::int64_t> lines;
    for (int pass = 0; pass < 2; ++pass)
        for (std::int64_t line = 0; line < 24; ++line)
            lines.push_back(line);
    const BlockPrograms block = one_warp_cycling(lines);
    const L1Simulation full = simulate_l1(block, 1, geometry(64, 64));
    const L1Simulation direct = simulate_l1(block, 1, geometry(64, 1));
    EXPECT_DOUBLE_EQ(full.load_miss_bytes[0], full.first_touch_bytes[0]);
    EXPECT_GT(direct.load_miss_bytes[0], direct.first_touch_bytes[0]);
    EXPECT_LE(direct.load_miss_bytes[0], 2 * direct.first_touch_bytes[0]);
}

namespace {

// A load of 8 B values at `addresses` (one per lane) as block_programs writes it.
WarpRequest load_of(const std::vector<std::int64_t>& addresses) {
    WarpRequest request{0, false, {}, addresses, 8};
    for (const std::int64_t a : addresses)
        request.sectors.push_back(a / 32);
    std::sort(request.sectors.begin(), request.sectors.end());
    request.sectors.erase(std::unique(request.sectors.begin(), request.sectors.end()),
                          request.sectors.end());
    return request;
}

std::vector<std::int64_t> doubles(std::int64_t first_byte, int lanes) {
    std::vector<std::int64_t> addresses;
    for (int lane = 0; lane < lanes; ++lane)
        addresses.push_back(first_byte + 8 * lane);
    return addresses;
}

} // namespace

TEST(L1Simulation, LanesOfMissingOrInFlightLinesTakeAPassOfTheirOwn) {
    // One warp: first 16 lanes load line 0 (one wavefront), then 32 lanes load bytes 64..319
    // (lines 0, 1, 2; the bank rule alone: one wavefront per half-warp, 2).
    BlockPrograms block;
    block.arrays = {"a"};
    block.points = 1;
    block.warps = {{load_of(doubles(0, 16)), load_of(doubles(64, 32))}};
    L1BankLayout layout = l1_bank_layout(resolve_machine("h100-sxm5-80gb"));
    layout.wavefront_window_bytes = 0;
    EXPECT_FALSE(simulate_l1(block, 1, geometry(64, 4)).load_wavefronts_per_point);
    // Line 0 filled at once: lanes 0-7 hit, 8-15 miss in the first half-warp (two passes), the
    // second half-warp misses (one): 1 + 3 wavefronts a block.
    const auto filled = simulate_l1(block, 1, geometry(64, 4), L1MissPasses{layout, 0.0});
    ASSERT_TRUE(filled.load_wavefronts_per_point);
    EXPECT_DOUBLE_EQ(*filled.load_wavefronts_per_point, 4.0);
    // Line 0 still in flight one cycle later (a fill takes 273): all lanes wait, one pass.
    const auto in_flight = simulate_l1(block, 1, geometry(64, 4), L1MissPasses{layout, 273.0});
    EXPECT_DOUBLE_EQ(*in_flight.load_wavefronts_per_point, 3.0);
    // The passes change no volume.
    EXPECT_EQ(filled.load_miss_bytes, simulate_l1(block, 1, geometry(64, 4)).load_miss_bytes);
}

TEST(L1Simulation, StarProgramsTakeZColumnLoadsFromRegisters) {
    // Range-2 star, block 32 x 4 x 8 folded twice in z: fold instance 0 issues the 13 loads
    // and the store; instance 1 has the centre and z-1, z-2, z+1 in registers already (they
    // were z+1, centre, z-1, z+2 of instance 0) and issues 9 loads and the store.
    std::string why_not;
    const auto programs = star_programs({{32, 4, 8}, {1, 1, 2}}, {5, 5, 5}, why_not);
    ASSERT_TRUE(programs) << why_not;
    EXPECT_EQ(programs->warps.size(), 32u);
    EXPECT_EQ(programs->points, 32 * 4 * 8 * 2);
    EXPECT_EQ(programs->warps[0].size(), 14u + 10u);
    int stores = 0;
    for (const auto& request : programs->warps[0])
        stores += request.store ? 1 : 0;
    EXPECT_EQ(stores, 2);
    // The first request is the centre load: 32 doubles of one row, aligned (offset 14 puts
    // x = 2 on a 128 B line), 8 sectors.
    EXPECT_FALSE(programs->warps[0][0].store);
    EXPECT_EQ(programs->warps[0][0].sectors.size(), 8u);
}

TEST(L1Simulation, LaneClassesChangeNothingTheSimulationComputes) {
    // Requests of one lane class share their bank-rule patterns and their lanes' lines; the
    // same programs with the classes removed (every lane's address compared) must simulate
    // alike. Blocks 16 x 2 x 4 (two rows a warp) and 8 x 4 x 4, folded in x, so that the
    // warps' first lanes sit at several places in their lines.
    const L1BankLayout layout = l1_bank_layout(resolve_machine("h100-sxm5-80gb"));
    for (const kernel::LaunchConfig& launch : {kernel::LaunchConfig{{16, 2, 4}, {3, 1, 1}},
                                               kernel::LaunchConfig{{8, 4, 4}, {1, 1, 1}}}) {
        std::string why_not;
        const auto programs = star_programs(launch, {5, 5, 5}, why_not);
        ASSERT_TRUE(programs) << why_not;
        BlockPrograms unclassed = *programs;
        int classed = 0;
        for (auto& warp : unclassed.warps)
            for (WarpRequest& request : warp) {
                classed += request.lane_class >= 0 ? 1 : 0;
                request.lane_class = -1;
            }
        EXPECT_GT(classed, 0);
        for (const double fill_cycles : {0.0, 273.0}) {
            const L1MissPasses passes{layout, fill_cycles};
            const auto with = simulate_l1(*programs, 3, geometry(64, 4), passes);
            const auto without = simulate_l1(unclassed, 3, geometry(64, 4), passes);
            EXPECT_EQ(with.load_miss_bytes, without.load_miss_bytes);
            ASSERT_TRUE(with.load_wavefronts_per_point && without.load_wavefronts_per_point);
            EXPECT_DOUBLE_EQ(*with.load_wavefronts_per_point, *without.load_wavefronts_per_point);
            EXPECT_GT(*with.load_wavefronts_per_point, 0.0);
        }
    }
}

TEST(L1Simulation, FirstTouchesAreTheBlocksUniqueLoadSectors) {
    // Brute force: the distinct load sectors of every request of the block, over its points.
    std::string why_not;
    const auto programs = star_programs({{8, 8, 16}, {1, 1, 2}}, {3, 7, 4}, why_not);
    ASSERT_TRUE(programs) << why_not;
    std::set<std::int64_t> unique;
    for (const auto& warp : programs->warps)
        for (const auto& request : warp)
            if (!request.store && programs->arrays[static_cast<size_t>(request.array)] == "src")
                unique.insert(request.sectors.begin(), request.sectors.end());
    const L1Simulation result = simulate_l1(*programs, 2, geometry(1024, 16));
    const double expected =
        static_cast<double>(unique.size()) * 32.0 / static_cast<double>(programs->points);
    size_t src = 0;
    while (programs->arrays[src] != "src")
        ++src;
    EXPECT_NEAR(result.first_touch_bytes[src], expected, 1e-9);
    EXPECT_GE(result.load_miss_bytes[src], result.first_touch_bytes[src]);
}

TEST(L1Simulation, LoopsHaveNoStaticProgramOrder) {
    const auto load = [](const std::string& name) {
        return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" +
                                        name + ".yaml");
    };
    const L1BankLayout layout = l1_bank_layout(resolve_machine("v100-pcie-32gb"));
    for (const std::string name : {"matmul_naive", "hk_mat_tiled"}) {
        auto analysis = analysis::analyze(load(name), load(name).launch);
        std::string why_not;
        EXPECT_FALSE(block_programs(analysis, analysis::bind(analysis, {}).values(), layout,
                                    {0, 0, 0}, why_not))
            << name;
        EXPECT_FALSE(why_not.empty()) << name;
    }
}

TEST(L1Simulation, BlocksWithTooManyRequestsAreNotSimulated) {
    // Range-9 box, 8 warps folded 128 times in y: 8 x 128 x 362 requests > 2^18.
    const auto spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/kernels/box2d_r9.yaml");
    const L1BankLayout layout = l1_bank_layout(resolve_machine("v100-pcie-32gb"));
    std::string why_not;
    auto folded = analysis::analyze(spec, kernel::LaunchConfig{{32, 8, 1}, {1, 128, 1}});
    EXPECT_FALSE(
        block_programs(folded, analysis::bind(folded, {}).values(), layout, {1, 1, 0}, why_not));
    EXPECT_NE(why_not.find("more than 262144 warp requests"), std::string::npos) << why_not;
    auto plain = analysis::analyze(spec, kernel::LaunchConfig{{32, 8, 1}, {1, 1, 1}});
    EXPECT_TRUE(
        block_programs(plain, analysis::bind(plain, {}).values(), layout, {1, 1, 0}, why_not));
}

TEST(L1Simulation, EverySmMeasuresAtLeastEightBlockLives) {
    // Generations a slot runs: one to warm up, one to drain, and between them enough measured
    // ones for 8 blocks over all slots, at most 4.
    const std::vector<std::pair<std::int64_t, int>> expected = {{1, 6}, {2, 6}, {3, 5}, {4, 4},
                                                                {7, 4}, {8, 3}, {9, 3}, {32, 3}};
    for (const auto& [blocks_per_sm, generations] : expected)
        EXPECT_EQ(l1_simulation_generations(blocks_per_sm), generations) << blocks_per_sm;
}
