// The models' times side by side (model_times_view.hpp).
#include "kerncast/models/prediction/model_times_view.hpp"

#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

TEST(ModelTimesView, KeepsWhyAModelIsMissing) {
    Prediction limiter;
    limiter.model = "volumes";
    limiter.time_s = 2e-3;
    const auto table = model_times_table(
        {{"limiter (Ernst et al. 2023)", limiter, "DRAM binds"}, {"MWP-CWP classic", {}, "no"}});
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_DOUBLE_EQ(std::get<double>(table.rows[0].at(1)), 2.0); // ms
    EXPECT_TRUE(std::holds_alternative<std::monostate>(table.rows[1].at(1)));
    EXPECT_EQ(std::get<std::string>(table.rows[1].at(2)), "no");
}

} // namespace
} // namespace kerncast::models
