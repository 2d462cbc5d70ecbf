// Pass build-loop-tree: loops from the fused order, init / update / store steps with the
// accumulator's reads and writes, and guards.
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(LoopTree, ProductsStartAtOneAndMultiply) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: product
params: {n: 8}
arrays: {a: {dtype: f64, shape: [n, n]}, c: {dtype: f64, shape: [n]}}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: i}
launch: {block: [256]}
statements: ["c[i] = 2 * prod(j, a[i, j])"]
)yaml",
                                                              "product.yaml");
    LoweringState state(spec, spec.launch, {});
    run_through(state, "build-loop-tree");
    const std::vector<Step>& body = state.schedule.body;
    ASSERT_EQ(body.size(), 3u); // init, loop j { update }, store
    EXPECT_EQ(body[0].role, "init acc_c");
    EXPECT_EQ(body[0].statement.op, kernel::AssignOp::assign);
    EXPECT_EQ(kernel::to_string(*body[0].statement.value), "1");
    ASSERT_EQ(body[1].kind, StepKind::loop);
    EXPECT_EQ(body[1].index, "j");
    EXPECT_EQ(body[1].lower, 0);
    EXPECT_EQ(body[1].upper, 7);
    ASSERT_EQ(body[1].body.size(), 1u);
    const Step& update = body[1].body[0];
    EXPECT_EQ(update.role, "update acc_c");
    EXPECT_EQ(update.statement.op, kernel::AssignOp::mul_assign);
    EXPECT_EQ(kernel::to_string(*update.statement.value), "a[i, j]");
    EXPECT_EQ(body[2].role, "store");
    EXPECT_EQ(kernel::to_string(*body[2].statement.value), "2 * acc_c[]");
    // 256 threads over 8 rows: every step is guarded by i <= 7.
    for (const Step* step : {&body[0], &update, &body[2]}) {
        ASSERT_NE(step->guard, nullptr);
        EXPECT_EQ(kernel::to_string(*step->guard), "i <= 7");
    }
}

TEST(LoopTree, TiledMatmulFusesTheTileLoop) {
    const kernel::KernelSpec spec = example("matmul_tiled16");
    LoweringState state(spec, spec.launch, {{"n", 64}, {"m", 32}, {"l", 48}});
    run_through(state, "build-loop-tree");
    const std::vector<Step>& body = state.schedule.body;
    ASSERT_EQ(body.size(), 3u);
    EXPECT_EQ(body[0].role, "init acc_c");
    ASSERT_EQ(body[1].kind, StepKind::loop);
    EXPECT_EQ(body[1].index, "ko");
    ASSERT_EQ(body[1].body.size(), 5u); // fetch a, fetch b, barrier, loop kk, barrier
    EXPECT_EQ(body[1].body[2].kind, StepKind::barrier);
    EXPECT_EQ(body[1].body[3].index, "kk");
    EXPECT_EQ(body[2].role, "store");
    EXPECT_EQ(body[2].source_statement, 3);
    EXPECT_EQ(body[0].guard, nullptr); // the grid covers the domain exactly
}
