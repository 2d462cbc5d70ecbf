// Golden outputs of every printer for one document with every kind of cell.
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

TEST(Printers, Text) {
    EXPECT_EQ(render(print_text, sample_document()), "Sample\n"
                                                     "======\n"
                                                     "\n"
                                                     "Values\n"
                                                     "quantity  value (cycles)    exact  known\n"
                                                     "--------  --------------  -------  -----\n"
                                                     "Mem_L             730.00      730  yes\n"
                                                     "MWP                 2.28  2.28125  -\n"
                                                     "a|b, \"c\"              12        -  no\n"
                                                     "\n"
                                                     " k\n"
                                                     "--\n"
                                                     "-3\n"
                                                     "\n"
                                                     "note: first note\n");
}

TEST(Printers, Markdown) {
    EXPECT_EQ(render(print_markdown, sample_document()),
              "# Sample\n\n"
              "## Values\n\n"
              "| quantity | value (cycles) | exact | known |\n"
              "| --- | ---: | ---: | --- |\n"
              "| Mem_L | 730.00 | 730 | yes |\n"
              "| MWP | 2.28 | 2.28125 | - |\n"
              "| a\\|b, \"c\" | 12 | - | no |\n\n"
              "| k |\n"
              "| ---: |\n"
              "| -3 |\n\n"
              "- first note\n");
}

TEST(Printers, Csv) {
    EXPECT_EQ(render(print_csv, sample_document()), "# values\n"
                                                    "name,value_cycles,exact,known\n"
                                                    "Mem_L,730,730,true\n"
                                                    "MWP,2.28125,2.28125,\n"
                                                    "\"a|b, \"\"c\"\"\",12,,false\n"
                                                    "\n"
                                                    "# second\n"
                                                    "k\n"
                                                    "-3\n");
}

TEST(Printers, CsvSingleTableHasNoBlockHeader) {
    Document doc = sample_document();
    doc.tables.pop_back();
    EXPECT_EQ(render(print_csv, doc).rfind("name,value_cycles", 0), 0u);
}

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

TEST(Document, FindsTablesByKey) {
    Document doc;
    doc.tables.push_back({"first", "First", {}, {}});
    doc.tables.push_back({"second", "Second", {}, {}});
    ASSERT_NE(doc.find_table("second"), nullptr);
    EXPECT_EQ(doc.find_table("second")->title, "Second");
    EXPECT_EQ(doc.find_table("third"), nullptr);
    EXPECT_EQ(&doc.table_at("first"), &doc.tables[0]);
    EXPECT_THROW(doc.table_at("third"), std::out_of_range);
}
