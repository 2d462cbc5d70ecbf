// count_kernel: what `kerncast count` reports, and an overflowing count naming the kernel file
// and the parameter values.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/counts/count_kernel.hpp"

#include <algorithm>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using namespace kerncast::models::counts;

namespace {

const std::string star3d_path = KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml";

} // namespace

TEST(CountKernel, EqualsTheAnalysisThenEvaluateCounts) {
    const auto spec = kernel::load_kernel_file(star3d_path);
    const kernel::LaunchConfig launch{{32, 4, 4}, {1, 1, 2}};
    FootprintOptions footprints;
    footprints.enabled = false; // the counts are the point here, and footprints take seconds
    const KernelAnalysis analysis = analyze(spec, launch);
    const CountReport expected =
        evaluate_counts(analysis, kerncast::analysis::bind(analysis, {{"nx", 64}}), footprints);
    const CountReport got = count_kernel(spec, launch, {{"nx", 64}}, {}, footprints);
    ASSERT_EQ(got.operations.size(), expected.operations.size());
    for (size_t k = 0; k < got.operations.size(); ++k)
        EXPECT_EQ(got.operations[k].count, expected.operations[k].count);
    ASSERT_EQ(got.accesses.size(), expected.accesses.size());
    EXPECT_EQ(got.thread_blocks, expected.thread_blocks);
    // The 25-point star: one store of dst per interior point, (64-8) x 504 x 504 of them.
    const auto store = std::find_if(got.accesses.begin(), got.accesses.end(),
                                    [](const AccessRow& row) { return row.direction == "store"; });
    ASSERT_NE(store, got.accesses.end());
    EXPECT_EQ(store->count, 56 * 504 * 504);
}

TEST(CountKernel, AnOverflowingCountNamesTheFileAndTheParameters) {
    const auto spec = kernel::load_kernel_file(star3d_path);
    try {
        count_kernel(spec, spec.launch, {{"nx", 3000000}, {"ny", 3000000}, {"nz", 3000000}}, {},
                     {});
        FAIL() << "expected an overflow";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.where().file, star3d_path);
        ASSERT_FALSE(error.notes().empty());
        EXPECT_EQ(error.notes().back(), "parameters: nx = 3000000, ny = 3000000, nz = 3000000");
    }
}
