// Golden output of the Markdown printer for one document with every kind of cell.
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
