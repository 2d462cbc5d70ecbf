// Launches that cannot run a kernel's shared-memory arrays (shared_arrays.hpp): the tiled
// examples at their own block and at blocks their tiles were not written for. The cases were
// worked by hand from the statements; the first GPU run (2026-11-26) ran matmul_tiled16 at
// block 1x1x1 and read NaN from the unwritten part of its tiles.
#include "bind_error.hpp"
#include "kerncast/analysis/shared_arrays.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using kerncast::analysis::testing::bind_error;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" + name +
                                    ".yaml");
}

kernel::LaunchConfig block(std::int64_t x, std::int64_t y, std::int64_t z = 1) {
    kernel::LaunchConfig launch;
    launch.block = {x, y, z};
    return launch;
}

const char* reduction = R"yaml(
name: block_sum
params: {n: 1024}
arrays:
  x: {dtype: f32, shape: [n]}
  partial: {dtype: f32, shape: [n]}
  s: {dtype: f32, shape: [64], space: shared}
domain: "[n] -> { [i, k] : 0 <= i < n and 0 <= k < 64 }"
threads: {x: i}
launch: {block: [64]}
statements:
  - "s[tx] = x[i]"
  - {barrier: local}
  - {do: "partial[i] = sum(k, s[k])", where: "tx == 0"}
)yaml";

} // namespace

TEST(SharedArrays, TilesRunAtTheirOwnBlock) {
    for (const char* name : {"matmul_tiled16", "hk_matmul", "dg_diff_2", "dg_diff_3", "dg_diff_4",
                             "absmax_f32", "fd5pt_16", "histogram_reordered"}) {
        SCOPED_TRACE(name);
        const auto spec = example(name);
        EXPECT_EQ(bind_error(spec, spec.launch), "");
    }
}

TEST(SharedArrays, SmallerBlockLeavesTileElementsUnwritten) {
    // matmul_tiled16 at 1x1x1: thread (0, 0) writes a_tile[0, 0] and b_tile[0, 0] only, and
    // the sum reads a_tile[0, kk] for kk = 0..15: a_tile[0, 1] is the first unwritten element.
    const auto spec = example("matmul_tiled16");
    const std::string one = bind_error(spec, block(1, 1));
    EXPECT_NE(one.find("launch block 1x1x1 cannot run kernel 'matmul_tiled16'"), std::string::npos)
        << one;
    EXPECT_NE(one.find("a_tile[0, 1] of shared memory, which no statement of the block writes"),
              std::string::npos)
        << one;
    EXPECT_NE(one.find("a_tile[ty, kk]"), std::string::npos) << one;
    EXPECT_NE(one.find("block 16x16x1"), std::string::npos) << one;
    // 16x8: rows 8..15 of a_tile stay unwritten, but only rows 0..7 are read (a_tile[ty, kk]),
    // while b_tile[kk, tx] reads rows 8..15: b_tile[8, 0] is the first.
    const std::string half = bind_error(spec, block(16, 8));
    EXPECT_NE(half.find("b_tile[8, 0]"), std::string::npos) << half;
}

TEST(SharedArrays, LargerBlockIndexesPastTheTile) {
    // 32x16: tx reaches 31 in a_tile[ty, tx], whose rows hold 16 elements.
    const auto spec = example("matmul_tiled16");
    const std::string wide = bind_error(spec, block(32, 16));
    EXPECT_NE(wide.find("reaches a_tile[0, 16] outside the shared array's extents [16, 16]"),
              std::string::npos)
        << wide;
}

TEST(SharedArrays, GuardsAndBarriersCountWhatTheyWrite) {
    // s[tx] is written by every thread and read at s[k], k = 0..63, by thread 0 alone (the
    // guard): the block must hold exactly 64 threads.
    const auto spec = kernel::parse_kernel_text(reduction, "block_sum.yaml");
    EXPECT_EQ(bind_error(spec, block(64, 1)), "");
    const std::string small = bind_error(spec, block(32, 1));
    EXPECT_NE(small.find("s[32] of shared memory"), std::string::npos) << small;
    EXPECT_NE(bind_error(spec, block(128, 1)).find("reaches s[64]"), std::string::npos);
}

TEST(SharedArrays, GlobalOnlyKernelsTakeAnyBlock) {
    const auto spec = example("star3d_r4");
    EXPECT_EQ(bind_error(spec, block(1, 1, 1)), "");
    EXPECT_EQ(bind_error(spec, block(256, 4, 1)), "");
}

TEST(SharedArrays, TwoThreadsWritingOneElementInOnePhaseRace) {
    // row_sum_tree at block 256x4: threads (0, 0, 0) and (0, 1, 0) both write sm[0] with
    // sm[tx] = a[r, c] before the first barrier; at its own block 256x1 every thread writes
    // its own element in each phase.
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/tests/user_kernels/row_sum_tree.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
    const std::string four_rows = bind_error(spec, block(256, 4));
    EXPECT_NE(four_rows.find("threads (tx, ty, tz) = (0, 0, 0) and (0, 1, 0) both write sm[0] in "
                             "one barrier phase ('sm[tx]' and 'sm[tx]'): a write-write race on "
                             "shared memory"),
              std::string::npos)
        << four_rows;
}

TEST(SharedArrays, ABarrierOrAnotherIterationSeparatesWrites) {
    // Thread 0 writes s[0] before the barrier, thread 1 after it: ordered, no race. Every
    // thread writes t[0] in its own iteration k of a loop with a barrier: k orders them.
    const char* ordered = R"yaml(
name: ordered
params: {n: 64}
arrays:
  x: {dtype: f32, shape: [n]}
  y: {dtype: f32, shape: [n]}
  s: {dtype: f32, shape: [1], space: shared}
  t: {dtype: f32, shape: [1], space: shared}
domain: "[n] -> { [i, k] : 0 <= i < n and 0 <= k < 32 }"
threads: {x: i}
launch: {block: [32]}
statements:
  - {do: "s[0] = x[i]", where: "tx == 0"}
  - {barrier: local}
  - {do: "s[0] = x[i]", where: "tx == 1"}
  - {do: "t[0] = x[i]", where: "tx == k", within: [k]}
  - {barrier: local, within: [k]}
  - "y[i] = s[0] + t[0]"
)yaml";
    const auto spec = kernel::parse_kernel_text(ordered, "ordered.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
    // Without the barrier in k, thread k's write of iteration k meets thread k + 1's of
    // iteration k + 1 in one phase.
    std::string racy_text = ordered;
    racy_text.replace(racy_text.find("  - {barrier: local, within: [k]}\n"),
                      std::string("  - {barrier: local, within: [k]}\n").size(), "");
    const auto racy = kernel::parse_kernel_text(racy_text, "racy.yaml");
    EXPECT_NE(bind_error(racy, racy.launch).find("both write t[0]"), std::string::npos);
}
