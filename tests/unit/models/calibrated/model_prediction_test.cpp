// Prediction with calibrated parameters: the features of the kernel at its parameters and the
// machine's "<model>.<parameter>" values, evaluated exactly; the report's tables.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/calibrated/calibration_view.hpp"
#include "kerncast/models/calibrated/model_prediction.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

TEST(ModelPrediction, TiledMatmulWithMachineParameters) {
    const std::string root = KERNCAST_SOURCE_DIR;
    const auto spec = kernel::load_kernel_file(root + "/examples/kernels/matmul_tiled16.yaml");
    const auto analysis = analysis::analyze(spec);
    const std::int64_t n = 1024, m = 256, l = 128;
    const auto bound = analysis::bind(analysis, {{"n", n}});
    const CostModel model =
        make_cost_model("tiled", "f_time",
                        "p_launch * f_sync_kernel_launch + p_madd * f_op_float32_madd + p_store * "
                        "f_mem_access_global_float32_store");
    MachineModel machine = resolve_machine("a100-sxm4-40gb");
    machine.calibrated_costs["tiled.p_launch"] = {8e-6, "test"};
    machine.calibrated_costs["tiled.p_madd"] = {3e-12, "test"};
    machine.calibrated_costs["tiled.p_store"] = {4e-11, "test"};
    const ModelPrediction p = predict_with_model(model, analysis, bound, machine);
    // madd per sub-group: n l m / 32; stores of c per work-item: n l.
    const double madds = static_cast<double>(n * l * m / 32), stores = static_cast<double>(n * l);
    ASSERT_EQ(p.features.size(), 3u);
    EXPECT_EQ(p.features[1].value, madds);
    EXPECT_EQ(p.features[2].value, stores);
    EXPECT_DOUBLE_EQ(p.predicted, 8e-6 + 3e-12 * madds + 4e-11 * stores);
    EXPECT_EQ(p.parameters[2].source, "test");
    EXPECT_EQ(p.kernel_parameters[0], (std::pair<std::string, std::int64_t>{"n", n}));

    const report::Document doc = model_prediction_view(p);
    EXPECT_EQ(doc.schema, "kerncast.model-prediction/1");
    EXPECT_DOUBLE_EQ(std::get<double>(doc.table_at("prediction").rows[0][3]), p.predicted * 1e6);
    EXPECT_EQ(doc.table_at("features").rows.size(), 3u);

    // The shared prediction: the output is f_time, seconds.
    const models::Prediction summary = to_prediction(p);
    EXPECT_EQ(summary.model, "calibrated");
    EXPECT_EQ(summary.time_s, p.predicted);
    EXPECT_FALSE(summary.limiter.has_value());
    EXPECT_FALSE(summary.flops.has_value());
    EXPECT_TRUE(summary.counters.empty());
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_NE(summary.notes[0].find("tiled (f_time)"), std::string::npos);
}

TEST(ModelPrediction, OnlyATimeOutputIsAPredictedTime) {
    ModelPrediction p;
    p.model = "madds";
    p.output = "f_op_float32_madd";
    p.predicted = 12;
    try {
        to_prediction(p);
        FAIL() << "a count output is not a time";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("predicts f_op_float32_madd, not a time"), std::string::npos);
    }
    p.output = "f_time_min";
    EXPECT_EQ(to_prediction(p).time_s, 12);
}
