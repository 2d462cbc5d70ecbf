// The fold fast path's loads: each distinct element of a read-only array once, exactly as many
// as the L1 model counts (its instructions per thread, register reuse removed), and no fast path
// where reuse would be wrong or there is nothing to reuse. The host-emulation test runs the
// printed fast path; the NVRTC test counts its loads in PTX.
#include "../../../src/codegen/fold_load_reuse.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/l1_wavefronts.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::detail;

namespace {

kernel::KernelSpec star3d_r2() {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                    "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
}

const std::set<std::string> every_index{"x", "y", "z", "i", "j", "fx", "fy", "fz"};

std::optional<FoldLoadReuse> plan(const kernel::KernelSpec& spec,
                                  const kernel::LaunchConfig& launch) {
    return plan_fold_load_reuse(lower_kernel(spec, launch), every_index);
}

// Load instructions per thread of the L1 model (l1_wavefronts.hpp).
std::int64_t model_loads(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch) {
    const auto analysis = analysis::analyze(spec, launch);
    const auto params = analysis::bind(analysis).values();
    const std::vector<double> once(analysis.accesses.size(), 1.0);
    const auto estimate = models::estimate_l1(
        analysis, params, models::l1_bank_layout(resolve_machine("h200-sxm-141gb")), once);
    std::int64_t loads = 0;
    for (const auto& access : estimate.accesses)
        if (access.direction == analysis::Direction::load)
            loads += access.instructions_per_thread;
    return loads;
}

} // namespace

TEST(FoldLoadReuse, StarFoldedTwiceInZLoadsEachElementOnce) {
    const auto reuse = plan(star3d_r2(), {{32, 4, 8}, {1, 1, 2}});
    ASSERT_TRUE(reuse);
    // 13 loads in instance 0; instance 1 shares z-1..z+2 of its column (4) with them.
    EXPECT_EQ(reuse->loads.size(), 13u + 9u);
    EXPECT_EQ(reuse->loop_loads, 26);
    ASSERT_EQ(reuse->instances.size(), 2u);
    EXPECT_EQ(reuse->instances[1].fold_index, (std::array<std::int64_t, 3>{0, 0, 1}));
    EXPECT_EQ(reuse->instances[0].steps.at(0).first_loads.size(), 13u);
    EXPECT_EQ(reuse->instances[1].steps.at(0).first_loads.size(), 9u);
    // x and y do not depend on the fold: declared once; z once per instance.
    std::vector<std::string> names;
    for (const auto& index : reuse->indices)
        names.push_back(index.name + " = " + index.form.to_string());
    EXPECT_EQ(names,
              (std::vector<std::string>{"x = 32*bx + tx + 2", "y = 4*by + ty + 2",
                                        "kc_z_0 = 16*bz + 2*tz + 2", "kc_z_1 = 16*bz + 2*tz + 3"}))
        << ::testing::PrintToString(names);
    // The guards of both instances, each conjunct once.
    std::vector<std::string> conditions;
    for (const auto& part : reuse->conditions)
        conditions.push_back(kernel::to_string(*part));
    EXPECT_EQ(conditions, (std::vector<std::string>{"x <= 597", "kc_z_0 <= 509", "kc_z_1 <= 509"}))
        << ::testing::PrintToString(conditions);
    // Instance 1's centre src[z, y, x] is instance 0's src[z + 1, y, x] (its 7th load).
    EXPECT_EQ(kernel::to_string(*reuse->loads[6].reference), "src[kc_z_0 + 1, y, x]");
}

TEST(FoldLoadReuse, LoadsPerThreadEqualTheL1Model) {
    const auto spec = star3d_r2();
    for (const kernel::LaunchConfig& launch :
         {kernel::LaunchConfig{{32, 4, 8}, {1, 1, 2}}, kernel::LaunchConfig{{4, 16, 16}, {1, 1, 4}},
          kernel::LaunchConfig{{64, 2, 1}, {1, 2, 1}}, kernel::LaunchConfig{{16, 8, 2}, {2, 1, 1}},
          kernel::LaunchConfig{{8, 4, 4}, {2, 2, 2}},
          kernel::LaunchConfig{{32, 1, 1}, {1, 1, 8}}}) {
        SCOPED_TRACE(::testing::PrintToString(launch.block) + " fold " +
                     ::testing::PrintToString(launch.fold));
        const auto reuse = plan(spec, launch);
        ASSERT_TRUE(reuse);
        EXPECT_EQ(static_cast<std::int64_t>(reuse->loads.size()), model_loads(spec, launch));
        const std::int64_t instances = launch.fold[0] * launch.fold[1] * launch.fold[2];
        EXPECT_EQ(reuse->loop_loads, 13 * instances);
        EXPECT_EQ(static_cast<std::int64_t>(reuse->instances.size()), instances);
    }
}

TEST(FoldLoadReuse, NoFastPathWithoutFoldingOrBeyondTheInstanceLimit) {
    const auto spec = star3d_r2();
    EXPECT_FALSE(plan(spec, {{32, 4, 8}, {1, 1, 1}}));
    EXPECT_TRUE(plan(spec, {{32, 1, 1}, {1, 1, fold_fast_path_instance_limit}}));
    EXPECT_FALSE(plan(spec, {{32, 1, 1}, {1, 1, 2 * fold_fast_path_instance_limit}}));
}

TEST(FoldLoadReuse, NoFastPathWithoutSharedLoads) {
    // Folded along z, a 2D row copy shares nothing between its fold instances.
    const auto copy = kernel::parse_kernel_text(R"yaml(
name: copy
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [j, i] : 0 <= i < n and 0 <= j < n }"
threads: {x: i, y: j}
statements: ["b[j, i] = a[j, i]"]
)yaml",
                                                "copy.yaml");
    EXPECT_FALSE(plan(copy, {{32, 4, 1}, {1, 2, 1}}));
    // ... but a 1D stencil folded along x does: a[i + 1] of one point is a[i] of the next.
    const auto stencil = kernel::parse_kernel_text(R"yaml(
name: smooth
params: {n: 256}
arrays:
  a: {dtype: f32, shape: [n]}
  b: {dtype: f32, shape: [n]}
domain: "[n] -> { [i] : 1 <= i < n - 1 }"
threads: {x: i}
statements: ["b[i] = a[i - 1] + a[i] + a[i + 1]"]
)yaml",
                                                   "smooth.yaml");
    const auto reuse = plan(stencil, {{32, 1, 1}, {4, 1, 1}});
    ASSERT_TRUE(reuse);
    EXPECT_EQ(reuse->loads.size(), 6u); // a[i - 1] .. a[i + 4]
    EXPECT_EQ(reuse->loop_loads, 12);
}

TEST(FoldLoadReuse, ArraysTheKernelWritesAreNotReused) {
    // In place: instance 1 (point i + 1) reads a[i], which instance 0 has just stored; a
    // register holding the a[i] instance 0 read would be stale.
    const auto in_place = kernel::parse_kernel_text(R"yaml(
name: in_place
params: {n: 256}
arrays:
  a: {dtype: f64, shape: [n]}
domain: "[n] -> { [i] : 1 <= i < n - 1 }"
threads: {x: i}
statements: ["a[i] = a[i - 1] + a[i] + a[i + 1]"]
)yaml",
                                                    "in_place.yaml");
    EXPECT_FALSE(plan(in_place, {{32, 1, 1}, {2, 1, 1}}));
}

TEST(FoldLoadReuse, InstancesInterleaveAroundSequentialLoops) {
    // x[j] is the same element for every fold instance inside the reduction's loop: the
    // instances run interleaved in it, x[j] loaded once an iteration, one accumulator each.
    const char* text = R"yaml(
name: matvec
params: {n: 256}
arrays:
  a: {dtype: f32, shape: [n, n]}
  x: {dtype: f32, shape: [n]}
  y: {dtype: f32, shape: [n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: i}
statements: ["y[i] = sum(j, a[i, j] * x[j])"]
)yaml";
    const auto matvec = kernel::parse_kernel_text(text, "matvec.yaml");
    const kernel::LaunchConfig launch{{32, 1, 1}, {2, 1, 1}};
    const auto reuse = plan_fold_load_reuse(lower_kernel(matvec, launch), every_index);
    ASSERT_TRUE(reuse);
    EXPECT_TRUE(reuse->instances.empty());
    ASSERT_EQ(reuse->interleaved.size(), 3u); // init, the j loop, store
    EXPECT_FALSE(reuse->interleaved[0].loop);
    ASSERT_TRUE(reuse->interleaved[1].loop);
    EXPECT_EQ(reuse->interleaved[1].index, "j");
    ASSERT_EQ(reuse->private_copies.size(), 1u); // the accumulator for instance 1
    EXPECT_EQ(reuse->private_copies[0].name, "kc_acc_y_1");
    // In the loop: a[i, j] of each instance and x[j] once, as the L1 model counts them.
    EXPECT_EQ(reuse->loads.size(), 3u);
    EXPECT_EQ(reuse->loop_loads, 4);
    EXPECT_EQ(static_cast<std::int64_t>(reuse->loads.size()), model_loads(matvec, launch));
    EXPECT_EQ(kernel::to_string(*reuse->loads[1].reference), "x[j]");
}

TEST(FoldLoadReuse, NoInterleavingThatWouldChangeWhatTheKernelComputes) {
    // A running sum written and read inside the loop: each instance's point must see its own
    // writes in order; interleaving them is refused (the fold loop stays).
    const auto prefix = kernel::parse_kernel_text(R"yaml(
name: prefix
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  s: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 1 <= j < n }"
threads: {x: i}
statements: ["s[i, j] = s[i, j - 1] + a[i, j] + a[0, j]"]
)yaml",
                                                  "prefix.yaml");
    EXPECT_FALSE(plan_fold_load_reuse(lower_kernel(prefix, {{32, 1, 1}, {2, 1, 1}}), every_index));
    // A guard on the loop index cannot be tested before the loops.
    const auto triangle = kernel::parse_kernel_text(R"yaml(
name: triangle
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  x: {dtype: f32, shape: [n]}
  y: {dtype: f32, shape: [n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }"
threads: {x: i}
statements: ["y[i] = sum(j, a[i, j] * x[j])"]
)yaml",
                                                    "triangle.yaml");
    EXPECT_FALSE(
        plan_fold_load_reuse(lower_kernel(triangle, {{32, 1, 1}, {2, 1, 1}}), every_index));
}

// The values the instances share, as the analysis counts their operations
// (KernelAnalysis.FoldInstancesShareTheOperationsWhoseOperandsTheyShare): at fold 2x2 the
// quotient (a[y] * a[y]) / (b[0] + 1.5) once per y instance, the divisor inside it once for all
// four, a[x] + b[0] * b[1] once per x instance and the product inside it once; the quotient's
// sums with a[x] per instance.
TEST(FoldLoadReuse, ValuesTheInstancesShareAreComputedOnce) {
    const auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                               "/tests/user_kernels/fold_shared_operations.yaml");
    const auto reuse = plan(spec, {{32, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided});
    ASSERT_TRUE(reuse);
    std::vector<std::string> values;
    for (const auto& value : reuse->values) {
        EXPECT_EQ(value.dtype, kernel::DataType::f32);
        values.push_back(value.name + " = " + kernel::to_string(*value.value));
    }
    // Instance (fx, fy) = (0, 0) makes a value's nested values first; (1, 0) the second
    // statement's second sum; (0, 1) the second quotient.
    EXPECT_EQ(values, (std::vector<std::string>{
                          "kc_v_0 = kc_b_1 + 1.5",
                          "kc_v_1 = kc_a_0 * kc_a_0 / kc_v_0",
                          "kc_v_2 = kc_b_1 * kc_b_3",
                          "kc_v_3 = kc_a_2 + kc_v_2",
                          "kc_v_4 = kc_a_4 + kc_v_2",
                          "kc_v_5 = kc_a_5 * kc_a_5 / kc_v_0",
                      }));
    // The fold loop computes each of the four expressions for every instance.
    EXPECT_EQ(reuse->value_uses, 4 * 4);
    // An operation of a private value, or of an array the kernel writes, is not shared.
    const auto running = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/tests/user_kernels/fold_private_and_written.yaml");
    const auto kept = plan(running, {{32, 1, 1}, {2, 1, 1}, kernel::FoldPlacement::strided});
    ASSERT_TRUE(kept);
    ASSERT_EQ(kept->values.size(), 2u);
    EXPECT_EQ(kernel::to_string(*kept->values[0].value), "kc_a_0 * 2.0");
    EXPECT_EQ(kernel::to_string(*kept->values[1].value), "kc_a_1 * 3.0");
}

// A shared value is computed outside the condition that guards it, so it holds no integer
// division or remainder (8 / j divides by zero at j = 0, which the guard excludes); the float
// division beside it is shared. The analysis counts them so
// (KernelAnalysis.OperationsHoldingAnIntegerDivisionAreNotShared).
TEST(FoldLoadReuse, NoSharedValueHoldsAnIntegerDivision) {
    const auto guarded = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/tests/user_kernels/fold_guarded_integer_division.yaml");
    const auto reuse = plan(guarded, {{32, 1, 1}, {2, 1, 1}, kernel::FoldPlacement::strided});
    ASSERT_TRUE(reuse);
    ASSERT_EQ(reuse->values.size(), 1u);
    EXPECT_EQ(kernel::to_string(*reuse->values[0].value), "kc_a_1 / 3.0");
}
