// Golden output of the text printer for one document with every kind of cell.
#include "kerncast/report/printers.hpp"
#include "sample_document.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

using namespace kerncast::report::test;

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

TEST(Printers, WideTablesWrapTheirLongTextCells) {
    // A table of 40 + 2 + 150 characters: the long cell wraps at 60, between "; " items where
    // an item fits a line, else between words; numbers are never wrapped.
    Document doc;
    Table t;
    t.key = "sources";
    t.columns = {{"key", "key", "", -1}, {"citation", "citation", "", -1}, {"n", "n", "", -1}};
    const std::string item = "a source whose citation is thirty-nine";
    t.rows.push_back({std::string(40, 'k'), item + "; " + item + "; " + item, std::int64_t{7}});
    t.rows.push_back({std::string("short"), std::string("one line"), std::int64_t{12}});
    doc.tables.push_back(t);
    const std::string text = render(print_text, doc);
    std::istringstream lines(text);
    std::string line;
    std::size_t longest = 0, count = 0;
    while (std::getline(lines, line)) {
        longest = std::max(longest, line.size());
        ++count;
    }
    EXPECT_LE(longest, 40u + 2 + 60 + 2 + 2); // key, citation wrapped at 60, n
    EXPECT_EQ(count, 2u + 3 + 1) << text;     // header, rule, 3 lines of the first row, 1
    EXPECT_NE(text.find(item + ";  "), std::string::npos) << text; // one item a line
    // The same table narrow enough prints one line a row.
    doc.tables[0].rows[0][1] = std::string("a short citation");
    const std::string narrow = render(print_text, doc);
    EXPECT_EQ(std::count(narrow.begin(), narrow.end(), '\n'), 4);
}
