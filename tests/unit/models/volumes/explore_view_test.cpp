// The explore view ranks the sweep's predictions without computing: --top trims the predicted
// rows, skipped configurations stay with their reason, and rows carry the prediction's numbers.
#include "kerncast/models/volumes/volume_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

TEST(ExploreView, TopTrimsPredictedRowsButKeepsSkippedOnes) {
    ExploreResult result;
    result.kernel = "k";
    result.machine = "m";
    for (int k = 0; k < 3; ++k) {
        ExploreRow row;
        row.prediction = VolumePrediction{};
        row.prediction->limiter.points_per_second = 3e9 - k * 1e9;
        result.rows.push_back(row);
    }
    ExploreRow skipped;
    skipped.skipped = "too many threads";
    result.rows.push_back(skipped);
    const auto doc = explore_view(result, 2);
    const auto& ranking = doc.table_at("ranking");
    ASSERT_EQ(ranking.rows.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[1][0]), 2);
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][3]), 3.0);
    EXPECT_EQ(std::get<std::string>(ranking.rows[2][12]), "too many threads");
    EXPECT_EQ(explore_view(result).tables[0].rows.size(), 4u);
}

TEST(ExploreView, RowsCarryTheLaunchAndTheLimiter) {
    ExploreResult result;
    result.kernel = "k";
    result.machine = "m";
    ExploreRow row;
    row.launch.block = {32, 4, 1};
    row.launch.fold = {1, 2, 1};
    row.prediction = VolumePrediction{};
    row.prediction->limiter.points_per_second = 2.5e9;
    row.prediction->limiter.binding = Limiter::dram;
    row.prediction->dram_load_bytes = 8;
    row.prediction->dram_store_bytes = 4;
    result.rows.push_back(row);
    const auto doc = explore_view(result);
    EXPECT_EQ(doc.schema, "kerncast.explore/1");
    const auto& ranking = doc.table_at("ranking");
    ASSERT_EQ(ranking.rows.size(), 1u);
    ASSERT_EQ(ranking.rows[0].size(), ranking.columns.size());
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[0][0]), 1);
    EXPECT_EQ(std::get<std::string>(ranking.rows[0][1]), "32x4x1");
    EXPECT_EQ(std::get<std::string>(ranking.rows[0][2]), "1x2x1");
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][3]), 2.5);
    EXPECT_EQ(std::get<std::string>(ranking.rows[0][4]), "DRAM");
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][5]), 8.0);
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][6]), 4.0);
    EXPECT_EQ(doc.notes.front(), "1 configurations predicted, 0 skipped.");
    ASSERT_EQ(doc.charts.size(), 3u);
    EXPECT_EQ(doc.charts[0].key, "throughput");
}

} // namespace
