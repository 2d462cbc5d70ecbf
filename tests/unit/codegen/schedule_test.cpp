// Lowering kernel files to schedules: loop fusion around tiles, accumulators, grid, guards,
// and the kernels the generator refuses.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <filesystem>
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
    const ArrayStorage* acc = s.find_array("acc_c");
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
    const ArrayStorage* acc = s.find_array("acc_res");
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
    const ArrayStorage* src = s.find_array("src");
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

namespace {

// The input Error lowering `text` gives ("" when it lowers).
std::string lowering_error(const char* text) {
    try {
        const auto spec = kernel::parse_kernel_text(text, "k.yaml");
        lower_kernel(spec, spec.launch);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        return e.what();
    }
    return "";
}

} // namespace

TEST(Schedule, RejectsWhatTheGeneratorCannotExpress) {
    // A nested reduction reusing an enclosing reduction's index.
    EXPECT_NE(lowering_error(R"yaml(
name: shadow
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n, n]}, c: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }"
threads: {x: i}
statements: ["c[i] = sum(j, sum(j, a[i, j]))"]
)yaml")
                  .find("reduction index 'j' is already bound by an enclosing reduction"),
              std::string::npos);
    // An inner reduction index the outer body also uses outside the inner reduction.
    EXPECT_NE(lowering_error(R"yaml(
name: escaped
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n, n]}, c: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }"
threads: {x: i}
statements: ["c[i] = sum(j, a[j, k] * sum(k, a[i, k]))"]
)yaml")
                  .find("reduction index 'k' must be a sequential index that the statement "
                        "does not use outside the reduction"),
              std::string::npos);
    // A reduction over a thread index.
    EXPECT_NE(lowering_error(R"yaml(
name: thread_reduction
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n]}, c: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["c[0] = sum(i, a[i])"]
)yaml")
                  .find("reduction index 'i' must be a sequential index"),
              std::string::npos);
    // Bitwise atomics on reals.
    EXPECT_NE(lowering_error(R"yaml(
name: float_or
params: {n: 8}
arrays: {c: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["atomic_or(c[i], 1)"]
)yaml")
                  .find("atomic_or needs an integer target; 'c' is f32"),
              std::string::npos);
}

TEST(Schedule, CompareAndSwapOperandsAreCheckedWhereTheyAreWritten) {
    // The two-operand form of old, and an undeclared name in the compare operand: errors at
    // file:line:column inside the statement.
    try {
        (void)kernel::parse_kernel_text(R"yaml(name: cas
params: {n: 8}
arrays: {c: {dtype: u32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["atomic_cas(c[i], 1)"]
)yaml",
                                        "cas.yaml");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find("atomic_cas takes three operands, "
                                             "atomic_cas(target, compare, value)"),
                  std::string::npos)
            << e.what();
        EXPECT_EQ(e.where().line, 6);
        EXPECT_EQ(e.where().column, 33); // the ')' where the value should be
    }
    try {
        (void)kernel::parse_kernel_text(R"yaml(name: cas
params: {n: 8}
arrays: {c: {dtype: u32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["atomic_cas(c[i], q, 1)"]
)yaml",
                                        "cas.yaml");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("undeclared name 'q'"), std::string::npos);
        EXPECT_EQ(e.where().column, 32);
    }
}

TEST(Schedule, NestedReductionsReinitialiseTheInnerAccumulatorInTheOuterLoop) {
    // c[i] = sum(k, a[i, k] * sum(l, b[k, l])) over l <= k: the inner accumulator starts
    // afresh in every k iteration; its loop runs over the bounding box and is guarded.
    const auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                               "/tests/unit/codegen/data/nested_reductions.yaml");
    const Schedule s = lower_kernel(spec, spec.launch);
    EXPECT_EQ(shape(s.body),
              // c: sum inside sum
              "init acc_c L(k:0..11)[init acc_c2 L(l:0..11)[update acc_c2] update acc_c] store "
              // p: prod inside sum
              "init acc_p L(k:0..11)[init acc_p2 L(l:0..11)[update acc_p2] update acc_p] store "
              // t: sum(k, ...) * sum(k, sum(l, ...) - ...): two top-level, one nested
              "init acc_t init acc_t2 L(k:0..11)[update acc_t init acc_t3 "
              "L(l:0..11)[update acc_t3] update acc_t2] store");
    const Step& inner_update = s.body[1].body[1].body[0];
    ASSERT_NE(inner_update.guard, nullptr);
    EXPECT_EQ(kernel::to_string(*inner_update.guard), "i <= 11 && k >= l"); // grid of 16
    EXPECT_EQ(kernel::to_string(*inner_update.statement.value), "b[k, l]");
    // The outer update reads the inner accumulator; the prod one starts at 1.
    EXPECT_EQ(kernel::to_string(*s.body[1].body[2].statement.value), "a[i, k] * acc_c2[]");
    EXPECT_EQ(kernel::to_string(*s.body[4].body[0].statement.value), "1");
    for (const char* name : {"acc_c", "acc_c2", "acc_p", "acc_p2", "acc_t", "acc_t2", "acc_t3"}) {
        const ArrayStorage* acc = s.find_array(name);
        ASSERT_NE(acc, nullptr) << name;
        EXPECT_TRUE(acc->accumulator);
        EXPECT_TRUE(acc->extents.empty()) << name << " is a private scalar";
    }
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

// Two computations of the grid agree on every example kernel: the bound kernel's (from the
// domain's range along each mapped axis) and map-threads' (from the thread-index forms the
// generated code uses). Array extents and parameter values are the bound kernel's own.
TEST(Schedule, LoweringABoundKernelKeepsItsValuesExtentsAndGrid) {
    int lowered = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels")) {
        if (entry.path().extension() != ".yaml")
            continue;
        SCOPED_TRACE(entry.path().string());
        const kernel::KernelSpec spec = kernel::load_kernel_file(entry.path().string());
        const kernel::BoundKernel bound = analysis::bind(analysis::analyze(spec, spec.launch), {});
        Schedule s;
        try {
            s = lower_kernel(bound);
        } catch (const Error& e) {
            ASSERT_EQ(e.kind(), ErrorKind::input) << e.what(); // beyond the generator
            continue;
        }
        ++lowered;
        EXPECT_EQ(s.parameters, bound.named_values());
        EXPECT_EQ(s.grid, bound.grid());
        for (const auto& decl : spec.arrays) {
            ASSERT_NE(s.find_array(decl.name), nullptr);
            EXPECT_EQ(s.find_array(decl.name)->extents, bound.extents(decl.name));
            EXPECT_EQ(s.find_array(decl.name)->offset, bound.offset(decl.name));
        }
    }
    EXPECT_GT(lowered, 20);
}
