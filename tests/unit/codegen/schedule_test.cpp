// Lowering kernel files to schedules: loop fusion around tiles, accumulators, grid, guards,
// and the kernels the generator refuses.
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
}

// "L(ko)[...]", "S", "B": a compact picture of the loop tree.
std::string shape(const std::vector<Step>& steps) {
    std::string out;
    for (const auto& step : steps) {
        if (!out.empty())
            out += " ";
        switch (step.kind) {
        case StepKind::loop:
            out += "L(" + step.index + ":" + std::to_string(step.lower) + ".." +
                   std::to_string(step.upper) + ")[" + shape(step.body) + "]";
            break;
        case StepKind::barrier:
            out += "B";
            break;
        case StepKind::compute:
            out += step.role.empty() ? "S" : step.role;
            break;
        }
    }
    return out;
}

} // namespace

TEST(Schedule, MatmulTiledFusesPrefetchBarriersAndReductionInOneTileLoop) {
    const Schedule s = lower_kernel(example("matmul_tiled16"), example("matmul_tiled16").launch,
                                    {{"n", 64}, {"m", 32}, {"l", 48}});
    EXPECT_EQ(shape(s.body), "init acc_c L(ko:0..1)[S S B L(kk:0..15)[update acc_c] B] store");
    EXPECT_EQ(s.grid, (std::array<std::int64_t, 3>{3, 4, 1})); // l/16, n/16
    const ArrayLayout* acc = s.find_array("acc_c");
    ASSERT_NE(acc, nullptr);
    EXPECT_TRUE(acc->accumulator);
    EXPECT_TRUE(acc->extents.empty()); // one scalar per thread
    // The grid covers the domain exactly: no bounds checks are left.
    EXPECT_EQ(s.body.front().guard, nullptr);
}

TEST(Schedule, DgDiff2PrivatisesTheAccumulatorOverM) {
    // The u tile loop jo sits outside m (the tile serves all matrices), so each m needs its
    // own accumulator across the jo iterations (Stevens & Klöckner 8.4, variant 2).
    const Schedule s =
        lower_kernel(example("dg_diff_2"), example("dg_diff_2").launch, {{"nelements", 32}});
    EXPECT_EQ(shape(s.body), "L(m:0..2)[init acc_res] L(jo:0..3)[S B L(m:0..2)[L(jj:0..15)[update "
                             "acc_res]] B] L(m:0..2)[store]");
    const ArrayLayout* acc = s.find_array("acc_res");
    ASSERT_NE(acc, nullptr);
    EXPECT_EQ(acc->extents, std::vector<std::int64_t>{3});
}

TEST(Schedule, DgDiff4KeepsAScalarAccumulatorInsideM) {
    const Schedule s =
        lower_kernel(example("dg_diff_4"), example("dg_diff_4").launch, {{"nelements", 32}});
    EXPECT_EQ(shape(s.body),
              "L(m:0..2)[init acc_res L(jo:0..3)[S B L(jj:0..15)[update acc_res] B] store]");
    EXPECT_TRUE(s.find_array("acc_res")->extents.empty());
}

TEST(Schedule, GridRoundsUpAndGuardsTheRemainder) {
    // star2d_r1 at nx = 300: x runs over 1..298 (298 points), 256 threads per block -> 2
    // blocks along x, and the second block's threads beyond x = 298 must do nothing.
    const kernel::KernelSpec spec = example("star2d_r1");
    const Schedule s = lower_kernel(spec, spec.launch, {{"nx", 300}, {"ny", 7}});
    EXPECT_EQ(s.grid, (std::array<std::int64_t, 3>{2, 3, 1})); // ceil(298/256), ceil(5/2)
    ASSERT_EQ(s.body.size(), 1u);
    ASSERT_NE(s.body[0].guard, nullptr);
    EXPECT_EQ(kernel::to_string(*s.body[0].guard), "x <= 298 && y <= 5");
    ASSERT_EQ(s.thread_indices.size(), 2u);
    EXPECT_EQ(s.thread_indices[0].index, "x");
    EXPECT_EQ(s.thread_indices[0].form.to_string(), "256*bx + tx + 1");
}

TEST(Schedule, FoldingEntersTheThreadIndexForm) {
    const kernel::KernelSpec spec = example("star3d_r4");
    const Schedule s = lower_kernel(spec, spec.launch, {{"nx", 40}, {"ny", 16}, {"nz", 24}});
    // z = 4 + (bz*4 + tz)*2 + fz; 16 interior planes / (4 threads * 2 points) = 2 blocks.
    EXPECT_EQ(s.thread_indices[2].form.to_string(), "8*bz + fz + 2*tz + 4");
    EXPECT_EQ(s.grid, (std::array<std::int64_t, 3>{1, 2, 2}));
    const ArrayLayout* src = s.find_array("src");
    EXPECT_EQ(src->offset, 4);
    EXPECT_EQ(src->buffer_elements, 4 + 40 * 16 * 24);
    EXPECT_FALSE(src->written);
    EXPECT_TRUE(s.find_array("dst")->written);
}

TEST(Schedule, ExplicitBlocksTakeTheirExtentAsGrid) {
    const kernel::KernelSpec spec = example("fd5pt_16");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 40}});
    EXPECT_EQ(s.grid, (std::array<std::int64_t, 3>{3, 3, 1})); // 14*bi < 40 -> bi <= 2
    EXPECT_EQ(s.launch.block, (std::array<std::int64_t, 3>{16, 16, 1}));
    EXPECT_EQ(shape(s.body), "S B S");
    // The `where` conditions guard the statements.
    ASSERT_NE(s.body[2].guard, nullptr);
    EXPECT_NE(kernel::to_string(*s.body[2].guard).find("li <= 14"), std::string::npos);
}

TEST(Schedule, RejectsWhatTheGeneratorCannotExpress) {
    const char* nested = R"yaml(
name: nested
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n, n]}, c: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }"
threads: {x: i}
statements: ["c[i] = sum(j, sum(k, a[j, k]))"]
)yaml";
    const auto spec = kernel::parse_kernel_text(nested, "nested.yaml");
    try {
        lower_kernel(spec, spec.launch);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find("nested reductions"), std::string::npos);
    }
    const char* cas = R"yaml(
name: cas
params: {n: 8}
arrays: {c: {dtype: u32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["atomic_cas(c[i], 1)"]
)yaml";
    const auto cas_spec = kernel::parse_kernel_text(cas, "cas.yaml");
    EXPECT_THROW(lower_kernel(cas_spec, cas_spec.launch), Error);
}

TEST(Schedule, FusionKeepsDependencesOfOneIteration) {
    // histogram: the atomic reads offsets[c], which the first statement wrote in the same
    // iteration: one loop. histogram_reordered reads offsets[(c + tx) % 4], written in another
    // iteration: fusing would read values not yet written, so the loops stay apart.
    const auto plain = example("histogram");
    EXPECT_EQ(shape(lower_kernel(plain, plain.launch, {{"n", 1024}}).body), "B L(c:0..3)[S S] B");
    const auto reordered = example("histogram_reordered");
    EXPECT_EQ(shape(lower_kernel(reordered, reordered.launch, {{"n", 1024}}).body),
              "B L(c:0..3)[S] L(c:0..3)[S] B");
}
