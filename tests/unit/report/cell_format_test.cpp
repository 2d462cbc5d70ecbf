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

TEST(CellFormat, ReadableDoublesForPeople) {
    // The values issue 47 found in text tables, as a person reads them.
    EXPECT_EQ(readable_double(1443597823.9999998), "1443597824");
    EXPECT_EQ(readable_double(3971.878787878788), "3971.88");
    EXPECT_EQ(readable_double(13.200000000000001), "13.2");
    EXPECT_EQ(readable_double(0.5000000000000001), "0.5");
    EXPECT_EQ(readable_double(1893257964.0570111), "1893257964"); // 100000 and more: integers
    EXPECT_EQ(readable_double(1e5), "100000");
    EXPECT_EQ(readable_double(50728.1875), "50728.2");
    EXPECT_EQ(readable_double(2.5e-12), "2.5e-12");
    EXPECT_EQ(readable_double(0.000123456789), "0.000123457");
    EXPECT_EQ(readable_double(-0.0), "0");
    EXPECT_EQ(readable_double(-3.25), "-3.25");
    EXPECT_EQ(readable_double(1e300), "1e+300"); // beyond integers: scientific
    EXPECT_EQ(readable_double(std::nan("")), "nan");
    // Text cells without a precision read so; CSV (format_cell_exact) stays exact.
    EXPECT_EQ(format_cell(Cell{3971.878787878788}, -1), "3971.88");
    EXPECT_EQ(format_cell_exact(Cell{3971.878787878788}), "3971.878787878788");
}

TEST(CellFormat, HeaderWithUnit) {
    EXPECT_EQ(header_with_unit({"mem_l_cycles", "Mem_L", "cycles", -1}), "Mem_L (cycles)");
    EXPECT_EQ(header_with_unit({"mwp", "MWP", "", 2}), "MWP");
    EXPECT_EQ(header_with_unit({"mwp", "", "", 2}), "mwp");
}
