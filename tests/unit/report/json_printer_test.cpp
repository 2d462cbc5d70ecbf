// Golden output of the JSON printer for one document with every kind of cell.
#include "kerncast/report/printers.hpp"
#include "sample_document.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

using namespace kerncast::report::test;

TEST(Printers, JsonCarriesSchemaAndFullPrecision) {
    const auto json = nlohmann::json::parse(render(print_json, sample_document()));
    EXPECT_EQ(json["schema"], "kerncast.sample/1");
    EXPECT_EQ(json["title"], "Sample");
    const auto& rows = json["tables"]["values"]["rows"];
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1]["value_cycles"].get<double>(), 2.28125);
    EXPECT_TRUE(rows[1]["known"].is_null());
    EXPECT_EQ(rows[2]["value_cycles"].get<std::int64_t>(), 12);
    EXPECT_EQ(rows[2]["name"], "a|b, \"c\"");
    EXPECT_EQ(json["tables"]["values"]["columns"][1]["unit"], "cycles");
    EXPECT_EQ(json["tables"]["second"]["rows"][0]["k"], -3);
    EXPECT_EQ(json["notes"][0], "first note");
}

TEST(Printers, JsonNonFiniteBecomesString) {
    Document doc;
    doc.schema = "kerncast.sample/1";
    doc.tables.push_back(
        {"t", "", {{"x", "x", "", -1}}, {{std::numeric_limits<double>::infinity()}}});
    const auto json = nlohmann::json::parse(render(print_json, doc));
    EXPECT_EQ(json["tables"]["t"]["rows"][0]["x"], "inf");
}
