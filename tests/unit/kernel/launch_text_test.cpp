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
