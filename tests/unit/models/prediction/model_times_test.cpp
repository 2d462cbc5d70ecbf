// Each model's time per launch: the limiter's always, MWP-CWP's where the machine has its
// parameters, and why not where it lacks them.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/model_times.hpp"

#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

std::vector<ModelTime> times(const std::string& machine_id, VolumePrediction* limiter = nullptr) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star2d_r1.yaml");
    const MachineModel machine = resolve_machine(machine_id);
    const AnalysedLaunch launch = analyse_launch(spec, spec.launch, {}, machine);
    const auto volumes = predict_volumes(launch.analysis, launch.bound, machine);
    if (limiter)
        *limiter = volumes;
    return model_times(launch, machine, volumes);
}

TEST(ModelTimes, LimiterAndBothVariants) {
    VolumePrediction volumes;
    const auto t = times("v100-pcie-32gb", &volumes);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].model, "limiter (Ernst et al. 2023)");
    EXPECT_EQ(t[1].model, "MWP-CWP classic");
    EXPECT_EQ(t[2].model, "MWP-CWP cache-aware");
    for (const auto& row : t) {
        ASSERT_TRUE(row.prediction.has_value()) << row.model << ": " << row.detail;
        EXPECT_GT(row.prediction->time_s, 0);
    }
    // Each row is its model's shared prediction; the detail is the limiter or case it names.
    EXPECT_EQ(t[0].prediction->model, "volumes");
    EXPECT_EQ(t[0].prediction->time_s, volumes.limiter.seconds_per_launch);
    EXPECT_EQ(t[0].detail, std::string(limiter_name(volumes.limiter.binding)) + " binds");
    EXPECT_EQ(t[1].prediction->model, "mwp-cwp classic");
    EXPECT_EQ(t[2].prediction->model, "mwp-cwp cache-aware");
    EXPECT_EQ(t[1].detail.rfind("case (", 0), 0u);
    EXPECT_EQ(t[1].detail, *t[1].prediction->limiter);
}

TEST(ModelTimes, MachineWithoutMwpParametersSaysWhy) {
    const auto t = times("a100-sxm4-40gb");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_TRUE(t[0].prediction.has_value());
    EXPECT_FALSE(t[1].prediction.has_value());
    EXPECT_NE(t[1].detail.find("lacks mwp_cwp.departure_del_uncoal_cycles"), std::string::npos);
    EXPECT_FALSE(t[2].prediction.has_value());
}

} // namespace
} // namespace kerncast::models
