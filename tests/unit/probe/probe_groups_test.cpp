#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"
#include "kerncast/probe/runner.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

TEST(ProbeGroups, EmptyMeansEverything) {
    EXPECT_EQ(parse_probe_groups(""), probe_groups());
}

TEST(ProbeGroups, ParsesAndDeduplicatesInOrder) {
    EXPECT_EQ(parse_probe_groups("l2,l1,l2,,dram"), (std::vector<std::string>{"l2", "l1", "dram"}));
}

TEST(ProbeGroups, UnknownGroupIsAUsageErrorWithSuggestion) {
    try {
        parse_probe_groups("l1,textures");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage);
        EXPECT_NE(e.message().find("\"textures\""), std::string::npos);
        ASSERT_EQ(e.notes().size(), 2u);
        EXPECT_EQ(e.notes()[0], "did you mean \"texture\"?");
    }
    EXPECT_THROW(parse_probe_groups(","), Error);
}

TEST(ProbeGroups, MeasuringWithoutAGpuIsUnavailable) {
    // This test machine has no GPU (CI) or kerncast was built without CUDA: either way the
    // probe must refuse with exit code 3, not crash.
    bool gpu_present = false;
    try {
        gpu_present = !gpu::query_devices().empty();
    } catch (const Error&) {
    }
    if (gpu_present)
        GTEST_SKIP() << "a GPU is present; the unavailable path is not reachable here";
    ProbeOptions options;
    options.groups = {"l1"};
    try {
        run_probe(options);
        FAIL() << "run_probe returned without a GPU";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
        EXPECT_EQ(exit_code(e.kind()), 3);
    }
}

} // namespace
} // namespace kerncast::probe
