// Golden output of the JSON printer for one document with every kind of cell.
#include "kerncast/report/printers.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

namespace {

Document sample_document() {
    Document doc;
    doc.schema = "kerncast.sample/1";
    doc.title = "Sample";
    Table values;
    values.key = "values";
    values.title = "Values";
    values.columns = {{"name", "quantity", "", -1},
                      {"value_cycles", "value", "cycles", 2},
                      {"exact", "exact", "", -1},
                      {"known", "known", "", -1}};
    values.rows = {{std::string("Mem_L"), 730.0, 730.0, true},
                   {std::string("MWP"), 2.28125, 2.28125, Cell{}},
                   {std::string("a|b, \"c\""), std::int64_t{12}, Cell{}, false}};
    doc.tables.push_back(values);
    Table second;
    second.key = "second";
    second.title = "";
    second.columns = {{"k", "k", "", -1}};
    second.rows = {{std::int64_t{-3}}};
    doc.tables.push_back(second);
    doc.notes = {"first note"};
    return doc;
}

template <class Print> std::string render(Print print, const Document& doc) {
    std::ostringstream out;
    print(out, doc);
    return out.str();
}

} // namespace

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
