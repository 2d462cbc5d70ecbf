// MWP-CWP's prediction as models::Prediction: the variant in the model name, the execution case
// (Hong & Kim 2009, eq. 22-24) as the limiter, the time and flops of the launch.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/mwp_summary.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

TEST(MwpSummary, VariantCaseTimeAndFlops) {
    KernelMwpPrediction mwp;
    mwp.variant = Variant::cache_aware;
    mwp.model.time_seconds = 2.5e-3;
    mwp.model.execution_case = ExecutionCase::memory_bound;
    mwp.model.case_reason = "CWP 8 >= MWP 4";
    mwp.flops = 1e6;
    const Prediction p = to_prediction(mwp);
    EXPECT_EQ(p.model, "mwp-cwp cache-aware");
    EXPECT_EQ(p.time_s, 2.5e-3);
    EXPECT_EQ(p.limiter, "case (23)");
    EXPECT_EQ(p.flops, 1e6);
    EXPECT_TRUE(p.counters.empty());
    EXPECT_EQ(p.notes, std::vector<std::string>{"CWP 8 >= MWP 4"});
}

TEST(MwpSummary, OfAKernelFile) {
    // The classic variant of star2d_r1 on the V100: the summary is the detailed result's time,
    // case and flops.
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star2d_r1.yaml");
    const auto mwp =
        predict_kernel_mwp(spec, spec.launch, {}, resolve_machine("v100-pcie-32gb"), {});
    const Prediction p = to_prediction(mwp);
    EXPECT_EQ(p.model, "mwp-cwp classic");
    EXPECT_EQ(p.time_s, mwp.model.time_seconds);
    EXPECT_GT(p.time_s, 0);
    EXPECT_EQ(p.limiter, "case (" + equation_number(mwp.model.execution_case) + ")");
    EXPECT_EQ(p.flops, mwp.flops);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
