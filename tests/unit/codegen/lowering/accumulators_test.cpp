// Pass place-accumulators: private scalars when the accumulator's pieces share its loops,
// private arrays over them when fusion split them; f16 accumulates in f32.
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(Accumulators, SplitLoopsPrivatiseOverTheStatementsIndices) {
    const kernel::KernelSpec spec = example("dg_diff_2"); // nmatrices 3
    LoweringState state(spec, spec.launch, {{"nelements", 32}});
    run_through(state, "place-accumulators");
    EXPECT_TRUE(state.accumulators[0].privatised);
    const ArrayStorage* acc = state.schedule.find_array("acc_res");
    ASSERT_NE(acc, nullptr);
    EXPECT_EQ(acc->decl.space, kernel::MemorySpace::private_);
    EXPECT_EQ(acc->decl.dtype, kernel::DataType::f32);
    EXPECT_EQ(acc->extents, std::vector<std::int64_t>{3});
    EXPECT_EQ(acc->buffer_elements, 3);
    EXPECT_TRUE(acc->accumulator);
    EXPECT_TRUE(acc->written);
    ASSERT_EQ(state.accumulator_target.size(), 1u);
    EXPECT_EQ(kernel::to_string(*state.accumulator_target.at(0)), "acc_res[m]");
    EXPECT_EQ(state.accumulator_refs.at(state.accumulators[0].reduction),
              state.accumulator_target.at(0));
}

TEST(Accumulators, SharedLoopsKeepAScalar) {
    const kernel::KernelSpec spec = example("dg_diff_4");
    LoweringState state(spec, spec.launch, {{"nelements", 32}});
    run_through(state, "place-accumulators");
    EXPECT_FALSE(state.accumulators[0].privatised);
    EXPECT_TRUE(state.schedule.find_array("acc_res")->extents.empty());
    EXPECT_EQ(kernel::to_string(*state.accumulator_target.at(0)),
              "acc_res[]"); // no subscripts: a scalar
}

TEST(Accumulators, HalfPrecisionAccumulatesInFloat) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: halfsum
params: {n: 8}
arrays: {a: {dtype: f16, shape: [n, n]}, c: {dtype: f16, shape: [n]}}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: i}
statements: ["c[i] = sum(j, a[i, j])"]
)yaml",
                                                              "halfsum.yaml");
    LoweringState state(spec, spec.launch, {});
    run_through(state, "place-accumulators");
    EXPECT_EQ(state.schedule.find_array("acc_c")->decl.dtype, kernel::DataType::f32);
    // Accumulators come after the declared arrays.
    EXPECT_EQ(state.schedule.arrays.back().decl.name, "acc_c");
}
