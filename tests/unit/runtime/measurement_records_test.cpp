// A directory of measurement records read in file-name order, its errors, and the labels of
// configurations.
#include "kerncast/error.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kerncast::runtime {
namespace {

namespace fs = std::filesystem;

const std::string sample_path = std::string(KERNCAST_TEST_DATA_DIR) + "/data/saxpy_record.json";

// Records for block sizes 64, 128, 256, 512 (written in reverse order, so the loader's sorting
// is visible), beside a file that is not a record.
fs::path write_records() {
    const fs::path dir = fs::temp_directory_path() / "kerncast_measurement_records";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const std::int64_t block : {512, 256, 128, 64}) {
        Measurement m = load_measurement_file(sample_path);
        m.kernel.launch.block = {block, 1, 1};
        std::ofstream(dir / ("block" + std::to_string(1000 + block) + ".json"))
            << measurement_to_json(m).dump(2);
    }
    std::ofstream(dir / "README.txt") << "not a record";
    return dir;
}

} // namespace

TEST(MeasurementRecords, LoadsRecordsInNameOrder) {
    const fs::path dir = write_records();
    const auto records = load_measurement_directory(dir.string());
    fs::remove_all(dir);
    ASSERT_EQ(records.size(), 4u);
    EXPECT_EQ(records[0].measurement.kernel.launch.block[0], 64);
    EXPECT_EQ(records[3].measurement.kernel.launch.block[0], 512);
    EXPECT_EQ(fs::path(records[0].path).filename(), "block1064.json");
}

TEST(MeasurementRecords, DirectoryErrors) {
    EXPECT_THROW(load_measurement_directory("/nonexistent/records"), Error);
    const fs::path empty = fs::temp_directory_path() / "kerncast_measurement_records_empty";
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

TEST(MeasurementRecords, ConfigurationLabel) {
    const Measurement m = load_measurement_file(sample_path);
    EXPECT_EQ(configuration_label(m.kernel), "block=256x1x1 fold=1x1x1 a=2.5 n=1048576");
}

TEST(MeasurementRecords, LaunchLabel) {
    EXPECT_EQ(launch_label({{32, 4, 4}, {1, 1, 2}}), "block=32x4x4 fold=1x1x2");
    EXPECT_EQ(launch_label({{32, 4, 4}, {1, 1, 2}, kernel::FoldPlacement::strided}),
              "block=32x4x4 fold=1x1x2:strided");
    // One point per thread has no placement to name.
    EXPECT_EQ(launch_label({{32, 4, 4}, {1, 1, 1}, kernel::FoldPlacement::strided}),
              "block=32x4x4 fold=1x1x1");
}

TEST(MeasurementRecords, RealParametersKeepSeventeenDigits) {
    KernelRecord kernel;
    kernel.launch.block = {64, 1, 1};
    kernel.launch.fold = {1, 2, 1};
    kernel.parameters = {{"a", 0.1}, {"n", std::int64_t{7}}};
    EXPECT_EQ(configuration_label(kernel), "block=64x1x1 fold=1x2x1 a=0.10000000000000001 n=7");
}

} // namespace kerncast::runtime
