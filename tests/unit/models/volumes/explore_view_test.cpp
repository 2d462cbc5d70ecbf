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
        row.rank = static_cast<std::size_t>(k) + 1;
        row.tied = 1;
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
    EXPECT_EQ(std::get<std::string>(ranking.rows[2][13]), "too many threads");
    EXPECT_EQ(explore_view(result).tables[0].rows.size(), 4u);
}

// With a top, as many skipped rows as ranked ones at most, and a note counting the rest; without
// one (the --csv and --json documents) every skipped row.
TEST(ExploreView, TopAlsoBoundsTheSkippedRows) {
    ExploreResult result;
    result.kernel = "k";
    result.machine = "m";
    ExploreRow row;
    row.prediction = VolumePrediction{};
    row.prediction->limiter.points_per_second = 1e9;
    row.rank = 1;
    row.tied = 1;
    result.rows.push_back(row);
    for (int k = 0; k < 5; ++k) {
        ExploreRow skipped;
        skipped.skipped = "reason " + std::to_string(k);
        result.rows.push_back(skipped);
    }
    const auto doc = explore_view(result, 2);
    const auto& ranking = doc.table_at("ranking");
    ASSERT_EQ(ranking.rows.size(), 3u); // one ranked, two skipped
    EXPECT_EQ(std::get<std::string>(ranking.rows[2][13]), "reason 1");
    bool counted = false;
    for (const auto& note : doc.notes)
        counted = counted || note == "3 of the skipped configurations are not listed (--top 2): "
                                     "--csv or --json lists every one with its reason.";
    EXPECT_TRUE(counted);
    const auto all = explore_view(result);
    EXPECT_EQ(all.table_at("ranking").rows.size(), 6u);
    for (const auto& note : all.notes)
        EXPECT_EQ(note.find("are not listed"), std::string::npos) << note;
}

// A search space's rows name their variant and swept values in columns of their own, between
// the rank and the block; a parameter named like a fixed column gets a "param_" key.
TEST(ExploreView, SearchSpacesShowTheKernelAndTheSweptValues) {
    ExploreResult result;
    result.kernel = "a, b";
    result.machine = "m";
    result.kernels = {"a", "b"};
    result.swept_parameters = {"tile", "time"};
    result.restricted = 7;
    ExploreRow row;
    row.kernel = 1;
    row.parameters = {{"tile", 4}, {"time", 2}};
    row.launch.block = {32, 4, 1};
    row.prediction = VolumePrediction{};
    row.prediction->limiter.points_per_second = 1e9;
    row.rank = 1;
    row.tied = 1;
    result.rows.push_back(row);
    const auto doc = explore_view(result);
    const auto& ranking = doc.table_at("ranking");
    ASSERT_GE(ranking.columns.size(), 5u);
    EXPECT_EQ(ranking.columns[1].key, "kernel");
    EXPECT_EQ(ranking.columns[2].key, "tile");
    EXPECT_EQ(ranking.columns[3].key, "param_time");
    EXPECT_EQ(ranking.columns[3].header, "time");
    EXPECT_EQ(ranking.columns[4].key, "block");
    ASSERT_EQ(ranking.rows[0].size(), ranking.columns.size());
    EXPECT_EQ(std::get<std::string>(ranking.rows[0][1]), "b");
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[0][2]), 4);
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[0][3]), 2);
    EXPECT_EQ(doc.title, "Search space of a, b on m, ranked by predicted time");
    bool restricted_note = false;
    for (const auto& note : doc.notes)
        restricted_note =
            restricted_note || note.find("7 combinations of the search space were "
                                         "excluded by its restrictions") != std::string::npos;
    EXPECT_TRUE(restricted_note);
    ASSERT_FALSE(doc.notes.empty());
    EXPECT_EQ(doc.notes[0].rfind("Best: b tile=4 time=2 block 32x4x1", 0), 0u) << doc.notes[0];
    // The shortlist names the same columns.
    result.rows[0].prediction->limiter.seconds_per_launch = 1e-3;
    report::Document with_shortlist = doc;
    add_shortlist(with_shortlist, result, 0.1, 0.9);
    const auto& shortlist = with_shortlist.table_at("shortlist");
    ASSERT_EQ(shortlist.rows.size(), 1u);
    for (size_t c = 1; c <= 3; ++c)
        EXPECT_EQ(shortlist.columns[c].key, ranking.columns[c].key);
    EXPECT_EQ(std::get<std::int64_t>(shortlist.rows[0][3]), 2);
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
    row.prediction->limiter.seconds_per_launch = 1.5e-3;
    row.prediction->limiter.seconds_per_point = 4e-10;
    row.prediction->limiter.dram_seconds_per_point = 4e-10;
    row.prediction->limiter.l2_seconds_per_point = 1e-10;
    row.prediction->limiter.binding = Limiter::dram;
    row.prediction->dram_load_bytes = 8;
    row.prediction->dram_store_bytes = 4;
    row.rank = 1;
    row.tied = 1;
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
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][4]), 1500.0); // us a launch
    EXPECT_EQ(std::get<std::string>(ranking.rows[0][5]), "DRAM");
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][6]), 8.0);
    EXPECT_DOUBLE_EQ(std::get<double>(ranking.rows[0][7]), 4.0);
    // The best, its time and why: DRAM's 12 B a point; L2 needs a quarter of DRAM's time.
    EXPECT_EQ(doc.notes.front(), "Best: block 32x4x1 fold 1x2x1 at 2.50 Gpoints/s, 1500.0 us a "
                                 "launch; DRAM binds (12.00 B of DRAM traffic a point); the next "
                                 "limiter, L2, needs 25 % of that time.");
    EXPECT_EQ(doc.notes[1], "1 configurations predicted, 0 skipped.");
    ASSERT_EQ(doc.charts.size(), 3u);
    EXPECT_EQ(doc.charts[0].key, "throughput");
}

// The block-shape chart keeps a colour per series: the 8 best-ranked shapes, the others in one
// series; both throughput charts mark the predicted best.
TEST(ExploreView, ThroughputChartsNameEightShapesAndMarkTheBest) {
    ExploreResult result;
    for (int k = 0; k < 12; ++k) {
        ExploreRow row;
        row.launch.block = {32 * (k + 1), 1, 1};
        row.prediction = VolumePrediction{};
        row.prediction->limiter.points_per_second = (20 - k) * 1e9;
        row.prediction->limiter.binding = k < 6 ? Limiter::dram : Limiter::l1;
        row.rank = static_cast<std::size_t>(k + 1);
        result.rows.push_back(row);
    }
    const auto doc = explore_view(result, 3);
    const report::Chart& shapes = doc.charts.at(0);
    ASSERT_EQ(shapes.key, "throughput");
    ASSERT_EQ(shapes.series.size(), 10u);
    EXPECT_EQ(shapes.series[0].name, "32x1x1");
    EXPECT_EQ(shapes.series[7].name, "256x1x1");
    EXPECT_EQ(shapes.series[8].name, "other block shapes");
    EXPECT_EQ(shapes.series[8].x, (std::vector<double>{9, 10, 11, 12}));
    EXPECT_EQ(shapes.series[9].name, "predicted best");
    EXPECT_TRUE(shapes.series[9].highlight);
    EXPECT_EQ(shapes.series[9].x, std::vector<double>{1});
    EXPECT_EQ(shapes.series[9].y, std::vector<double>{20});
    const report::Chart& limiters = doc.charts.at(2);
    ASSERT_EQ(limiters.key, "limiter");
    ASSERT_EQ(limiters.series.size(), 3u); // DRAM, L1, the best
    EXPECT_EQ(limiters.series[2].name, "predicted best");
    EXPECT_EQ(limiters.series[2].point_labels.size(), 1u);
    for (size_t k = 0; k < 2; ++k)
        EXPECT_FALSE(limiters.series[k].highlight);
}

// Rows of equal predicted throughput (ranks and tie sizes as explore() sets them) share a rank,
// and each shared rank among the shown rows gets a note with the full tie's size.
TEST(ExploreView, TiedRowsShareARankAndANoteSaysSo) {
    ExploreResult result;
    const double gpoints[] = {3, 2, 2, 2, 1};
    const std::size_t ranks[] = {1, 2, 2, 2, 5};
    for (int k = 0; k < 5; ++k) {
        ExploreRow row;
        row.prediction = VolumePrediction{};
        row.prediction->limiter.points_per_second = gpoints[k] * 1e9;
        row.prediction->limiter.binding = k == 0 ? Limiter::dram : Limiter::l1;
        row.rank = ranks[k];
        row.tied = ranks[k] == 2 ? 3 : 1;
        result.rows.push_back(row);
    }
    const auto doc = explore_view(result, 3);
    const auto& ranking = doc.table_at("ranking");
    ASSERT_EQ(ranking.rows.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[1][0]), 2);
    EXPECT_EQ(std::get<std::int64_t>(ranking.rows[2][0]), 2);
    const std::string expected = "Rank 2 is shared by 3 configurations (2.00 Gpoints/s, L1 "
                                 "binds): the model predicts the same throughput and the same "
                                 "next-largest limit for them and cannot order them; they are "
                                 "listed in the order they were enumerated "
                                 "(docs/volume-model.md, Ties).";
    EXPECT_EQ(std::count(doc.notes.begin(), doc.notes.end(), expected), 1);
    EXPECT_EQ(doc.notes.size(), 4u); // the best, predicted count, registers, the tie

    // Beyond three shared ranks, a count.
    ExploreResult many;
    for (int k = 0; k < 10; ++k) {
        ExploreRow row;
        row.prediction = VolumePrediction{};
        row.prediction->limiter.points_per_second = (10 - k / 2) * 1e9;
        row.rank = static_cast<std::size_t>(k / 2 * 2 + 1);
        row.tied = 2;
        many.rows.push_back(row);
    }
    const auto notes = explore_view(many).notes;
    ASSERT_EQ(notes.size(), 3u + 3u + 1u);
    EXPECT_EQ(notes.back(), "2 more ranks among those shown are shared by several configurations.");
}

// The best configurations predicted within 1 % of the best get one note with their count,
// spread, range and limiters; none when the best is alone or the near ones are one exact tie.
TEST(ExploreView, ConfigurationsWithinOnePercentOfTheBestGetANote) {
    const auto notes_of = [](const std::vector<double>& gpoints, std::size_t best_tied) {
        ExploreResult result;
        for (std::size_t k = 0; k < gpoints.size(); ++k) {
            ExploreRow row;
            row.prediction = VolumePrediction{};
            row.prediction->limiter.points_per_second = gpoints[k] * 1e9;
            row.prediction->limiter.binding = k == 1 ? Limiter::l1 : Limiter::dram;
            row.rank = k < best_tied ? 1 : k + 1;
            row.tied = k < best_tied ? best_tied : 1;
            result.rows.push_back(row);
        }
        return explore_view(result).notes;
    };
    const auto notes = notes_of({3.0, 2.99, 2.98, 2.5}, 1);
    ASSERT_EQ(notes.size(), 4u);
    EXPECT_EQ(
        notes.back(),
        "The 3 best configurations are predicted within 0.67 % of each other (2.98 to 3.00 "
        "Gpoints/s; DRAM binds for 2, L1 binds for 1): closer than the model's accuracy "
        "separates them (its time errors on measured GPUs: docs/accuracy.md). Time the leading "
        "ones (`kerncast run`) before choosing (docs/volume-model.md, Ties).");
    // Each list starts with the best configuration's note.
    EXPECT_EQ(notes_of({3.0, 2.9, 2.8}, 1).size(), 3u);  // 3.3 % apart: none
    EXPECT_EQ(notes_of({3.0, 3.0, 2.5}, 2).size(), 4u);  // an exact tie: its own note only
    EXPECT_EQ(notes_of({3.0, 3.0, 2.99}, 2).size(), 5u); // a tie and a near one: both
}

} // namespace
