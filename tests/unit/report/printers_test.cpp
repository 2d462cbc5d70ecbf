// The report document: tables found by key. (Each printer has its own <name>_printer_test.)
#include "kerncast/report/printers.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

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
