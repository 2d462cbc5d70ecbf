#include "kerncast/closest_names.hpp"

#include <gtest/gtest.h>

using kerncast::closest_names;
using kerncast::edit_distance;

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u); // 2 substitutions + 1 insertion
    EXPECT_EQ(edit_distance("comp_inst", "comp_insts"), 1u);
    EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
    EXPECT_EQ(edit_distance("sm_count", "sm_count"), 0u);
    // Symmetric.
    EXPECT_EQ(edit_distance("warp_sz", "warp_size"), edit_distance("warp_size", "warp_sz"));
}

TEST(ClosestNames, RanksByEditDistanceAndContainment) {
    const std::vector<std::string> names{"sm_count", "warp_size", "max_warps_per_sm"};
    EXPECT_EQ(closest_names("sm_cnt", names), std::vector<std::string>{"sm_count"});
    EXPECT_EQ(closest_names("WARP_SIZE", names), std::vector<std::string>{"warp_size"});
    EXPECT_EQ(closest_names("warp_sz", names), std::vector<std::string>{"warp_size"});
    EXPECT_EQ(closest_names("warps", names), std::vector<std::string>{"max_warps_per_sm"});
    EXPECT_TRUE(closest_names("completely_different", names).empty());
}

TEST(ClosestNames, ContainedNamesAreCloseBestFirstAndLimited) {
    const std::vector<std::string> ids{"v100-pcie-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb",
                                       "h100-sxm5-80gb"};
    // "a100" is 10 edits from each id but contained in two: both, in catalogue order.
    EXPECT_EQ(closest_names("a100", ids),
              (std::vector<std::string>{"a100-sxm4-40gb", "a100-sxm4-80gb"}));
    EXPECT_EQ(closest_names("a100", ids, 1), std::vector<std::string>{"a100-sxm4-40gb"});
    // Fewer edits first: 1, 3 and 4 edits away (the threshold for 13 characters is 4).
    EXPECT_EQ(closest_names("h100-sxm5-80g", ids),
              (std::vector<std::string>{"h100-sxm5-80gb", "a100-sxm4-80gb", "a100-sxm4-40gb"}));
    EXPECT_TRUE(closest_names("x", ids).empty());
    EXPECT_TRUE(closest_names("anything", {}).empty());
}

TEST(ClosestNames, ThresholdGrowsWithTheLengthOfTheName) {
    // Short names allow 2 edits, a 9-character name 3 (one in three).
    EXPECT_EQ(closest_names("ab", {"xy"}), std::vector<std::string>{"xy"});
    EXPECT_TRUE(closest_names("abc", {"xyz"}).empty());
    EXPECT_EQ(closest_names("abcdefghi", {"abcxyzghi"}), std::vector<std::string>{"abcxyzghi"});
    EXPECT_TRUE(closest_names("abcdefghi", {"abwxyzghi"}).empty());
}
