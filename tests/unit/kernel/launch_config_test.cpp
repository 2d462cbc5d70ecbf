#include "kerncast/kernel/launch_config.hpp"

#include <gtest/gtest.h>

using namespace kerncast::kernel;

TEST(LaunchConfig, FoldTextNamesAStridedPlacement) {
    EXPECT_EQ(fold_text({{32, 4, 1}, {1, 4, 1}}), "1x4x1");
    EXPECT_EQ(fold_text({{32, 4, 1}, {1, 4, 1}, FoldPlacement::strided}), "1x4x1:strided");
    // One point per thread: nothing to place.
    EXPECT_EQ(fold_text({{32, 4, 1}, {1, 1, 1}, FoldPlacement::strided}), "1x1x1");
    EXPECT_TRUE(strided_fold({{32, 4, 1}, {1, 4, 1}, FoldPlacement::strided}));
    EXPECT_FALSE(strided_fold({{32, 4, 1}, {1, 4, 1}}));
    EXPECT_FALSE(strided_fold({{32, 4, 1}, {1, 1, 1}, FoldPlacement::strided}));
    EXPECT_STREQ(fold_placement_name(FoldPlacement::consecutive), "consecutive");
    EXPECT_STREQ(fold_placement_name(FoldPlacement::strided), "strided");
}

TEST(LaunchConfig, EqualityIncludesThePlacement) {
    const LaunchConfig consecutive{{32, 4, 1}, {2, 1, 1}};
    LaunchConfig strided = consecutive;
    strided.fold_placement = FoldPlacement::strided;
    EXPECT_NE(consecutive, strided);
    EXPECT_EQ(strided, (LaunchConfig{{32, 4, 1}, {2, 1, 1}, FoldPlacement::strided}));
}
