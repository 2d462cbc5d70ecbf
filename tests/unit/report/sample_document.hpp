// The document every printer test renders: two tables with every kind of cell (text, float
// with precision, integer, bool, empty, quotes and separators in text) and a note.
#pragma once

#include "kerncast/report/document.hpp"

#include <cstdint>
#include <sstream>
#include <string>

namespace kerncast::report::test {

inline Document sample_document() {
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

} // namespace kerncast::report::test
