// Each model's time per launch: the limiter's always, MWP-CWP's where the machine has its
// parameters, and why not where it lacks them.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/model_times.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

std::vector<ModelTime> times(const std::string& machine_id) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star2d_r1.yaml");
    const MachineModel machine = resolve_machine(machine_id);
    const auto analysis = analysis::analyze(spec, spec.launch);
    const auto params = analysis::parameter_values(analysis);
    const auto volumes = predict_volumes(analysis, params, machine);
    return model_times(spec, spec.launch, {}, machine, volumes);
}

TEST(ModelTimes, LimiterAndBothVariants) {
    const auto t = times("v100-pcie-32gb");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].model, "limiter (Ernst et al. 2023)");
    EXPECT_EQ(t[1].model, "MWP-CWP classic");
    EXPECT_EQ(t[2].model, "MWP-CWP cache-aware");
    for (const auto& row : t) {
        ASSERT_TRUE(row.seconds.has_value()) << row.model << ": " << row.detail;
        EXPECT_GT(*row.seconds, 0);
    }
    EXPECT_EQ(t[1].detail.rfind("case (", 0), 0u);
}

TEST(ModelTimes, MachineWithoutMwpParametersSaysWhy) {
    const auto t = times("a100-sxm4-40gb");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_TRUE(t[0].seconds.has_value());
    EXPECT_FALSE(t[1].seconds.has_value());
    EXPECT_NE(t[1].detail.find("lacks mwp_cwp.mem_ld_cycles"), std::string::npos);
    EXPECT_FALSE(t[2].seconds.has_value());
}

} // namespace
} // namespace kerncast::models::mwp_cwp
