// Passes split-statements and order-reduction-pieces: pieces per statement, accumulators, and
// inits / stores moved around the tile loops they share.
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(StatementPieces, AReductionBecomesInitUpdateStore) {
    const kernel::KernelSpec spec = example("dg_diff_2");
    LoweringState state(spec, spec.launch, {{"nelements", 32}});
    run_through(state, "split-statements");
    EXPECT_EQ(pieces_text(state),
              "S0[jo] B[jo] init acc_res[m] update acc_res[jj,jo,m] store2[m] B[jo]");
    ASSERT_EQ(state.accumulators.size(), 1u);
    const Accumulator& acc = state.accumulators[0];
    EXPECT_EQ(acc.name, "acc_res");
    EXPECT_EQ(acc.statement, 2);
    EXPECT_EQ(acc.parent, -1);
    EXPECT_EQ(acc.outer, std::vector<std::string>{"m"});
    EXPECT_TRUE(acc.pieces.empty()); // assigned once the order is final
}

TEST(StatementPieces, InitsMoveBeforeAndStoresAfterTheSharedTileLoop) {
    const kernel::KernelSpec spec = example("dg_diff_2");
    LoweringState state(spec, spec.launch, {{"nelements", 32}});
    run_through(state, "order-reduction-pieces");
    EXPECT_EQ(pieces_text(state),
              "init acc_res[m] S0[jo] B[jo] update acc_res[jj,jo,m] B[jo] store2[m]");
    EXPECT_EQ(state.accumulators[0].pieces, (std::vector<int>{0, 3, 5}));
}

TEST(StatementPieces, NestedReductionsGetChildAccumulatorsAndFreshNames) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: nested
params: {n: 4}
arrays:
  a: {dtype: f32, shape: [n, n, n]}
  c: {dtype: f32, shape: [n]}
  acc_c: {dtype: f32, shape: [n]}
domain: "[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }"
threads: {x: i}
statements: ["c[i] = sum(j, acc_c[j] * sum(k, a[i, j, k]))"]
)yaml",
                                                              "nested.yaml");
    LoweringState state(spec, spec.launch, {});
    run_through(state, "order-reduction-pieces");
    ASSERT_EQ(state.accumulators.size(), 2u);
    EXPECT_EQ(state.accumulators[0].name, "acc_c2"); // acc_c is an array of the kernel
    EXPECT_EQ(state.accumulators[1].name, "acc_c3");
    EXPECT_EQ(state.accumulators[1].parent, 0);
    EXPECT_EQ(state.accumulators[1].outer, std::vector<std::string>{"j"});
    // init(outer) for (j) { init(inner) for (k) update(inner); update(outer) } store
    EXPECT_EQ(pieces_text(state),
              "init acc_c2[] init acc_c3[j] update acc_c3[j,k] update acc_c2[j] store0[]");
    // The inner accumulator is read by the outer update, the outer one by the store.
    EXPECT_EQ(state.accumulators[1].pieces, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(state.accumulators[0].pieces, (std::vector<int>{0, 3, 4}));
}
