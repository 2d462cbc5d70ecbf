// access_threads: the threads that run an access, against counts worked out by hand.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

namespace kerncast::analysis {
namespace {

// The threads of the kernel's `which`-th atomic (0 = the first).
std::int64_t threads_of_atomic(const std::string& kernel, std::int64_t n, int which = 0) {
    const auto spec =
        kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" + kernel);
    const KernelAnalysis analysis = analyze(spec);
    const auto params = kerncast::analysis::bind(analysis, {{"n", n}}).values();
    for (const auto& access : analysis.accesses)
        if (access.direction == Direction::atomic && which-- == 0)
            return access_threads(analysis, access, params);
    return -1;
}

TEST(AccessThreads, OneThreadPerPixelWhateverTheLoopOverChannels) {
    // histogram: domain [p, c], threads x: p; c (4 channels) is a loop inside the thread.
    EXPECT_EQ(threads_of_atomic("histogram.yaml", 4194304), 4194304);
    EXPECT_EQ(threads_of_atomic("histogram.yaml", 32), 32); // 1 block, 224 threads idle
    EXPECT_EQ(threads_of_atomic("histogram.yaml", 1000), 1000);
}

TEST(AccessThreads, WhereConditionKeepsOneThreadPerBlock) {
    // absmax_f32, n = 1024: 4 blocks of 256. The shared atomic runs on every thread, the
    // global one (where tx == 0) on one thread per block.
    EXPECT_EQ(threads_of_atomic("absmax_f32.yaml", 1024, 0), 1024);
    EXPECT_EQ(threads_of_atomic("absmax_f32.yaml", 1024, 1), 4);
}

} // namespace
} // namespace kerncast::analysis
