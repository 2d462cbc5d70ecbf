#include "kerncast/error.hpp"
#include "kerncast/runtime/validation.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kerncast::runtime {
namespace {

namespace fs = std::filesystem;

const std::string sample_path = std::string(KERNCAST_TEST_DATA_DIR) + "/data/saxpy_record.json";

Measurement record_with(std::int64_t block_x, double time_s, double dram_read_bytes) {
    Measurement m = load_measurement_file(sample_path);
    m.kernel.launch.block = {block_x, 1, 1};
    m.method.repetitions = 1;
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

TEST(Validation, LoadsRecordsInNameOrder) {
    const fs::path dir = write_records();
    const auto records = load_measurement_directory(dir.string());
    fs::remove_all(dir);
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[0].measurement.kernel.launch.block[0], 64);
    EXPECT_EQ(records[3].measurement.kernel.launch.block[0], 512);
    EXPECT_EQ(fs::path(records[0].path).filename(), "block1064.json");
}

TEST(Validation, DirectoryErrors) {
    EXPECT_THROW(load_measurement_directory("/nonexistent/records"), Error);
    const fs::path empty = fs::temp_directory_path() / "kerncast_validation_empty";
    fs::create_directories(empty);
    try {
        load_measurement_directory(empty.string());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("holds no measurement records"), std::string::npos);
    }
    std::ofstream(empty / "bad.json") << "{\"schema\": \"kerncast.measurement/1\"}";
    try {
        load_measurement_directory(empty.string());
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("bad.json"), std::string::npos);
    }
    fs::remove_all(empty);
}

TEST(Validation, ConfigurationLabel) {
    const Measurement m = load_measurement_file(sample_path);
    EXPECT_EQ(configuration_label(m.kernel), "block=256x1x1 fold=1x1x1 a=2.5 n=1048576");
}

TEST(Validation, StatisticsAgainstAToyModel) {
    const fs::path dir = write_records();
    const auto records = load_measurement_directory(dir.string());
    fs::remove_all(dir);
    // Toy model: time = 1 us * 256 / block for block <= 256, 2 us * block / 256 beyond;
    // DRAM read = 8 MB; no prediction for block 64.
    const PredictionSource model = [](const KernelRecord& kernel) -> std::optional<Prediction> {
        const double block = static_cast<double>(kernel.launch.block[0]);
        if (block == 64)
            return std::nullopt;
        const double time = block <= 256 ? 256 / block * 1e-6 : block / 256 * 2e-6;
        return Prediction{time, {{"dram__bytes_read.sum", 8.0e6}}};
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

    const report::Document doc = validation_view(report);
    EXPECT_EQ(doc.schema, "kerncast.validation/1");
    ASSERT_EQ(doc.tables.size(), 3u);
    EXPECT_EQ(doc.tables[0].rows.size(), 3u);
    EXPECT_EQ(doc.tables[0].columns.size(), 7u); // config, 3 time columns, dram pred/meas, record
    EXPECT_NE(doc.notes.back().find("block1064.json"), std::string::npos);
}

} // namespace
} // namespace kerncast::runtime
