// Golden output of the Markdown printer for one document with every kind of cell.
#include "kerncast/report/printers.hpp"
#include "sample_document.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

using namespace kerncast::report;

using namespace kerncast::report::test;

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
