#include "kerncast/report/cell_format.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <random>

using namespace kerncast::report;

TEST(CellFormat, ShortestDoubleIsExactAndShort) {
    EXPECT_EQ(shortest_double(0.1), "0.1");
    EXPECT_EQ(shortest_double(50728.1875), "50728.1875");
    EXPECT_EQ(shortest_double(1e300), "1e+300");
    EXPECT_EQ(shortest_double(-2.5), "-2.5");
}

TEST(CellFormat, ShortestDoubleRoundTripsRandomValues) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> exponent(-300, 300);
    std::uniform_real_distribution<double> mantissa(-10, 10);
    for (int i = 0; i < 10000; ++i) {
        const double value = mantissa(rng) * std::pow(10.0, exponent(rng));
        EXPECT_EQ(std::strtod(shortest_double(value).c_str(), nullptr), value);
    }
}

TEST(CellFormat, FixedPrecisionAndKinds) {
    EXPECT_EQ(format_cell(Cell{2.28125}, 2), "2.28");
    EXPECT_EQ(format_cell(Cell{2.28125}, -1), "2.28125");
    EXPECT_EQ(format_cell(Cell{-0.001}, 2), "0.00");
    EXPECT_EQ(format_cell(Cell{std::int64_t{50}}, 3), "50");
    EXPECT_EQ(format_cell(Cell{}, 2), "-");
    EXPECT_EQ(format_cell(Cell{true}, -1), "yes");
    EXPECT_EQ(format_cell(Cell{std::string("x")}, 2), "x");
    EXPECT_EQ(format_cell_exact(Cell{}), "");
    EXPECT_EQ(format_cell_exact(Cell{false}), "false");
    EXPECT_EQ(format_cell_exact(Cell{0.1}), "0.1");
}

TEST(CellFormat, HeaderWithUnit) {
    EXPECT_EQ(header_with_unit({"mem_l_cycles", "Mem_L", "cycles", -1}), "Mem_L (cycles)");
    EXPECT_EQ(header_with_unit({"mwp", "MWP", "", 2}), "MWP");
    EXPECT_EQ(header_with_unit({"mwp", "", "", 2}), "mwp");
}
