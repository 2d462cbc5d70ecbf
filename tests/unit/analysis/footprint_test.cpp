// Footprints of thread groups, checked against hand-counted layouts.
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;

namespace {

// A 2D 4-point stencil on rows of 16 doubles (one 128 B line per row, aligned), 2x2 threads
// per block (Ernst et al. Fig. 6 uses the same setting to illustrate footprints).
const char* four_point = R"yaml(
name: four_point
params: {nx: 16, ny: 16}
arrays:
  A: {dtype: f64, shape: [ny, nx]}
  B: {dtype: f64, shape: [ny, nx]}
domain: "[nx, ny] -> { [y, x] : 1 <= x < nx - 1 and 1 <= y < ny - 1 }"
threads: {x: x, y: y}
launch: {block: [2, 2]}
statements:
  - "B[y, x] = A[y, x - 1] + A[y, x + 1] + A[y - 1, x] + A[y + 1, x]"
)yaml";

} // namespace

TEST(Footprint, FourPointStencilBlock) {
    const auto spec = kernel::parse_kernel_text(four_point, "four_point.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const std::vector<std::int64_t> params = {16, 16};
    const ThreadGroup block = whole_block(analysis); // threads x = 1, 2 and y = 1, 2
    // Rows 1 and 2: columns 0..3; rows 0 and 3: columns 1..2 -> 12 elements, 16 loads.
    const Footprint all = array_footprint(analysis, "A", params, block, {32, 128});
    EXPECT_EQ(all.accesses, 16);
    EXPECT_EQ(all.elements, 12);
    EXPECT_EQ(all.granules[0].count, 4); // columns 0..3 of a row are one 32 B sector
    EXPECT_EQ(all.granules[1].count, 4); // one line per row
    // A single access: A[y, x - 1] -> columns 0..1 of rows 1..2.
    const AccessInfo& left = analysis.accesses[0];
    ASSERT_EQ(left.text, "A[y, x - 1]");
    const Footprint one = footprint(analysis, left, params, block, {32});
    EXPECT_EQ(one.accesses, 4);
    EXPECT_EQ(one.elements, 4);
    EXPECT_EQ(one.granules[0].count, 2);
    EXPECT_EQ(one.element_set.rfind("{", 0), 0u) << one.element_set; // an isl set
}

TEST(Footprint, WarpOfAWideBlockAndAlignment) {
    const auto spec = kernel::parse_kernel_text(R"yaml(
name: copy
params: {n: 1024}
arrays:
  a: {dtype: f32, shape: [n], offset: 3}
  b: {dtype: f32, shape: [n]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [128]}
statements:
  - "b[i] = a[i]"
)yaml",
                                                "copy.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const std::vector<std::int64_t> params = {1024};
    const AccessInfo& load = analysis.accesses[0];
    // Warp 1: elements 32..63 of a, shifted by 3 elements: bytes 140..267 -> sectors 4..8,
    // lines 1..2.
    const Footprint warp = footprint(
        analysis, load, params, first_iteration_warp(analysis, load, params, 32, 1), {32, 128});
    EXPECT_EQ(warp.accesses, 32);
    EXPECT_EQ(warp.elements, 32);
    EXPECT_EQ(warp.granules[0].count, 5);
    EXPECT_EQ(warp.granules[1].count, 2);
    const Footprint aligned =
        footprint(analysis, analysis.accesses[1], params,
                  first_iteration_warp(analysis, analysis.accesses[1], params, 32, 1), {32, 128});
    EXPECT_EQ(aligned.granules[0].count, 4);
    EXPECT_EQ(aligned.granules[1].count, 1);
}

TEST(Footprint, IndirectAccessHasNone) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/histogram.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const std::vector<std::int64_t> params = kerncast::analysis::bind(analysis).values();
    for (const auto& access : analysis.accesses)
        if (access.indirect) {
            EXPECT_THROW((void)footprint(analysis, access, params, whole_block(analysis), {32}),
                         Error);
        }
}

// One session over many accesses returns, for each access and group, what a fresh computation
// returns: its caches (group domains, first warps, address and granule maps, whole results)
// never hand one access another's. The matmul's accesses differ in domain variables and
// sequential loops; the two A loads of the stencil share a domain and differ in address.
TEST(Footprint, ASessionGivesEachAccessWhatAFreshComputationGives) {
    for (const char* name : {"matmul_tiled16", "star2d_r1", "hk_matmul"}) {
        const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                   "/examples/kernels/" + name + ".yaml");
        const KernelAnalysis analysis = analyze(spec);
        std::vector<std::int64_t> params; // small sizes: isl counts these sets by enumeration
        for (const std::string& parameter : analysis.parameters)
            for (const auto& p : spec.params)
                if (p.name == parameter)
                    params.push_back(std::min<std::int64_t>(p.default_value, 256));
        ASSERT_EQ(params.size(), analysis.parameters.size()) << name;
        FootprintSession session(analysis, params);
        std::size_t compared = 0;
        for (int round = 0; round < 2; ++round) // the second round reads the caches
            for (const AccessInfo& access : analysis.accesses) {
                if (access.indirect)
                    continue;
                const ThreadGroup warp = session.first_iteration_warp(access, 32, 1);
                const ThreadGroup fresh_warp =
                    first_iteration_warp(analysis, access, params, 32, 1);
                EXPECT_EQ(warp.first_thread, fresh_warp.first_thread) << name;
                EXPECT_EQ(warp.fixed_indices, fresh_warp.fixed_indices) << name << access.text;
                for (const ThreadGroup& group : {warp, whole_block(analysis)}) {
                    const Footprint cached = session.footprint(access, group, {32, 128});
                    const Footprint fresh = footprint(analysis, access, params, group, {32, 128});
                    EXPECT_EQ(cached.accesses, fresh.accesses) << name << ' ' << access.text;
                    EXPECT_EQ(cached.element_set, fresh.element_set) << name << access.text;
                    ASSERT_EQ(cached.granules.size(), 2u);
                    EXPECT_EQ(cached.granules[1].set, fresh.granules[1].set) << access.text;
                    ++compared;
                }
            }
        EXPECT_GE(compared, 8u) << name;
    }
}
