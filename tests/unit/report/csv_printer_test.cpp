// Golden output of the CSV printer for one document with every kind of cell.
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
