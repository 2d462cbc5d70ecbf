// The samples mwp-fit fits to (mwp_fit_samples.hpp): records of the given kernels with times,
// the rest skipped and listed.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/validate/mwp_fit_samples.hpp"

#include <gtest/gtest.h>

namespace kerncast::validate {
namespace {

TEST(MwpFitSamples, OneSampleATimedRecordOfAGivenKernel) {
    const auto records = runtime::load_measurement_directory(
        std::string(KERNCAST_SOURCE_DIR) + "/tests/golden/data/mwp_fit_synthetic");
    std::vector<kernel::KernelSpec> specs = {kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/hk_micro_mb2_uc.yaml")};
    std::vector<std::string> skipped;
    const auto samples = mwp_fit_samples(records, specs, resolve_machine("fx5600"), skipped);
    ASSERT_EQ(samples.size(), 3u); // the three block sizes of Mb2_UC
    EXPECT_EQ(skipped.size(), records.size() - 3);
    EXPECT_DOUBLE_EQ(samples[0].workload.uncoal_per_mw, 32);
}

} // namespace
} // namespace kerncast::validate
