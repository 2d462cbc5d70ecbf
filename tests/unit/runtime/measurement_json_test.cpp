#include "kerncast/error.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace kerncast::runtime {
namespace {

const std::string sample_path = std::string(KERNCAST_TEST_DATA_DIR) + "/data/saxpy_record.json";

std::string read_text(const std::string& path) {
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// The sample with one JSON value replaced (pointer -> new value) or removed (nullopt).
std::string edited(const std::string& pointer, const std::optional<nlohmann::json>& value) {
    nlohmann::json document = nlohmann::json::parse(read_text(sample_path));
    const nlohmann::json::json_pointer p(pointer);
    if (value)
        document[p] = *value;
    else
        document[p.parent_pointer()].erase(p.back());
    return document.dump(2);
}

Error parse_error(const std::string& text) {
    try {
        parse_measurement_json(text, "record.json");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected an input error";
    return Error(ErrorKind::internal, "no error");
}

TEST(Measurement, ReadsTheSampleRecord) {
    const Measurement m = load_measurement_file(sample_path);
    EXPECT_EQ(m.device.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(m.device.cc_major, 9);
    EXPECT_EQ(m.device.cc_minor, 0);
    EXPECT_EQ(m.device.sm_count, 132);
    EXPECT_DOUBLE_EQ(*m.device.sm_clock_start_mhz, 1980.0);
    EXPECT_DOUBLE_EQ(*m.device.sm_clock_end_mhz, 1755.0);
    EXPECT_EQ(*m.device.uuid, "GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    EXPECT_EQ(m.kernel.name, "saxpy");
    EXPECT_EQ(std::get<std::int64_t>(m.kernel.parameters.at("n")), 1048576);
    EXPECT_DOUBLE_EQ(std::get<double>(m.kernel.parameters.at("a")), 2.5);
    ASSERT_EQ(m.kernel.buffers.size(), 3u);
    EXPECT_EQ(m.kernel.buffers[2].init, "zero");
    EXPECT_EQ(m.kernel.launch.grid, (kernel::Dim3{4096, 1, 1}));
    EXPECT_EQ(m.method->repetitions, 3);
    EXPECT_EQ(*m.method->l2_flush_bytes, 104857600);
    EXPECT_EQ(m.results.times_s, (std::vector<double>{1.0e-5, 1.2e-5, 1.1e-5}));
    EXPECT_DOUBLE_EQ(m.counters.at("dram__bytes_read.sum").value, 8388608);
    EXPECT_EQ(m.counters.at("sm__cycles_active.avg").unit, "cycle");
    EXPECT_EQ(m.command_line.front(), "kerncast");
}

TEST(Measurement, RoundTripIsLossless) {
    Measurement m = load_measurement_file(sample_path);
    // Values that need all 17 significant digits, and optional fields absent.
    m.results.times_s = {0.1 + 0.2, 1.0 / 3.0};
    m.method->repetitions = 2;
    m.results.median_s = m.results.mean_s = (m.results.times_s[0] + m.results.times_s[1]) / 2;
    m.results.min_s = 0.1 + 0.2;
    m.results.max_s = 1.0 / 3.0;
    const double d = m.results.times_s[0] - m.results.mean_s;
    const double e = m.results.times_s[1] - m.results.mean_s;
    m.results.stddev_s = std::sqrt(d * d + e * e);
    m.kernel.parameters["ratio"] = 2.0 / 7.0;
    m.kernel.parameters["whole_real"] = 3.0; // must stay a real, not become an integer
    m.device.uuid.reset();
    m.device.sm_clock_end_mhz.reset();
    m.method->l2_flush_bytes.reset();
    const std::string text = measurement_to_json(m).dump(2);
    const Measurement back = parse_measurement_json(text, "round trip");
    EXPECT_EQ(back, m);
    EXPECT_TRUE(std::holds_alternative<double>(back.kernel.parameters.at("whole_real")));
    // And the text itself is stable.
    EXPECT_EQ(measurement_to_json(back).dump(2), text);
}

TEST(Measurement, ConstantArraysAreOptionalAndRoundTrip) {
    Measurement m = load_measurement_file(sample_path);
    EXPECT_TRUE(m.kernel.constants.empty()); // records without the key stay readable
    EXPECT_FALSE(measurement_to_json(m)["kernel"].contains("constants")); // and are written alike
    m.kernel.constants = {{"w", "f64", 25, "hash"}, {"table", "f16", 7, "zero"}};
    m.kernel.buffers[0].dtype = "f16";
    const std::string text = measurement_to_json(m).dump(2);
    const Measurement back = parse_measurement_json(text, "round trip");
    EXPECT_EQ(back, m);
    EXPECT_EQ(back.kernel.constants[1], (BufferRecord{"table", "f16", 7, "zero"}));
    EXPECT_EQ(measurement_to_json(back).dump(2), text);

    const nlohmann::json bad_constant = {
        {"name", "w"}, {"dtype", "f64"}, {"count", 0}, {"init", "hash"}};
    EXPECT_EQ(parse_error(edited("/kernel/constants", nlohmann::json::array({bad_constant})))
                  .where()
                  .json_path,
              "/kernel/constants/0/count");
    EXPECT_EQ(parse_error(edited("/kernel/constants", "w:f64:25")).where().json_path,
              "/kernel/constants");
}

TEST(Measurement, PatternInitialisationsRoundTripAndBadOnesAreRefused) {
    Measurement m = load_measurement_file(sample_path);
    m.kernel.buffers[0].init = "pattern=00010203";
    const std::string text = measurement_to_json(m).dump(2);
    EXPECT_EQ(parse_measurement_json(text, "round trip"), m);
    for (const char* bad : {"pattern=0", "pattern=", "fill", "pattern=zz"}) {
        nlohmann::json buffers = measurement_to_json(m)["kernel"]["buffers"];
        buffers[0]["init"] = bad;
        const Error e = parse_error(edited("/kernel/buffers", buffers));
        EXPECT_EQ(e.where().json_path, "/kernel/buffers/0/init") << bad;
        EXPECT_NE(e.message().find("expected hash, zero or pattern=HEX"), std::string::npos);
    }
}

TEST(Measurement, OldRecordsRoundTripByteForByte) {
    // saxpy_record_as_written.json is the sample as kerncast wrote it before /provenance and
    // /kernel/registers_per_thread existed (write_measurement_file at commit dc5bd92): read and
    // written again, it comes out byte for byte the same.
    const std::string path =
        std::string(KERNCAST_TEST_DATA_DIR) + "/data/saxpy_record_as_written.json";
    const std::string text = read_text(path);
    EXPECT_EQ(measurement_to_json(load_measurement_file(path)).dump(2) + "\n", text);
    EXPECT_EQ(measurement_to_json(load_measurement_file(sample_path)).dump(2) + "\n", text);
}

TEST(Measurement, OldRecordsRoundTripUnchanged) {
    // The sample predates /provenance and /kernel/registers_per_thread: it reads, and kerncast
    // writes back exactly its keys and values, none added or dropped (the sample is laid out by
    // hand, so compare as JSON; integers written as reals compare equal), and that text is
    // stable byte for byte.
    const std::string text = read_text(sample_path);
    const Measurement m = parse_measurement_json(text, "sample");
    EXPECT_FALSE(m.published());
    EXPECT_FALSE(m.kernel.registers_per_thread);
    const nlohmann::json written = measurement_to_json(m);
    EXPECT_EQ(written, nlohmann::json::parse(text));
    const std::string written_text = written.dump(2);
    EXPECT_EQ(measurement_to_json(parse_measurement_json(written_text, "again")).dump(2),
              written_text);
}

// The sample turned into a published record: a provenance, and without what a transcription
// cannot know (driver, runtime, PCI bus, method, times, grid, version, date, command line).
nlohmann::json published_sample() {
    nlohmann::json document = nlohmann::json::parse(read_text(sample_path));
    document["provenance"] = {{"kind", "published"},
                              {"repository", "te42kyfo/warpspeed"},
                              {"commit", "c85e496"},
                              {"notebook", "blocking_test.ipynb"},
                              {"cell", "8"},
                              {"device", "Tesla V100 (as stated)"},
                              {"normalisation_points", 1000},
                              {"published_values", {{"dram_load_B", 10.2}}},
                              {"peer_predictions", {{"peer_pred_dram_load_B", 10.09}}}};
    for (const char* key : {"driver_version", "runtime_version", "pci_bus_id"})
        document["device"].erase(key);
    for (const char* key : {"times_s", "median_s", "min_s", "max_s", "mean_s", "stddev_s"})
        document["results"].erase(key);
    for (const char* key : {"method", "kerncast_version", "date", "command_line"})
        document.erase(key);
    document["kernel"]["launch"].erase("grid");
    document["kernel"]["registers_per_thread"] = 31;
    return document;
}

TEST(Measurement, PublishedRecordsOmitWhatATranscriptionCannotKnow) {
    const nlohmann::json document = published_sample();
    const Measurement m = parse_measurement_json(document.dump(2), "published.json");
    ASSERT_TRUE(m.published());
    EXPECT_EQ(m.provenance->repository, "te42kyfo/warpspeed");
    EXPECT_EQ(*m.provenance->normalisation_points, 1000);
    EXPECT_DOUBLE_EQ(m.provenance->published_values.at("dram_load_B"), 10.2);
    EXPECT_DOUBLE_EQ(m.provenance->peer_predictions.at("peer_pred_dram_load_B"), 10.09);
    EXPECT_FALSE(m.device.driver_version);
    EXPECT_FALSE(m.device.pci_bus_id);
    EXPECT_FALSE(m.method);
    EXPECT_FALSE(m.has_times());
    EXPECT_FALSE(m.kernel.launch.grid);
    EXPECT_EQ(*m.kernel.registers_per_thread, 31);
    EXPECT_TRUE(m.kerncast_version.empty() && m.date_utc.empty() && m.command_line.empty());
    // Written back without the absent keys, and stable byte for byte.
    EXPECT_EQ(measurement_to_json(m), document);
    const std::string text = measurement_to_json(m).dump(2);
    EXPECT_EQ(parse_measurement_json(text, "again"), m);
    EXPECT_EQ(measurement_to_json(parse_measurement_json(text, "again")).dump(2), text);
}

TEST(Measurement, KerncastRecordsStillNeedWhatPublishedOnesMayOmit) {
    // Without a provenance every key stays required, as before.
    EXPECT_EQ(parse_error(edited("/device/driver_version", std::nullopt)).where().json_path,
              "/device/driver_version");
    EXPECT_EQ(parse_error(edited("/method", std::nullopt)).where().json_path, "/method");
    EXPECT_EQ(parse_error(edited("/kernel/launch/grid", std::nullopt)).where().json_path,
              "/kernel/launch/grid");
    EXPECT_EQ(parse_error(edited("/results/times_s", std::nullopt)).where().json_path,
              "/results/times_s");
    EXPECT_EQ(parse_error(edited("/date", std::nullopt)).where().json_path, "/date");
}

TEST(Measurement, ProvenanceIsReadStrictly) {
    const auto error_at = [](const std::string& pointer, const std::optional<nlohmann::json>& v) {
        nlohmann::json document = published_sample();
        const nlohmann::json::json_pointer p(pointer);
        if (v)
            document[p] = *v;
        else
            document[p.parent_pointer()].erase(p.back());
        return parse_error(document.dump(2));
    };
    EXPECT_EQ(error_at("/provenance/kind", "guessed").where().json_path, "/provenance/kind");
    EXPECT_EQ(error_at("/provenance/repository", std::nullopt).where().json_path,
              "/provenance/repository");
    EXPECT_EQ(error_at("/provenance/commit", "").where().json_path, "/provenance/commit");
    EXPECT_EQ(error_at("/provenance/normalisation_points", 0).where().json_path,
              "/provenance/normalisation_points");
    EXPECT_EQ(error_at("/provenance/published_values/dram_load_B", "10.2").where().json_path,
              "/provenance/published_values/dram_load_B");
    const Error unknown = error_at("/provenance/measured_by", "me");
    EXPECT_EQ(unknown.where().json_path, "/provenance/measured_by");
    // A summary without the times it summarises, or an empty list of times.
    EXPECT_EQ(error_at("/results/median_s", 1e-3).where().json_path, "/results/median_s");
    EXPECT_EQ(error_at("/results/times_s", nlohmann::json::array()).where().json_path,
              "/results/times_s");
    // Registers per thread: 1..255.
    EXPECT_EQ(error_at("/kernel/registers_per_thread", 0).where().json_path,
              "/kernel/registers_per_thread");
    // Present fields are checked as in any record.
    EXPECT_EQ(error_at("/device/pci_bus_id", 17).where().json_path, "/device/pci_bus_id");
}

TEST(Measurement, PublishedRecordWithTimesChecksTheSummary) {
    nlohmann::json document = published_sample();
    document["results"]["times_s"] = {2e-3, 4e-3};
    document["results"]["median_s"] = 3e-3;
    document["results"]["min_s"] = 2e-3;
    document["results"]["max_s"] = 4e-3;
    document["results"]["mean_s"] = 3e-3;
    document["results"]["stddev_s"] = std::sqrt(2.0) * 1e-3;
    const Measurement m = parse_measurement_json(document.dump(2), "timed.json");
    EXPECT_TRUE(m.has_times());
    document["results"]["median_s"] = 2.5e-3;
    EXPECT_EQ(parse_error(document.dump(2)).where().json_path, "/results/median_s");
}

TEST(Measurement, PublishedColumnsNameTheirCounters) {
    const auto& columns = published_volume_columns();
    ASSERT_EQ(columns.size(), 4u);
    EXPECT_STREQ(columns[0].metric, "dram__bytes_read.sum");
    EXPECT_STREQ(columns[2].column, "l2_load_B");
    EXPECT_STREQ(columns[2].metric, "lts__t_sectors_op_read.sum");
    EXPECT_STREQ(columns[2].unit, "sector");
    EXPECT_DOUBLE_EQ(columns[2].bytes_per_unit, 32);
}

TEST(Measurement, SyntaxErrorNamesLineAndColumn) {
    const Error e = parse_error("{\n  \"schema\": \"kerncast.measurement/1\",\n  \"date\": ,\n}");
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_EQ(e.where().file, "record.json");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().column, 11);
    EXPECT_NE(e.describe().find("record.json:3:11: error: malformed JSON"), std::string::npos)
        << e.describe();
}

TEST(Measurement, WrongSchemaIsRejected) {
    const Error e = parse_error(edited("/schema", "kerncast.machine/1"));
    EXPECT_EQ(e.where().json_path, "/schema");
    EXPECT_NE(e.message().find("unsupported schema 'kerncast.machine/1'"), std::string::npos);
}

TEST(Measurement, UnknownKeyIsRejectedWithItsPath) {
    const Error e = parse_error(edited("/device/colour", "green"));
    EXPECT_EQ(e.where().json_path, "/device/colour");
    EXPECT_NE(e.message().find("unknown key \"colour\""), std::string::npos);
    ASSERT_FALSE(e.notes().empty());
    EXPECT_NE(e.notes()[0].find("pci_bus_id"), std::string::npos);
}

TEST(Measurement, MissingKeyIsRejected) {
    const Error e = parse_error(edited("/kernel/file_sha256", std::nullopt));
    EXPECT_EQ(e.where().json_path, "/kernel/file_sha256");
    EXPECT_NE(e.message().find("missing required field \"file_sha256\""), std::string::npos);
}

TEST(Measurement, WrongTypesAreRejected) {
    EXPECT_EQ(parse_error(edited("/device/sm_count", "lots")).where().json_path,
              "/device/sm_count");
    EXPECT_EQ(parse_error(edited("/kernel/launch/block/1", 0)).where().json_path,
              "/kernel/launch/block/1");
    EXPECT_EQ(
        parse_error(edited("/kernel/launch/grid", nlohmann::json::array({1, 2}))).where().json_path,
        "/kernel/launch/grid");
    EXPECT_EQ(parse_error(edited("/method/repetitions", 2.5)).where().json_path,
              "/method/repetitions");
    EXPECT_EQ(parse_error(edited("/counters/dram__bytes_read.sum/value", "8 MB")).where().json_path,
              "/counters/dram__bytes_read.sum/value");
}

TEST(Measurement, SourceHashIsOptionalAndRoundTrips) {
    Measurement m = load_measurement_file(sample_path);
    EXPECT_TRUE(m.kernel.source_sha256.empty()); // records from before it stay readable
    EXPECT_FALSE(measurement_to_json(m)["kernel"].contains("source_sha256")); // and unchanged
    m.kernel.source_sha256 = std::string(64, 'c');
    const std::string text = measurement_to_json(m).dump(2);
    EXPECT_EQ(parse_measurement_json(text, "round trip"), m);
    const Error e = parse_error(edited("/kernel/source_sha256", "not a hash"));
    EXPECT_EQ(e.where().json_path, "/kernel/source_sha256");
    EXPECT_NE(e.message().find("64 lower-case hexadecimal digits"), std::string::npos);
}

TEST(Measurement, FoldPlacementIsOptionalAndRoundTrips) {
    Measurement m = load_measurement_file(sample_path);
    EXPECT_EQ(m.kernel.launch.fold_placement, kernel::FoldPlacement::consecutive);
    EXPECT_FALSE(measurement_to_json(m)["kernel"]["launch"].contains("fold_placement"));
    m.kernel.launch.fold = {4, 1, 1};
    m.kernel.launch.fold_placement = kernel::FoldPlacement::strided;
    const nlohmann::json json = measurement_to_json(m);
    EXPECT_EQ(json["kernel"]["launch"]["fold_placement"], "strided");
    EXPECT_EQ(parse_measurement_json(json.dump(2), "round trip"), m);
    // One point a thread has nothing to place: read as consecutive.
    EXPECT_EQ(parse_measurement_json(edited("/kernel/launch/fold_placement", "strided"), "r.json")
                  .kernel.launch.fold_placement,
              kernel::FoldPlacement::consecutive);
    const Error e = parse_error(edited("/kernel/launch/fold_placement", "cyclic"));
    EXPECT_EQ(e.where().json_path, "/kernel/launch/fold_placement");
    EXPECT_NE(e.message().find("\"consecutive\" or \"strided\""), std::string::npos);
}

TEST(Measurement, InvalidValuesAreRejected) {
    EXPECT_EQ(parse_error(edited("/kernel/file_sha256", "ABC")).where().json_path,
              "/kernel/file_sha256");
    EXPECT_EQ(parse_error(edited("/date", "21.11.2026")).where().json_path, "/date");
    EXPECT_EQ(parse_error(edited("/device/compute_capability", "nine")).where().json_path,
              "/device/compute_capability");
    EXPECT_EQ(parse_error(edited("/kernel/buffers/0/dtype", "f8")).where().json_path,
              "/kernel/buffers/0/dtype");
    EXPECT_EQ(parse_error(edited("/method/timer", "stopwatch")).where().json_path, "/method/timer");
    EXPECT_EQ(parse_error(edited("/results/times_s/1", -1.0)).where().json_path,
              "/results/times_s/1");
}

TEST(Measurement, TimesMustMatchRepetitionsAndSummary) {
    const Error count = parse_error(edited("/method/repetitions", 4));
    EXPECT_EQ(count.where().json_path, "/results/times_s");
    EXPECT_NE(count.message().find("3 times for 4 repetitions"), std::string::npos);
    const Error summary = parse_error(edited("/results/median_s", 1.0e-5));
    EXPECT_EQ(summary.where().json_path, "/results/median_s");
    EXPECT_NE(summary.message().find("does not match times_s"), std::string::npos);
}

TEST(Measurement, UnreadableFileIsAnInputError) {
    try {
        load_measurement_file("/nonexistent/record.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("/nonexistent/record.json"), std::string::npos);
    }
}

TEST(Measurement, NowIsIso8601Utc) {
    EXPECT_TRUE(
        std::regex_match(iso8601_utc_now(), std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")));
}

// Found by fuzzing (issue 15): equal times have a standard deviation of 0, which a recomputed
// mean off by rounding (1.1e-5 x 3 / 3 != 1.1e-5) must not turn into a rejection.
TEST(Measurement, EqualTimesWithZeroDeviationAreAccepted) {
    nlohmann::json document = nlohmann::json::parse(read_text(sample_path));
    document["results"]["times_s"] = {1.1e-5, 1.1e-5, 1.1e-5};
    for (const char* key : {"median_s", "min_s", "max_s", "mean_s"})
        document["results"][key] = 1.1e-5;
    document["results"]["stddev_s"] = 0.0;
    EXPECT_EQ(parse_measurement_json(document.dump(2), "record.json").results.stddev_s, 0.0);
    // A deviation the times do not have is still refused.
    document["results"]["stddev_s"] = 1.0e-7;
    EXPECT_EQ(parse_error(document.dump(2)).where().json_path, "/results/stddev_s");
}

TEST(Measurement, ImpossibleCalendarDatesAreRejected) {
    for (const char* date :
         {"2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T12:00:00Z",
          "2026-00-10T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T13:60:00Z"})
        EXPECT_EQ(parse_error(edited("/date", date)).where().json_path, "/date") << date;
    for (const char* date : {"2024-02-29T00:00:00Z", "2026-12-31T23:59:60Z"})
        EXPECT_NO_THROW(parse_measurement_json(edited("/date", date), "record.json")) << date;
}

} // namespace
} // namespace kerncast::runtime
