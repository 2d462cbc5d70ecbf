// The calibrate report: its tables and notes, from a plain result.
#include "kerncast/models/calibrated/calibration_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

TEST(CalibrationView, TablesAndNotes) {
    const CostModel model =
        make_cost_model("m", "f_time", "p_a * f_thread_groups + p_b * f_op_float64_add");
    const std::vector<CalibrationSample> samples{{"r1.json", "k1", "n=1", {1, 0}, 2e-6},
                                                 {"r2.json", "k2", "n=2", {2, 0}, 4.4e-6}};
    const CalibrationResult result = calibrate(model, samples);
    const report::Document doc = calibration_view(model, samples, result, {"extra note"});
    EXPECT_EQ(doc.schema, "kerncast.calibrate/1");
    const auto& parameters = doc.table_at("parameters");
    ASSERT_EQ(parameters.rows.size(), 2u);
    EXPECT_EQ(std::get<std::string>(parameters.rows[1][1]), "undetermined");
    const auto& errors = doc.table_at("errors");
    ASSERT_EQ(errors.rows.size(), 3u); // k1, k2, all
    EXPECT_EQ(std::get<std::string>(errors.rows[2][0]), "all");
    const auto& rows = doc.table_at("samples").rows;
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[1][3]), 4.4);
    bool undetermined = false;
    for (const auto& note : doc.notes)
        undetermined = undetermined || note.rfind("p_b: undetermined", 0) == 0;
    EXPECT_TRUE(undetermined);
    EXPECT_EQ(doc.notes.back(), "extra note");
}
