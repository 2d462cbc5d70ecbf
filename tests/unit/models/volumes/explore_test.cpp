// The sweep of Ernst et al. 2023, sec. 5.1, the triple parser and the ranking.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/volumes/explore.hpp"

#include <algorithm>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

TEST(Explore, DefaultSweepOfSection51) {
    const auto sizes = default_block_sizes(1024);
    // X, Y in 1..1024, Z in 1..64, all powers of two, X*Y*Z = 1024: 2^10 split in three with
    // z <= 2^6: sum over z = 0..6 of (11 - z) = 56.
    EXPECT_EQ(sizes.size(), 56u);
    for (const auto& s : sizes) {
        EXPECT_EQ(s[0] * s[1] * s[2], 1024);
        EXPECT_LE(s[2], 64);
    }
    EXPECT_EQ(default_block_sizes(512).size(), 49u); // 10 + 9 + ... + 4
    EXPECT_EQ(default_folds().size(), 3u);
    EXPECT_TRUE(default_block_sizes(1000).empty());
}

TEST(Explore, RanksByThroughputAndReportsSkippedConfigurations) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star3d_r4.yaml");
    ExploreOptions options;
    options.blocks = {{32, 2, 16}, {1024, 1, 1}, {2, 512, 1}, {2048, 1, 1}};
    options.folds = {{{1, 1, 1}, std::nullopt}};
    options.jobs = 2;
    const ExploreResult result = explore(spec, {}, resolve_machine("a100-sxm4-40gb"), options);
    ASSERT_EQ(result.rows.size(), 4u);
    EXPECT_EQ(result.rows[0].launch.block, (kernel::Dim3{32, 2, 16}));
    for (size_t k = 1; k < 3; ++k) {
        ASSERT_TRUE(result.rows[k].prediction);
        EXPECT_GE(result.rows[k - 1].prediction->limiter.points_per_second,
                  result.rows[k].prediction->limiter.points_per_second);
    }
    EXPECT_FALSE(result.rows[3].prediction); // 2048 threads do not fit a block
    EXPECT_FALSE(result.rows[3].skipped.empty());
}

// The V100 2D box r3: every 1024-thread shape at least 16 wide takes two wavefronts per warp
// load, so the L1 limiter ties them (docs/accuracy.md); the next-largest limit, DRAM, orders
// them (issue 46): 128x8 20.04 ps a point, 64x16 20.10, 256x4 20.10 (a little more). 16x2 is
// bound by block launches.
TEST(Explore, EqualForecastsAreOrderedByTheNextLimit) {
    const auto spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/kernels/box2d_r3.yaml");
    ExploreOptions options;
    options.blocks = {{16, 2, 1}, {256, 4, 1}, {128, 8, 1}, {64, 16, 1}, {2048, 1, 1}};
    options.folds = {{{1, 1, 1}, std::nullopt}};
    options.jobs = 1;
    const ExploreResult result = explore(spec, {}, resolve_machine("v100-pcie-32gb"), options);
    ASSERT_EQ(result.rows.size(), 5u);
    const kernel::Dim3 order[] = {{128, 8, 1}, {64, 16, 1}, {256, 4, 1}, {16, 2, 1}};
    for (std::size_t k = 0; k < 4; ++k) {
        ASSERT_TRUE(result.rows[k].prediction);
        EXPECT_EQ(result.rows[k].launch.block, order[k]) << k;
        EXPECT_EQ(result.rows[k].rank, k + 1);
        EXPECT_EQ(result.rows[k].tied, 1u);
    }
    for (std::size_t k = 0; k < 3; ++k) {
        const LimiterResult& limiter = result.rows[k].prediction->limiter;
        EXPECT_EQ(limiter.binding, Limiter::l1);
        EXPECT_EQ(limiter.seconds_per_launch,
                  result.rows[0].prediction->limiter.seconds_per_launch);
        EXPECT_EQ(limiter.next_seconds_per_point, limiter.dram_seconds_per_point);
        if (k > 0)
            EXPECT_LT(result.rows[k - 1].prediction->limiter.next_seconds_per_launch,
                      limiter.next_seconds_per_launch);
    }
    EXPECT_FALSE(result.rows[4].prediction);
    EXPECT_EQ(result.rows[4].rank, 0u);
}

TEST(Explore, AMachineTheModelsCannotUseFailsOnceNotPerConfiguration) {
    // Without an L2 bandwidth no configuration can be ranked: the sweep stops with the reason
    // instead of skipping every configuration.
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star3d_r4.yaml");
    const MachineModel machine = resolve_machine(std::string(KERNCAST_SOURCE_DIR) +
                                                 "/tests/unit/machine/data/no_l2_bandwidth.json");
    try {
        explore(spec, {}, machine, ExploreOptions{});
        FAIL() << "expected an input error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("has no bandwidth for memory level l2"), std::string::npos)
            << error.message();
    }
}

TEST(Explore, SweepsOnlyTheAxesTheKernelMaps) {
    const auto machine = resolve_machine("a100-sxm4-40gb");
    const auto star2d = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                 "/examples/kernels/star2d_r1.yaml");
    ExploreOptions options;
    options.jobs = 2;
    const ExploreResult plane = explore(star2d, {}, machine, options);
    // A 2D kernel's default threads per block are 64 .. 1024: X*Y = T with Z = 1 has 7, 8, 9, 10
    // and 11 shapes; folds none and 2y.
    EXPECT_EQ(plane.rows.size(), (7u + 8u + 9u + 10u + 11u) * 2);
    for (const auto& row : plane.rows) {
        EXPECT_EQ(row.launch.block[2], 1);
        EXPECT_EQ(row.launch.fold[2], 1);
        EXPECT_TRUE(row.prediction) << row.skipped;
    }
    const auto fd5pt = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                "/examples/kernels/fd5pt_16.yaml");
    const ExploreResult fixed = explore(fd5pt, {}, machine, options);
    ASSERT_EQ(fixed.rows.size(), 1u); // the file's 16x16 block; folding needs a global index
    EXPECT_EQ(fixed.rows[0].launch.block, (kernel::Dim3{16, 16, 1}));
}

TEST(Explore, SharedTilesKeepTheFileBlockInTheDefaultSweep) {
    // matmul_tiled16's tiles are written for 16 x 16 threads: none of the 1024-thread blocks
    // can run it (bind refuses them, shared_arrays.hpp), so the sweep adds the file's block.
    // Its 2y fold is refused too: a_tile[ty, tx] names ty, so two rows would share a tile row
    // (launch_semantics.hpp). The file's block is all that is ranked.
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/matmul_tiled16.yaml");
    ExploreOptions options;
    options.jobs = 2;
    options.threads_per_block = 1024;
    const ExploreResult result = explore(spec, {}, resolve_machine("a100-sxm4-40gb"), options);
    EXPECT_EQ(result.rows.size(), (11u + 1u) * 2u); // X*Y = 1024, and 16x16; folds none and 2y
    size_t predicted = 0;
    for (const auto& row : result.rows) {
        if (!row.prediction) {
            const bool refused =
                row.skipped.find("cannot run kernel 'matmul_tiled16'") != std::string::npos ||
                row.skipped.find("would change what kernel 'matmul_tiled16' computes: the shared "
                                 "subscript 'a_tile[ty, tx]' names 'ty'") != std::string::npos;
            EXPECT_TRUE(refused) << row.skipped;
            continue;
        }
        ++predicted;
        EXPECT_EQ(row.launch.block, (kernel::Dim3{16, 16, 1}));
        EXPECT_EQ(row.launch.fold, (kernel::Dim3{1, 1, 1}));
    }
    EXPECT_EQ(predicted, 1u);
}

TEST(Explore, DefaultThreadCountsFollowTheKernelsAxes) {
    // 3D kernels: the paper's 1024 threads; 1D and 2D kernels: 64 .. 1024, so that a 1D kernel
    // is not swept at 1024x1x1 alone.
    const std::string dir = std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/";
    EXPECT_EQ(default_thread_counts(kernel::load_kernel_file(dir + "star3d_r4.yaml")),
              (std::vector<std::int64_t>{1024}));
    EXPECT_EQ(default_thread_counts(kernel::load_kernel_file(dir + "star2d_r1.yaml")),
              (std::vector<std::int64_t>{64, 128, 256, 512, 1024}));
    const auto row_sum = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                  "/tests/user_kernels/small_grid.yaml");
    ExploreOptions options;
    options.jobs = 2;
    const ExploreResult result = explore(row_sum, {}, resolve_machine("h100-sxm5-80gb"), options);
    std::vector<std::int64_t> widths;
    for (const auto& row : result.rows)
        widths.push_back(row.launch.block[0]);
    std::sort(widths.begin(), widths.end());
    EXPECT_EQ(widths, (std::vector<std::int64_t>{64, 128, 256, 512, 1024})); // 1D: no folds
}

// Folds carry their placement into the rows (box2d_r2, f64, on the A100); "none" under either
// placement is one configuration, and a fold without a placement takes the kernel file's.
TEST(Explore, FoldPlacementsAreSweptAsSeparateConfigurations) {
    auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                         "/examples/kernels/box2d_r2.yaml");
    ExploreOptions options;
    options.blocks = {{32, 8, 1}};
    options.folds = kernel::parse_fold_list("none,none:strided,4x,4x:strided,4x", "--folds");
    options.jobs = 1;
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    ExploreResult result = explore(spec, {}, machine, options);
    ASSERT_EQ(result.rows.size(), 3u);
    std::vector<std::string> folds;
    for (const auto& row : result.rows) {
        ASSERT_TRUE(row.prediction) << row.skipped;
        folds.push_back(kernel::fold_text(row.launch));
    }
    std::sort(folds.begin(), folds.end());
    EXPECT_EQ(folds, (std::vector<std::string>{"1x1x1", "4x1x1", "4x1x1:strided"}));
    // The consecutive fold spreads a warp's loads over four times the sectors: the L1 binds it
    // (2.75 cycles a point against 1.625), behind the strided fold and the unfolded kernel.
    const auto rank_of = [&](const std::string& fold) {
        for (const auto& row : result.rows)
            if (kernel::fold_text(row.launch) == fold)
                return row.rank;
        return std::size_t{0};
    };
    EXPECT_EQ(rank_of("4x1x1"), 3u);

    spec.launch.fold = {2, 1, 1};
    spec.launch.fold_placement = kernel::FoldPlacement::strided;
    options.folds = kernel::parse_fold_list("4x", "--folds");
    result = explore(spec, {}, machine, options);
    ASSERT_EQ(result.rows.size(), 1u);
    EXPECT_EQ(kernel::fold_text(result.rows[0].launch), "4x1x1:strided");
}

// A search space of two variants and a swept parameter: every combination the restriction
// allows is predicted at its own kernel and values, and the rows are ranked by time per launch
// (the larger grid takes longer).
TEST(Explore, SearchSpacesRankVariantsAndParametersByTime) {
    const std::string dir = std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/";
    const kernel::SearchSpace space = kernel::parse_search_space(
        "kernels: [box2d_r1.yaml, box2d_r2.yaml]\nblock_x: [32, 64]\nblock_y: [1, 2, 4]\n"
        "params: {nx: [2000, 4000]}\nrestrictions: [\"threads <= 128\"]\n",
        dir + "space.yaml");
    std::vector<kernel::KernelSpec> kernels;
    for (const auto& file : space.kernel_files)
        kernels.push_back(kernel::load_kernel_file(file));
    const kernel::SpaceEnumeration combinations = kernel::enumerate_space(
        space, {kernel::FoldPlacement::consecutive, kernel::FoldPlacement::consecutive});
    ASSERT_EQ(combinations.points.size(), 2u * 2u * 5u); // 64x4 is restricted
    ExploreOptions options;
    options.jobs = 2;
    const ExploreResult result = explore_space(kernels, combinations, {{"ny", 1000}},
                                               resolve_machine("a100-sxm4-40gb"), options);
    EXPECT_EQ(result.kernels, (std::vector<std::string>{"box2d_r1", "box2d_r2"}));
    EXPECT_EQ(result.swept_parameters, (std::vector<std::string>{"nx"}));
    EXPECT_EQ(result.restricted, 4);
    ASSERT_EQ(result.rows.size(), 20u);
    for (size_t k = 0; k < result.rows.size(); ++k) {
        const ExploreRow& row = result.rows[k];
        ASSERT_TRUE(row.prediction) << row.skipped;
        ASSERT_EQ(row.parameters.size(), 1u);
        // Each row's prediction is that of its kernel at its values.
        const VolumePrediction alone =
            predict_launch(kernels[row.kernel], row.launch, {{"ny", 1000}, row.parameters[0]},
                           resolve_machine("a100-sxm4-40gb"), options.volume);
        EXPECT_EQ(row.prediction->limiter.seconds_per_launch, alone.limiter.seconds_per_launch);
        if (k > 0) {
            EXPECT_LE(result.rows[k - 1].prediction->limiter.seconds_per_launch,
                      row.prediction->limiter.seconds_per_launch);
        }
    }
    // Both stencils are DRAM-bound: the smaller grid comes first.
    EXPECT_EQ(result.rows.front().parameters[0].second, 2000);
    EXPECT_EQ(result.rows.back().parameters[0].second, 4000);
}
