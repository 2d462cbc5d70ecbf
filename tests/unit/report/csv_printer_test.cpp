// Golden output of the CSV printer for one document with every kind of cell.
#include "kerncast/report/printers.hpp"
#include "sample_document.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

using namespace kerncast::report::test;

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
