// The live mode's sweeps: the default one keeps only launches the kernel can take; sweep files
// and their errors.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/validate/sweep.hpp"
#include "record_fixtures.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::validate;

using namespace kerncast::validate::test;

TEST(Sweep, DefaultSweepKeepsOnlyLaunchesTheKernelCanTake) {
    // histogram maps only x: every block has y = z = 1 and no fold along y or z.
    const auto histogram = default_sweep(example("histogram"));
    ASSERT_FALSE(histogram.empty());
    for (const auto& launch : histogram) {
        EXPECT_EQ(launch.block[1] * launch.block[2], 1);
        EXPECT_EQ(launch.fold, (std::array<std::int64_t, 3>{1, 1, 1}));
    }
    // fd5pt_16 fixes its 16x16 tile: one configuration.
    const auto fd = default_sweep(example("fd5pt_16"));
    ASSERT_EQ(fd.size(), 1u);
    EXPECT_EQ(fd[0].block, (std::array<std::int64_t, 3>{16, 16, 1}));
    // star3d_r4 takes every 256-thread block with three folds.
    const auto star = default_sweep(example("star3d_r4"));
    EXPECT_GT(star.size(), 20u);
    for (const auto& launch : star)
        EXPECT_EQ(launch.block[0] * launch.block[1] * launch.block[2], 256);
}

TEST(Sweep, SweepFileLinesAndErrors) {
    const auto sweep = read_sweep_file(KERNCAST_TEST_DATA_DIR "/data/star2d_sweep.txt");
    ASSERT_EQ(sweep.size(), 4u);
    EXPECT_EQ(sweep[2].block, (std::array<std::int64_t, 3>{64, 4, 1}));
    EXPECT_EQ(sweep[2].fold, (std::array<std::int64_t, 3>{1, 2, 1}));
    try {
        read_sweep_file(KERNCAST_TEST_DATA_DIR "/data/bad_sweep.txt");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.where().line, 3);
        EXPECT_NE(e.message().find("BLOCK [FOLD]"), std::string::npos);
    }
}
