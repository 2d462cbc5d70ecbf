#include "kerncast/error.hpp"
#include "kerncast/kernel/launch_text.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

TEST(LaunchText, ParsesTriplesAsUsersWriteThem) {
    EXPECT_EQ(parse_launch_triple("32x4x4", "--block"), (Dim3{32, 4, 4}));
    EXPECT_EQ(parse_launch_triple("32,4", "--block"), (Dim3{32, 4, 1}));
    EXPECT_EQ(parse_launch_triple("64", "--block"), (Dim3{64, 1, 1}));
    EXPECT_EQ(parse_launch_triple("z=2", "--fold"), (Dim3{1, 1, 2}));
    EXPECT_EQ(parse_launch_triple("2y", "--fold"), (Dim3{1, 2, 1}));
    EXPECT_EQ(parse_launch_triple("none", "--fold"), (Dim3{1, 1, 1}));
    EXPECT_EQ(parse_launch_triple_list("none,2y,1x1x2", "--folds"),
              (std::vector<Dim3>{{1, 1, 1}, {1, 2, 1}, {1, 1, 2}}));
}

TEST(LaunchText, ParsesFoldsWithAPlacement) {
    FoldChoice choice = parse_fold_text("4y:strided", "--fold");
    EXPECT_EQ(choice.fold, (Dim3{1, 4, 1}));
    EXPECT_EQ(choice.placement, FoldPlacement::strided);
    choice = parse_fold_text("2x2:consecutive", "--fold");
    EXPECT_EQ(choice.fold, (Dim3{2, 2, 1}));
    EXPECT_EQ(choice.placement, FoldPlacement::consecutive);
    EXPECT_FALSE(parse_fold_text("1x1x2", "--fold").placement); // the kernel file's
    const auto list = parse_fold_list("none,4x,4x:strided", "--folds");
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[2].fold, (Dim3{4, 1, 1}));
    EXPECT_EQ(list[2].placement, FoldPlacement::strided);
    for (const char* bad : {"4x:cyclic", "4x:", ":strided", "4x:strided:strided"}) {
        try {
            parse_fold_text(bad, "--fold");
            FAIL() << bad;
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage) << bad;
            EXPECT_NE(error.message().find("--fold"), std::string::npos) << error.message();
        }
    }
}

TEST(LaunchText, WithFoldKeepsOrSetsThePlacement) {
    const LaunchConfig strided{{32, 8, 1}, {1, 2, 1}, FoldPlacement::strided};
    // No placement in the text: the base launch's stays.
    EXPECT_EQ(with_fold(strided, {{1, 4, 1}, std::nullopt}).fold_placement, FoldPlacement::strided);
    EXPECT_EQ(with_fold(strided, {{1, 4, 1}, FoldPlacement::consecutive}).fold_placement,
              FoldPlacement::consecutive);
    // One point per thread is consecutive whatever the text says.
    EXPECT_EQ(with_fold(strided, {{1, 1, 1}, FoldPlacement::strided}).fold_placement,
              FoldPlacement::consecutive);
    const LaunchConfig overridden = override_launch(strided, "64x4", "2x:consecutive");
    EXPECT_EQ(overridden, (LaunchConfig{{64, 4, 1}, {2, 1, 1}}));
}

TEST(LaunchText, RejectsMalformedTriplesAsUsageErrors) {
    for (const char* bad : {"", "0x4", "32x4x4x1", "a", "z=0", "32x-1", "4,,2"}) {
        try {
            parse_launch_triple(bad, "--block");
            FAIL() << bad;
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage) << bad;
            EXPECT_NE(error.message().find("--block"), std::string::npos) << error.message();
        }
    }
}

TEST(LaunchText, ParsesDefines) {
    const auto values = parse_parameter_defines({"nx=640", "ny=-3"});
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0], (std::pair<std::string, std::int64_t>{"nx", 640}));
    EXPECT_EQ(values[1], (std::pair<std::string, std::int64_t>{"ny", -3}));
    for (const char* bad : {"nx", "=3", "nx=", "nx=3.5", "nx=1e3"}) {
        try {
            parse_parameter_defines({bad});
            FAIL() << bad;
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::usage) << bad;
        }
    }
}

TEST(LaunchText, OverridesOnlyWhatIsGiven) {
    const LaunchConfig base{{32, 4, 4}, {1, 1, 2}};
    const LaunchConfig same = override_launch(base, "", "");
    EXPECT_EQ(same.block, base.block);
    EXPECT_EQ(same.fold, base.fold);
    const LaunchConfig changed = override_launch(base, "64x2x1", "none");
    EXPECT_EQ(changed.block, (Dim3{64, 2, 1}));
    EXPECT_EQ(changed.fold, (Dim3{1, 1, 1}));
}
