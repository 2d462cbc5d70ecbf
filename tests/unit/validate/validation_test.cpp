#include "kerncast/error.hpp"
#include "kerncast/validate/validation.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kerncast::validate {
namespace {

using runtime::KernelRecord;
using runtime::load_measurement_directory;
using runtime::load_measurement_file;
using runtime::LoadedRecord;
using runtime::Measurement;
using runtime::measurement_to_json;
using runtime::ProvenanceRecord;
using runtime::ResultsRecord;

namespace fs = std::filesystem;

const std::string sample_path =
    std::string(KERNCAST_SOURCE_DIR) + "/tests/unit/runtime/data/saxpy_record.json";

// A toy model's prediction.
models::Prediction predicted(double time_s, std::map<std::string, double> counters,
                             std::optional<double> flops = std::nullopt) {
    models::Prediction prediction;
    prediction.model = "toy";
    prediction.time_s = time_s;
    prediction.counters = std::move(counters);
    prediction.flops = flops;
    return prediction;
}

Measurement record_with(std::int64_t block_x, double time_s, double dram_read_bytes) {
    Measurement m = load_measurement_file(sample_path);
    m.kernel.launch.block = {block_x, 1, 1};
    m.method->repetitions = 1;
    m.results.times_s = {time_s};
    m.results.median_s = m.results.min_s = m.results.max_s = m.results.mean_s = time_s;
    m.results.stddev_s = 0;
    m.counters = {{"dram__bytes_read.sum", {dram_read_bytes, "byte"}}};
    return m;
}

// A directory of records for block sizes 64, 128, 256, 512 (written in reverse order, so the
// loader's sorting is visible).
fs::path write_records() {
    const fs::path dir = fs::temp_directory_path() / "kerncast_validation_records";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::vector<std::tuple<std::int64_t, double, double>> runs = {
        {512, 4e-6, 8.0e6}, {256, 2e-6, 8.2e6}, {128, 3e-6, 8.4e6}, {64, 5e-6, 9.0e6}};
    for (const auto& [block, time, bytes] : runs) {
        std::ofstream(dir / ("block" + std::to_string(1000 + block) + ".json"))
            << measurement_to_json(record_with(block, time, bytes)).dump(2);
    }
    std::ofstream(dir / "README.txt") << "not a record";
    return dir;
}

TEST(Validation, StatisticsAgainstAToyModel) {
    const fs::path dir = write_records();
    const auto records = load_measurement_directory(dir.string());
    fs::remove_all(dir);
    // Toy model: time = 1 us * 256 / block for block <= 256, 2 us * block / 256 beyond;
    // DRAM read = 8 MB; no prediction for block 64.
    const PredictionSource model =
        [](const KernelRecord& kernel) -> std::optional<models::Prediction> {
        const double block = static_cast<double>(kernel.launch.block[0]);
        if (block == 64)
            return std::nullopt;
        const double time = block <= 256 ? 256 / block * 1e-6 : block / 256 * 2e-6;
        return predicted(time, {{"dram__bytes_read.sum", 8.0e6}});
    };
    const ValidationReport report = validate_predictions(records, model);
    ASSERT_EQ(report.rows.size(), 3u); // 128, 256, 512
    ASSERT_EQ(report.unpredicted.size(), 1u);
    // predicted 2, 1, 4 us; measured 3, 2, 4 us -> |rel| 1/3, 1/2, 0
    ASSERT_TRUE(report.time_statistics);
    EXPECT_NEAR(report.time_statistics->median_abs_relative_error, 1.0 / 3.0, 1e-12);
    // sorted 0, 1/3, 1/2: h = 1.8 -> 1/3 + 0.8 (1/2 - 1/3)
    EXPECT_NEAR(report.time_statistics->p90_abs_relative_error, 1.0 / 3.0 + 0.8 / 6.0, 1e-12);
    EXPECT_NEAR(*report.time_statistics->spearman, 1.0, 1e-12); // same order
    EXPECT_DOUBLE_EQ(report.time_statistics->predicted_best_fraction, 1.0);
    // DRAM: predicted 8e6 vs 8.4e6, 8.2e6, 8.0e6
    const auto& dram = report.counter_accuracy.at("dram__bytes_read.sum");
    EXPECT_EQ(dram.compared, 3u);
    EXPECT_NEAR(dram.median_abs_relative_error, 0.2e6 / 8.2e6, 1e-12);

    // The configurations behind the figures: the predicted best (block 256, 1 us) is also the
    // measured best (2 us); the worst predicted in order of |rel. error|: 256, 128, 512.
    ASSERT_EQ(report.time_extremes.size(), 5u);
    EXPECT_EQ(report.time_extremes[0].role, "predicted best");
    EXPECT_NE(report.time_extremes[0].configuration.find("block=256x"), std::string::npos);
    EXPECT_DOUBLE_EQ(report.time_extremes[0].predicted_time_s, 1e-6);
    EXPECT_EQ(report.time_extremes[1].role, "measured best");
    EXPECT_NE(report.time_extremes[1].configuration.find("block=256x"), std::string::npos);
    for (std::size_t k = 2; k < 5; ++k)
        EXPECT_EQ(report.time_extremes[k].role, "worst predicted");
    EXPECT_NEAR(report.time_extremes[2].relative_error, -0.5, 1e-12);
    EXPECT_NE(report.time_extremes[3].configuration.find("block=128x"), std::string::npos);
    EXPECT_NEAR(report.time_extremes[4].relative_error, 0, 1e-12);

    const report::Document doc = validation_view(report);
    EXPECT_EQ(doc.schema, "kerncast.validation/1");
    ASSERT_EQ(doc.tables.size(), 4u);
    EXPECT_EQ(doc.tables[2].key, "time_extremes");
    EXPECT_EQ(doc.tables[0].rows.size(), 3u);
    // kernel, config, source, 3 time columns, dram pred/meas, record
    EXPECT_EQ(doc.tables[0].columns.size(), 9u);
    EXPECT_NE(doc.notes.back().find("block1064.json"), std::string::npos);
}

// A published record (provenance as scripts/import-published writes it) of block x, with a
// measured throughput or DRAM counter.
LoadedRecord published_record(std::int64_t block_x, const std::string& cell,
                              std::optional<double> gflops, std::optional<double> dram_bytes) {
    Measurement m = load_measurement_file(sample_path);
    m.kernel.launch.block = {block_x, 1, 1};
    m.method.reset();
    m.results = ResultsRecord{};
    m.counters.clear();
    ProvenanceRecord p;
    p.repository = "te42kyfo/warpspeed";
    p.commit = "78606c1";
    p.notebook = "stencil-verify.ipynb";
    p.cell = cell;
    p.device = "Tesla V100";
    p.normalisation_points = 1000;
    if (gflops) {
        m.results.throughput["flops"] = {*gflops * 1e9, "flop/s"};
        p.published_values["measured_gflops"] = *gflops;
    }
    if (dram_bytes) {
        m.counters["dram__bytes_read.sum"] = {*dram_bytes, "byte"};
        p.published_values["dram_load_B"] = *dram_bytes / 1000;
        p.peer_predictions["peer_pred_dram_load_B"] = 10; // 10 B/point x 1000 points
        p.peer_predictions["peer_pred_l2_load_B"] = 4;    // 4000 B = 125 sectors
    }
    m.provenance = p;
    return {"published_" + std::to_string(block_x) + ".json", m};
}

TEST(Validation, PeerErrorsBesideTheModelsOnPublishedRows) {
    // Measured 8000 and 12500 B; the model predicts 9000 B for both, the peer 10000 B.
    const std::vector<LoadedRecord> records = {published_record(32, "3", std::nullopt, 8000.0),
                                               published_record(64, "3", std::nullopt, 12500.0)};
    const auto peer = peer_counter_predictions(records[0].measurement);
    EXPECT_DOUBLE_EQ(peer.at("dram__bytes_read.sum"), 10000);
    EXPECT_DOUBLE_EQ(peer.at("lts__t_sectors_op_read.sum"), 125);
    const PredictionSource model = [](const KernelRecord&) -> std::optional<models::Prediction> {
        return predicted(1e-3, {{"dram__bytes_read.sum", 9000.0}});
    };
    const ValidationReport report = validate_predictions(records, model);
    EXPECT_EQ(report.published_rows, 2u);
    EXPECT_FALSE(report.time_statistics); // no times in published records
    ASSERT_TRUE(report.rows[0].published);
    EXPECT_FALSE(report.rows[0].measured_time_s);
    EXPECT_DOUBLE_EQ(*report.rows[0].counters.at("dram__bytes_read.sum").peer_predicted, 10000);
    const auto& dram = report.counter_accuracy.at("dram__bytes_read.sum");
    // model: |9000 - 8000| / 8000 = 0.125, |9000 - 12500| / 12500 = 0.28
    EXPECT_NEAR(dram.median_abs_relative_error, (0.125 + 0.28) / 2, 1e-12);
    EXPECT_NEAR(dram.p90_abs_relative_error, 0.125 + 0.9 * (0.28 - 0.125), 1e-12);
    // peer: 0.25 and 0.2
    EXPECT_EQ(dram.peer_compared, 2u);
    EXPECT_NEAR(*dram.peer_median_abs_relative_error, 0.225, 1e-12);
    EXPECT_NEAR(*dram.peer_p90_abs_relative_error, 0.2 + 0.9 * 0.05, 1e-12);

    const report::Document doc = validation_view(report);
    const auto* configurations = doc.find_table("configurations");
    ASSERT_NE(configurations, nullptr);
    EXPECT_EQ(std::get<std::string>(configurations->rows[0][2]), "published");
    EXPECT_TRUE(std::any_of(doc.notes.begin(), doc.notes.end(), [](const std::string& note) {
        return note.find("2 of 2 rows are published") != std::string::npos;
    }));
}

TEST(Validation, ThroughputRankingPerGroupWithTies) {
    // Group cell 7: predicted throughput 1, 2, 2, 4 GFlop/s (a tie), measured 10, 30, 20, 25.
    // Average ranks: predicted 1, 2.5, 2.5, 4; measured 1, 4, 2, 3; mean 2.5 on both sides:
    // covariance 2.25 + 0 + 0 + 0.75 = 3, variances 4.5 and 5 -> rho = 3 / sqrt(22.5).
    // The predicted best (4) measures 25 of the best 30.
    // Group cell 9: predicted 1, 2; measured 5, 4 -> rho = -1, predicted best 4 / 5.
    std::vector<LoadedRecord> records;
    const std::vector<std::tuple<std::int64_t, std::string, double>> rows = {
        {1, "7", 10}, {2, "7", 30}, {3, "7", 20}, {4, "7", 25}, {5, "9", 5}, {6, "9", 4}};
    for (const auto& [block, cell, gflops] : rows)
        records.push_back(published_record(block, cell, gflops, std::nullopt));
    const std::map<std::int64_t, double> predicted_gflops = {{1, 1}, {2, 2}, {3, 2},
                                                             {4, 4}, {5, 1}, {6, 2}};
    const PredictionSource model = [&](const KernelRecord& k) -> std::optional<models::Prediction> {
        // 1e9 flops in 1 / predicted seconds.
        return predicted(1 / predicted_gflops.at(k.launch.block[0]), {}, 1e9);
    };
    const ValidationReport report = validate_predictions(records, model);
    ASSERT_EQ(report.throughput_rankings.size(), 2u);
    const auto& seven = report.throughput_rankings[0];
    EXPECT_EQ(seven.group, "saxpy (stencil-verify.ipynb cell 7)");
    EXPECT_EQ(seven.configurations, 4u);
    EXPECT_NEAR(*seven.spearman, 3 / std::sqrt(22.5), 1e-12); // 0.632...
    EXPECT_NEAR(seven.predicted_best_fraction, 25.0 / 30.0, 1e-12);
    EXPECT_EQ(seven.predicted_best, "block=4x1x1 fold=1x1x1 a=2.5 n=1048576");
    EXPECT_EQ(seven.measured_best, "block=2x1x1 fold=1x1x1 a=2.5 n=1048576");
    const auto& nine = report.throughput_rankings[1];
    EXPECT_NEAR(*nine.spearman, -1, 1e-12);
    EXPECT_NEAR(nine.predicted_best_fraction, 0.8, 1e-12);
    EXPECT_NEAR(*report.rows[0].predicted_flops_per_s, 1e9, 1e-3);
    EXPECT_NE(validation_view(report).find_table("throughput_ranking"), nullptr);
}

TEST(Validation, TiedPredictedBestNamesTheSlowestMeasuredOfTheTie) {
    // Predicted 1, 4, 4, 4 GFlop/s (three tie at the top), measured 10, 30, 20, 25: the tie
    // counts its slowest member (block 3, 20 of the best 30), and the label names it.
    std::vector<LoadedRecord> records;
    const std::vector<std::pair<std::int64_t, double>> rows = {{1, 10}, {2, 30}, {3, 20}, {4, 25}};
    for (const auto& [block, gflops] : rows)
        records.push_back(published_record(block, "7", gflops, std::nullopt));
    const PredictionSource model = [&](const KernelRecord& k) -> std::optional<models::Prediction> {
        return predicted(k.launch.block[0] == 1 ? 1.0 : 0.25, {}, 1e9);
    };
    const ValidationReport report = validate_predictions(records, model);
    ASSERT_EQ(report.throughput_rankings.size(), 1u);
    const auto& ranking = report.throughput_rankings[0];
    EXPECT_NEAR(ranking.predicted_best_fraction, 20.0 / 30.0, 1e-12);
    EXPECT_EQ(ranking.predicted_best, "block=3x1x1 fold=1x1x1 a=2.5 n=1048576 (slowest of 3 tied)");
    EXPECT_EQ(ranking.measured_best, "block=2x1x1 fold=1x1x1 a=2.5 n=1048576");
}

} // namespace
} // namespace kerncast::validate
