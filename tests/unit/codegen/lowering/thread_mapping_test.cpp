// Passes map-threads and bound-sequential-loops: thread-mapped indices, the grid, and the
// bounding box of each sequential index.
#include "kerncast/error.hpp"
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(ThreadMapping, GlobalIndicesRoundTheGridUp) {
    // star2d_r1 at nx = 300: x runs over 1..298, 256 threads per block -> 2 blocks.
    const kernel::KernelSpec spec = example("star2d_r1");
    LoweringState state(spec, spec.launch, {{"nx", 300}, {"ny", 7}});
    run_through(state, "map-threads");
    EXPECT_EQ(state.schedule.grid, (std::array<std::int64_t, 3>{2, 3, 1}));
    EXPECT_EQ(state.thread_mapped, (std::set<std::string>{"x", "y"}));
    ASSERT_EQ(state.schedule.thread_indices.size(), 2u);
    const ThreadIndex& x = state.schedule.thread_indices[0];
    EXPECT_EQ(x.index, "x");
    EXPECT_EQ(x.axis, 0);
    EXPECT_FALSE(x.explicit_block);
    EXPECT_EQ(x.form.to_string(), "256*bx + tx + 1");
    // The grid covers x up to 1 + 2*256 - 1 = 512; the guard must cut it at 298.
    EXPECT_EQ(kernel::to_string(*state.domain->guard({"x"})), "x <= 298");
}

TEST(ThreadMapping, ExplicitBlocksAndLocals) {
    const kernel::KernelSpec spec = example("fd5pt_16");
    LoweringState state(spec, spec.launch, {{"n", 40}});
    run_through(state, "map-threads");
    EXPECT_EQ(state.schedule.grid, (std::array<std::int64_t, 3>{3, 3, 1})); // 14*bi < 40
    int blocks = 0, locals = 0;
    for (const auto& t : state.schedule.thread_indices) {
        blocks += t.explicit_block;
        locals += t.explicit_local;
    }
    EXPECT_EQ(blocks, 2);
    EXPECT_EQ(locals, 2);
}

TEST(ThreadMapping, NegativeBlockIndexIsUnsupported) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: below
params: {n: 4}
arrays: {a: {dtype: f32, shape: [n]}}
domain: "[n] -> { [b] : -1 <= b < n - 1 }"
blocks: {x: b}
statements: ["a[b + 1] = 1"]
)yaml",
                                                              "below.yaml");
    LoweringState state(spec, spec.launch, {});
    try {
        run_through(state, "map-threads");
        FAIL() << "a negative block index was mapped";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("block index 'b' takes negative values"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ThreadMapping, SequentialLoopsRunOverTheBoundingBox) {
    const kernel::KernelSpec spec = example("matmul_tiled16");
    LoweringState state(spec, spec.launch, {{"n", 64}, {"m", 32}, {"l", 48}});
    run_through(state, "bound-sequential-loops");
    EXPECT_EQ(state.loop_range,
              (std::map<std::string, IndexRange>{{"ko", {0, 1}}, {"kk", {0, 15}}}));
    EXPECT_EQ(state.schedule.grid, (std::array<std::int64_t, 3>{3, 4, 1})); // l/16, n/16
}
