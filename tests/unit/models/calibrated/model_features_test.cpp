// A cost model's features of a kernel and output of a record (model_features.hpp).
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/calibrated/model_features.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

namespace {
const std::string root = KERNCAST_SOURCE_DIR;
} // namespace

TEST(ModelFeatures, KernelFeaturesAreTheExactCountsAtTheParameters) {
    const auto spec = kernel::load_kernel_file(root + "/examples/kernels/matmul_naive.yaml");
    const CostModel model = make_cost_model("m", "f_time", "p_g * f_thread_groups");
    kernel::LaunchConfig launch;
    launch.block = {16, 16, 1};
    const auto analysis = analysis::analyze(spec, launch);
    for (std::int64_t n : {64, 128}) {
        const auto values =
            kernel_features(model, analysis, analysis::bind(analysis, {{"n", n}}).values());
        ASSERT_EQ(values.size(), 1u);
        EXPECT_EQ(values[0], (n / 16) * (n / 16)); // blocks of 16 x 16 over n x n
    }
}

TEST(ModelFeatures, MeasuredOutputIsTheRecordsStatistic) {
    runtime::Measurement m =
        runtime::load_measurement_file(root + "/tests/unit/runtime/data/saxpy_record.json");
    m.results.median_s = 2e-3;
    m.results.min_s = 1e-3;
    m.results.mean_s = 3e-3;
    for (const auto& [statistic, expected] :
         {std::pair{"f_time", 2e-3}, std::pair{"f_time_min", 1e-3}, std::pair{"f_time_mean", 3e-3}})
        EXPECT_EQ(measured_output(make_cost_model("m", statistic, "p_g * f_thread_groups"), m),
                  expected)
            << statistic;
    m.results.times_s.clear(); // a published record that states no times
    EXPECT_FALSE(measured_output(make_cost_model("m", "f_time", "p_g * f_thread_groups"), m));
}
