// The provenance of fitted values (FitProvenance, a source's "fit" member,
// docs/machine-format.md): read, validated, written back losslessly, and shown by
// `kerncast machine show`.
#include "expect_error.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/machine_view.hpp"
#include "machine_fixture.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

const std::string fitted = R"json({
  "schema": "kerncast.machine/1",
  "extends": "a100-sxm4-40gb",
  "identity": {"id": "a100-fitted"},
  "sources": {
    "fit-volumes": {
      "kind": "measured",
      "citation": "kerncast fit-volumes (test)",
      "run": "data/records",
      "fit": {"fits": ["z_layer_overlap", "l1_redundant_loads"], "records": 90, "samples": 270,
              "median_abs_relative_error": 0.031, "p90_abs_relative_error": 0.12,
              "held_out_median_abs_relative_error": 0.04, "held_out_p90_abs_relative_error": 0.15,
              "records_sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
              "date": "2026-11-24T21:00:00Z", "kerncast_version": "0.1.0"}
    }
  },
  "capacity_fits": {
    "z_layer_overlap": {"source": "fit-volumes", "a": 0.98, "b": 0.015, "c": -2.9},
    "l1_redundant_loads": {"source": "fit-volumes", "a": 0.999, "b": 0.001, "c": -2.0}
  }
}
)json";

MachineModel parse(const std::string& text) {
    return parse_machine_json(text, "fitted.json");
}

void expect_error(const std::string& text, const std::string& message,
                  const std::string& json_path) {
    const auto error = caught_error([&] { parse(text); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), message);
    EXPECT_EQ(error->where().json_path, json_path);
    EXPECT_EQ(error->where().file, "fitted.json");
}

// The fitted file with the optional oversubscription ranges of its fits.
std::string with_ranges(const std::string& ranges = R"("oversubscription_ranges": {
    "l1_redundant_loads": [0.1, 3.0], "z_layer_overlap": [0.566, 12.539]})") {
    return replaced(fitted, "\"kerncast_version\": \"0.1.0\"}",
                    "\"kerncast_version\": \"0.1.0\", " + ranges + "}");
}

} // namespace

TEST(FitProvenance, IsRead) {
    const MachineModel m = parse(fitted);
    const Provenance& source = m.sources.at("fit-volumes");
    ASSERT_TRUE(source.fit);
    const FitProvenance& f = *source.fit;
    EXPECT_EQ(f.fits, (std::vector<std::string>{"z_layer_overlap", "l1_redundant_loads"}));
    EXPECT_EQ(f.records, 90);
    EXPECT_EQ(f.samples, 270);
    EXPECT_EQ(f.median_abs_relative_error, 0.031);
    EXPECT_EQ(f.p90_abs_relative_error, 0.12);
    EXPECT_EQ(f.held_out_median_abs_relative_error, 0.04);
    EXPECT_EQ(f.held_out_p90_abs_relative_error, 0.15);
    EXPECT_EQ(f.records_sha256.size(), 64u);
    EXPECT_EQ(f.date, "2026-11-24T21:00:00Z");
    EXPECT_EQ(f.kerncast_version, "0.1.0");
    EXPECT_EQ(m.capacity_fits.z_layer_overlap->c, (Sourced<double>{-2.9, "fit-volumes"}));
    // The base machine's fits that the file does not replace keep their source.
    EXPECT_EQ(m.capacity_fits.y_layer_overlap->a.source, "kerncast-capacity-defaults");
    EXPECT_FALSE(m.sources.at("kerncast-capacity-defaults").fit);
}

TEST(FitProvenance, OversubscriptionRangesAreOptionalReadAndRoundTrip) {
    EXPECT_TRUE(parse(fitted).sources.at("fit-volumes").fit->oversubscription_ranges.empty());
    const MachineModel m = parse(with_ranges());
    const auto& ranges = m.sources.at("fit-volumes").fit->oversubscription_ranges;
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges.at("z_layer_overlap"), (std::array<double, 2>{0.566, 12.539}));
    EXPECT_EQ(ranges.at("l1_redundant_loads"), (std::array<double, 2>{0.1, 3.0}));
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)})
        EXPECT_EQ(parse(text), m) << text;
    expect_error(with_ranges(R"("oversubscription_ranges": {"y_layer_overlap": [0.1, 1.0]})"),
                 "\"y_layer_overlap\" is not one of the fits this source determined",
                 "/sources/fit-volumes/fit/oversubscription_ranges/y_layer_overlap");
    expect_error(with_ranges(R"("oversubscription_ranges": {"z_layer_overlap": [2.0, 1.0]})"),
                 "expected 0 <= smallest O <= largest O, got [2, 1]",
                 "/sources/fit-volumes/fit/oversubscription_ranges/z_layer_overlap");
    expect_error(with_ranges(R"("oversubscription_ranges": {"z_layer_overlap": [1.0]})"),
                 "expected [smallest O, largest O], got 1 numbers",
                 "/sources/fit-volumes/fit/oversubscription_ranges/z_layer_overlap");
}

TEST(FitProvenance, RoundTrips) {
    MachineModel m = parse(fitted);
    m.sources.at("fit-volumes").fit->median_abs_relative_error = 0.1 + 0.2;   // bit-exact
    m.sources.at("fit-volumes").fit->held_out_p90_abs_relative_error.reset(); // optional
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)})
        EXPECT_EQ(parse(text), m) << text;
}

TEST(FitProvenance, IsValidated) {
    expect_error(replaced(fitted, "\"z_layer_overlap\", \"l1", "\"z_layer_overlp\", \"l1"),
                 "unknown capacity fit \"z_layer_overlp\"", "/sources/fit-volumes/fit/fits/0");
    const auto typo = caught_error(
        [&] { parse(replaced(fitted, "\"z_layer_overlap\", \"l1", "\"z_layer_overlp\", \"l1")); });
    ASSERT_TRUE(typo);
    EXPECT_TRUE(has_note(*typo, "did you mean \"z_layer_overlap\"?"));
    expect_error(replaced(fitted, "\"l1_redundant_loads\"], ", "\"z_layer_overlap\"], "),
                 "fit \"z_layer_overlap\" is listed twice", "/sources/fit-volumes/fit/fits/1");
    expect_error(
        replaced(fitted, "\"fits\": [\"z_layer_overlap\", \"l1_redundant_loads\"]", "\"fits\": []"),
        "expected the names of the fits it determined", "/sources/fit-volumes/fit/fits");
    expect_error(replaced(fitted, "\"records\": 90", "\"records\": 0"), "must be at least 1, got 0",
                 "/sources/fit-volumes/fit/records");
    expect_error(replaced(fitted, "\"samples\": 270", "\"samples\": -3"),
                 "must be at least 1, got -3", "/sources/fit-volumes/fit/samples");
    expect_error(
        replaced(fitted, "\"p90_abs_relative_error\": 0.12", "\"p90_abs_relative_error\": -0.12"),
        "must not be negative, got -0.12", "/sources/fit-volumes/fit/p90_abs_relative_error");
    expect_error(replaced(fitted, "\"0123456789abcdef0123", "\"0123456789ABCDEF0123"),
                 "expected 64 lower-case hexadecimal digits, got "
                 "\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\"",
                 "/sources/fit-volumes/fit/records_sha256");
    expect_error(replaced(fitted, "\"2026-11-24T21:00:00Z\"", "\"24.11.2026\""),
                 "expected an ISO 8601 UTC date such as \"2026-11-24T21:00:00Z\", got "
                 "\"24.11.2026\"",
                 "/sources/fit-volumes/fit/date");
    expect_error(replaced(fitted, "\"kerncast_version\": \"0.1.0\"", "\"kerncast_version\": \"\""),
                 "expected the kerncast version", "/sources/fit-volumes/fit/kerncast_version");
    expect_error(replaced(fitted, "\"samples\": 270", "\"sample\": 270"), "unknown key \"sample\"",
                 "/sources/fit-volumes/fit/sample");
    expect_error(replaced(fitted, ", \"kerncast_version\": \"0.1.0\"", ""),
                 "missing required field \"kerncast_version\" (expected a string such as "
                 "\"0.1.0\")",
                 "/sources/fit-volumes/fit/kerncast_version");
}

TEST(FitProvenance, MachineShowListsIt) {
    const report::Document doc = machine_view(parse(fitted));
    const report::Table& table = doc.table_at("fit_provenance");
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0][0], report::Cell{std::string("fit-volumes")});
    EXPECT_EQ(table.rows[0][1], report::Cell{std::string("z_layer_overlap,l1_redundant_loads")});
    EXPECT_EQ(table.rows[0][2], report::Cell{std::string()}); // no ranges recorded
    EXPECT_EQ(table.rows[0][3], report::Cell{std::int64_t{90}});
    EXPECT_EQ(table.rows[0][7], report::Cell{0.04});
    // With them, in the order of the fits.
    const report::Document ranged = machine_view(parse(with_ranges()));
    EXPECT_EQ(ranged.table_at("fit_provenance").rows[0][2],
              report::Cell{std::string("z_layer_overlap 0.566-12.5, l1_redundant_loads 0.1-3")});
    // Machines without fitted sources have no such table.
    EXPECT_EQ(machine_view(parse_machine_json(R"({"schema": "kerncast.machine/1",
        "extends": "a100-sxm4-40gb", "identity": {"id": "plain"}, "sources": {}})",
                                              "plain.json"))
                  .find_table("fit_provenance"),
              nullptr);
}
