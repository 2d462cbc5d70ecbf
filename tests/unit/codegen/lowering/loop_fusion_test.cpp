// Pass fuse-loops: the fusion legality rule on hand-made accesses, and the fused order and loop
// instances of a tiled kernel.
#include "../../../../src/codegen/expr_build.hpp"
#include "../../../../src/codegen/lowering/loop_fusion.hpp"
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::detail;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

namespace {

Access access(const std::string& array, std::vector<std::string> subscripts, bool write) {
    Access a;
    a.array = array;
    a.write = write;
    for (const auto& s : subscripts)
        a.subscripts.push_back(make_variable(s));
    return a;
}

} // namespace

TEST(LoopFusion, SameElementPerIterationIsLegal) {
    EXPECT_TRUE(fusion_is_legal({access("t", {"k"}, true)}, {access("t", {"k"}, false)}, "k"));
}

TEST(LoopFusion, ReadingAnotherIterationsElementIsNot) {
    EXPECT_FALSE(fusion_is_legal({access("t", {"k"}, true)}, {access("t", {"j"}, false)}, "k"));
    EXPECT_FALSE(fusion_is_legal({access("t", {"j"}, false)}, {access("t", {"k"}, true)}, "k"));
}

TEST(LoopFusion, WholeArrayPerIterationAndReadOnlyArraysAreLegal) {
    // Neither subscript mentions k: the tile is produced and consumed in every iteration.
    EXPECT_TRUE(fusion_is_legal({access("t", {"tx"}, true)}, {access("t", {"j"}, false)}, "k"));
    // Two reads never conflict; different arrays never conflict.
    EXPECT_TRUE(fusion_is_legal({access("a", {"k"}, false)}, {access("a", {"j"}, false)}, "k"));
    EXPECT_TRUE(fusion_is_legal({access("a", {"k"}, true)}, {access("b", {"j"}, false)}, "k"));
}

TEST(LoopFusion, TiledKernelSharesTheTileLoopAndSplitsM) {
    const kernel::KernelSpec spec = example("dg_diff_2");
    LoweringState state(spec, spec.launch, {{"nelements", 32}});
    run_through(state, "fuse-loops");
    // init | jo: fetch, barrier, m: jj: update, barrier | store
    std::vector<std::vector<std::string>> orders;
    std::vector<size_t> shared;
    for (const auto& piece : state.pieces) {
        orders.push_back(piece.order);
        shared.push_back(piece.shared);
    }
    EXPECT_EQ(orders, (std::vector<std::vector<std::string>>{
                          {"m"}, {"jo"}, {"jo"}, {"jo", "m", "jj"}, {"jo"}, {"m"}}));
    EXPECT_EQ(shared, (std::vector<size_t>{0, 0, 1, 1, 1, 0}));
    // Three instances of the m loop: around the init, inside jo, around the store.
    EXPECT_EQ(state.pieces[0].loop_nodes.at("m"), 0);
    EXPECT_EQ(state.pieces[3].loop_nodes.at("m"), 2);
    EXPECT_EQ(state.pieces[5].loop_nodes.at("m"), 4);
    EXPECT_EQ(state.pieces[3].loop_nodes.at("jo"), state.pieces[1].loop_nodes.at("jo"));
}
