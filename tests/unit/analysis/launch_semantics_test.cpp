// Launches that would change what a kernel computes (launch_semantics.hpp): the user-written
// tiled transpose and shared-memory tree of issue 42, and the tiled examples, worked by hand
// from their statements.
#include "bind_error.hpp"
#include "kerncast/analysis/launch_semantics.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using kerncast::analysis::testing::bind_error;

namespace {

kernel::KernelSpec load(const std::string& path) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/" + path);
}

kernel::LaunchConfig launch(kernel::Dim3 block, kernel::Dim3 fold = {1, 1, 1},
                            kernel::FoldPlacement placement = kernel::FoldPlacement::consecutive) {
    return {block, fold, placement};
}

} // namespace

TEST(LaunchSemantics, TransposeRunsAtItsOwnLaunch) {
    const auto spec = load("tests/user_kernels/transpose_tiled.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
}

TEST(LaunchSemantics, FoldingTheTransposeIsRefused) {
    // Folded 2 along y at block 32x32: thread ty runs rows 2*ty and 2*ty + 1 of a 64-row block,
    // and the shared subscript tile[ty, tx] names ty: both fold instances reuse one tile row.
    // (At block 32x16 the shared-array check refuses first: tile[tx, ty] reads rows 16..31.)
    const auto spec = load("tests/user_kernels/transpose_tiled.yaml");
    const std::string folded = bind_error(spec, launch({32, 32, 1}, {1, 2, 1}));
    EXPECT_NE(folded.find("launch block 32x32x1, fold 1x2x1 would change what kernel "
                          "'transpose_tiled' computes: the shared subscript 'tile[ty, tx]' "
                          "names 'ty'"),
              std::string::npos)
        << folded;
}

TEST(LaunchSemantics, AnotherLaunchMovesBlockRelativeWrites) {
    // b[j, 32*by + ty] is b[j, i] at block 32x32 only. At block 32x16, by counts 16-row blocks:
    // the point i = 16, j = 0 (block (0, 1), thread (0, 0)) writes b[0, 32] here, while at
    // 32x32 the point writing b[0, 32] is i = 32. Folded 2 along y at 32x16, i = 32*by + 2*ty +
    // fy: the point i = 1 (ty = 0, fy = 1) writes b[0, 0] as i = 0 does.
    const char* text = R"yaml(
name: block_relative
params: {n: 256}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: j, y: i}
launch: {block: [32, 32]}
statements:
  - "b[j, 32*by + ty] = a[i, j]"
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "block_relative.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
    const std::string narrow = bind_error(spec, launch({32, 16, 1}));
    EXPECT_NE(narrow.find("launch block 32x16x1, fold 1x1x1 would change what kernel "
                          "'block_relative' computes: 'b[j, 32 * by + ty]' names 'by'"),
              std::string::npos)
        << narrow;
    EXPECT_NE(narrow.find("the point i = 16, j = 0 writes b[0, 32] at this launch but not at the "
                          "kernel file's launch (block 32x32x1, fold 1x1x1)"),
              std::string::npos)
        << narrow;
    const std::string folded = bind_error(spec, launch({32, 16, 1}, {1, 2, 1}));
    EXPECT_NE(folded.find("the point i = 1, j = 0 writes b[0, 0] at this launch"),
              std::string::npos)
        << folded;
    // Strided, i = 32*by + 16*fy + ty: the point i = 16 (ty = 0, fy = 1) writes b[0, 0].
    const std::string strided =
        bind_error(spec, launch({32, 16, 1}, {1, 2, 1}, kernel::FoldPlacement::strided));
    EXPECT_NE(strided.find("launch block 32x16x1, fold 1x2x1:strided would change what kernel"),
              std::string::npos)
        << strided;
    EXPECT_NE(strided.find("the point i = 16, j = 0 writes b[0, 0] at this launch"),
              std::string::npos)
        << strided;
    // Along x nothing names tx or bx: any block width keeps every write.
    EXPECT_EQ(bind_error(spec, launch({64, 32, 1})), "");
    EXPECT_EQ(bind_error(spec, launch({16, 32, 1}, {2, 1, 1})), "");
}

TEST(LaunchSemantics, KernelsWithoutLaunchNamesFoldFreely) {
    const auto spec = load("examples/kernels/star3d_r4.yaml");
    EXPECT_EQ(bind_error(spec, launch({32, 4, 1}, {1, 1, 4})), "");
    EXPECT_EQ(bind_error(spec, launch({64, 2, 2}, {2, 2, 1})), "");
    EXPECT_EQ(bind_error(spec, launch({64, 2, 2}, {2, 2, 1}, kernel::FoldPlacement::strided)), "");
}

TEST(LaunchSemantics, AKernelWrittenForOnePlacementKeepsIt) {
    // Written for the block-cyclic fold: row i = 16*by + 8*fy + ty. Consecutively placed, the
    // same names stand for i = 16*by + 2*ty + fy: the point i = 1 (ty = 0, fy = 1) would write
    // row 8 of b.
    const char* text = R"yaml(
name: cyclic_rows
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: j, y: i}
launch: {block: [32, 8], fold: [1, 2], fold_placement: strided}
statements:
  - "b[16*by + 8*fy + ty, j] = a[i, j]"
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "cyclic_rows.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
    const std::string consecutive = bind_error(spec, launch({32, 8, 1}, {1, 2, 1}));
    EXPECT_NE(consecutive.find("the kernel file's launch (block 32x8x1, fold 1x2x1:strided)"),
              std::string::npos)
        << consecutive;
    EXPECT_NE(consecutive.find("names 'by'"), std::string::npos) << consecutive;
}

TEST(LaunchSemantics, FoldsAlongAxesTheKernelDoesNotNameAreKept) {
    // hk_matmul names tx and ty; with fold 2 along y its shared tiles Msub[ty, tx] are reused
    // by two rows: refused. Along x, Msub[ty, tx] names tx too: refused.
    const auto spec = load("examples/kernels/hk_matmul.yaml");
    EXPECT_NE(bind_error(spec, launch({16, 16, 1}, {1, 2, 1})).find("names 'ty'"),
              std::string::npos);
    EXPECT_NE(bind_error(spec, launch({16, 16, 1}, {2, 1, 1})).find("names 'tx'"),
              std::string::npos);
    // absmax_f32 names tx only in the guards of its two single-thread statements; at block 128
    // the global atomic_max(amax[0], ...) runs for twice as many points (one per block):
    // another set of points writes amax[0], so the launch is refused.
    const auto absmax = load("examples/kernels/absmax_f32.yaml");
    const std::string half = bind_error(absmax, launch({128, 1, 1}));
    EXPECT_NE(half.find("the `where` of 'amax[0]' names 'tx'"), std::string::npos) << half;
    EXPECT_EQ(bind_error(absmax, absmax.launch), "");
}
