#include "kerncast/error.hpp"
#include "kerncast/probe/raw_series.hpp"
#include "synthetic_record.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kerncast::probe {
namespace {

std::string error_of(const std::string& text) {
    try {
        parse_probe_record(text, "raw.json");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        return e.describe();
    }
    return "no error";
}

TEST(RawSeries, RoundTripIsLossless) {
    const ProbeRecord record = testing::synthetic_record();
    const std::string text = format_probe_record(record);
    const ProbeRecord parsed = parse_probe_record(text, "memory");
    EXPECT_EQ(probe_record_to_json(parsed), probe_record_to_json(record));
    EXPECT_EQ(parsed.benchmarks, record.benchmarks);
    EXPECT_EQ(format_probe_record(parsed), text);
}

TEST(RawSeries, OneSeriesPerLine) {
    const std::string text = format_probe_record(testing::synthetic_record());
    // Every series object sits on a single line: no line holds only a number.
    std::istringstream lines(text);
    std::string line;
    int series_lines = 0;
    while (std::getline(lines, line)) {
        EXPECT_FALSE(line.find_first_not_of(" 0123456789.,-e") == std::string::npos &&
                     !line.empty())
            << line;
        series_lines += line.find("\"values\":[") != std::string::npos;
    }
    std::size_t total = 0;
    for (const auto& b : testing::synthetic_record().benchmarks)
        total += b.series.size();
    EXPECT_EQ(series_lines, static_cast<int>(total));
}

TEST(RawSeries, WriteAndReadDirectory) {
    const auto dir = std::filesystem::temp_directory_path() / "kerncast-raw-series-test";
    std::filesystem::remove_all(dir);
    const ProbeRecord record = testing::synthetic_record();
    write_probe_record(record, dir.string());
    EXPECT_TRUE(std::filesystem::exists(dir / "raw.json"));
    EXPECT_EQ(probe_record_to_json(read_probe_record(dir.string())), probe_record_to_json(record));
    EXPECT_EQ(probe_record_to_json(read_probe_record((dir / "raw.json").string())),
              probe_record_to_json(record));
    std::filesystem::remove_all(dir);
}

TEST(RawSeries, CheckedInSyntheticRecordMatchesGenerator) {
    // tests/unit/probe/data/synthetic-gpu/raw.json feeds the CLI replay tests; regenerate with
    // KERNCAST_REGEN_GOLDEN=1.
    const std::string path = std::string(KERNCAST_TEST_DATA_DIR) + "/data/synthetic-gpu/raw.json";
    const std::string expected = format_probe_record(testing::synthetic_record());
    if (std::getenv("KERNCAST_REGEN_GOLDEN")) {
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        std::ofstream(path) << expected;
    }
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::ostringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), expected);
}

TEST(RawSeries, ErrorsNamePositionAndPath) {
    const std::string wrong_schema = "{\n  \"schema\": \"kerncast.probe-raw/9\"\n}";
    const auto message = error_of(wrong_schema);
    EXPECT_NE(message.find("raw.json:2:"), std::string::npos) << message;
    EXPECT_NE(message.find("unsupported schema"), std::string::npos) << message;
    EXPECT_NE(message.find("/schema"), std::string::npos) << message;

    const std::string syntax = "{\n  \"schema\": \"kerncast.probe-raw/1\",\n  oops\n}";
    const auto syntax_message = error_of(syntax);
    EXPECT_NE(syntax_message.find("raw.json:3:"), std::string::npos) << syntax_message;
    EXPECT_NE(syntax_message.find("malformed JSON"), std::string::npos) << syntax_message;
}

TEST(RawSeries, BadBenchmarksAreRejected) {
    auto j = probe_record_to_json(testing::synthetic_record());
    j["benchmarks"][1]["kind"] = "sizes";
    auto message = error_of(j.dump(2));
    EXPECT_NE(message.find("unknown benchmark kind \"sizes\""), std::string::npos) << message;
    EXPECT_NE(message.find("/benchmarks/1/kind"), std::string::npos) << message;

    j = probe_record_to_json(testing::synthetic_record());
    j["benchmarks"][0]["series"][2]["values"] = nlohmann::json::array();
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("/benchmarks/0/series/2/values"), std::string::npos) << message;

    j = probe_record_to_json(testing::synthetic_record());
    j["benchmarks"][0]["series"][0]["values"][3] = "fast";
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("expected a number"), std::string::npos) << message;
    EXPECT_NE(message.find("/benchmarks/0/series/0/values/3"), std::string::npos) << message;

    j = probe_record_to_json(testing::synthetic_record());
    j["benchmarks"][1]["name"] = j["benchmarks"][0]["name"];
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("appears twice"), std::string::npos) << message;

    j = probe_record_to_json(testing::synthetic_record());
    j["benchmarks"][0]["sries"] = 1;
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("unknown key \"sries\""), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean \"series\"?"), std::string::npos) << message;
}

TEST(RawSeries, CarveoutAndTlbBenchmarksRoundTripAndAreChecked) {
    const ProbeRecord record = testing::synthetic_record();
    const ProbeRecord parsed = parse_probe_record(format_probe_record(record), "raw.json");
    const RawBenchmark* carveout = parsed.benchmark("l1.size.carveout_100");
    ASSERT_NE(carveout, nullptr);
    EXPECT_EQ(carveout->carveout_percent, 100);
    EXPECT_EQ(carveout->shared_bytes_per_block, 228 * 1024);
    EXPECT_EQ(parsed.benchmark("l1.size")->carveout_percent, -1); // absent: none recorded
    ASSERT_NE(parsed.benchmark("tlb"), nullptr);
    EXPECT_EQ(parsed.benchmark("tlb")->kind, "tlb");

    auto j = probe_record_to_json(record);
    std::size_t index = 0;
    while (j["benchmarks"][index]["name"] != "l1.size.carveout_100")
        ++index;
    const std::string path = "/benchmarks/" + std::to_string(index) + "/carveout";
    j["benchmarks"][index]["carveout"]["requested_percent"] = 140;
    auto message = error_of(j.dump(2));
    EXPECT_NE(message.find("requested_percent must be 0 to 100"), std::string::npos) << message;
    EXPECT_NE(message.find(path + "/requested_percent"), std::string::npos) << message;
    j["benchmarks"][index]["carveout"].erase("requested_percent");
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("requested_percent"), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    j["benchmarks"][index]["carveout"] = {
        {"requested_percent", 5}, {"shared_bytes_per_block", 1}, {"shared_bytes", 2}};
    message = error_of(j.dump(2));
    EXPECT_NE(message.find("unknown key \"shared_bytes\""), std::string::npos) << message;
}

TEST(RawSeries, MissingDirectoryIsAnInputError) {
    try {
        read_probe_record("/nonexistent/kerncast/probe");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("cannot read probe record"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast::probe
