// TableBuilder: typed cells by one rule, columns with defaults, optional columns whose cells
// are dropped, grouped cells, and loud failures for rows of the wrong width.
#include "kerncast/error.hpp"
#include "kerncast/report/printers.hpp"
#include "kerncast/report/table_builder.hpp"

#include <gtest/gtest.h>
#include <sstream>

using namespace kerncast::report;

TEST(MakeCell, IntegersBecomeInt64) {
    EXPECT_EQ(make_cell(7), Cell{std::int64_t{7}});
    EXPECT_EQ(make_cell(std::size_t{12}), Cell{std::int64_t{12}});
    EXPECT_EQ(make_cell(std::int64_t{-5'000'000'000}), Cell{std::int64_t{-5'000'000'000}});
    EXPECT_TRUE(std::holds_alternative<std::int64_t>(make_cell(short{3})));
}

TEST(MakeCell, FloatingBecomesDoubleAndBoolStaysBool) {
    EXPECT_EQ(make_cell(2.5f), Cell{2.5});
    EXPECT_EQ(make_cell(0.1), Cell{0.1});
    EXPECT_EQ(make_cell(true), Cell{true});
    EXPECT_TRUE(std::holds_alternative<bool>(make_cell(false)));
}

TEST(MakeCell, TextBecomesString) {
    EXPECT_EQ(make_cell("GB/s"), Cell{std::string("GB/s")});
    EXPECT_EQ(make_cell(std::string("x")), Cell{std::string("x")});
    EXPECT_EQ(make_cell(std::string_view("yz")), Cell{std::string("yz")});
}

TEST(MakeCell, OptionalIsItsValueOrBlank) {
    EXPECT_EQ(make_cell(std::optional<int>{}), Cell{});
    EXPECT_EQ(make_cell(std::optional<int>{4}), Cell{std::int64_t{4}});
    EXPECT_EQ(make_cell(std::optional<double>{1.5}), Cell{1.5});
    EXPECT_EQ(make_cell(blank), Cell{});
    EXPECT_EQ(make_cell(Cell{std::string("kept")}), Cell{std::string("kept")});
}

TEST(ColumnSpec, OneNameIsKeyAndHeader) {
    EXPECT_EQ(ColumnSpec("count").column, (Column{"count", "count", "", -1}));
    EXPECT_EQ(ColumnSpec("stride_tx", "ls x", "elements").column,
              (Column{"stride_tx", "ls x", "elements", -1}));
    EXPECT_EQ(ColumnSpec("median_us", "median", "us", 3).column,
              (Column{"median_us", "median", "us", 3}));
}

TEST(TableBuilder, BuildsTheSameTableAsWrittenByHand) {
    TableBuilder builder("limiters", "Limiters");
    builder.columns({"limiter", {"per_point", "per point", "", 3}, "unit"})
        .column({"binding", "binds"});
    builder.row("dram", 4.25, "B", true).row("l1", std::optional<double>{}, "cycles", false);

    const Table expected{"limiters",
                         "Limiters",
                         {{"limiter", "limiter", "", -1},
                          {"per_point", "per point", "", 3},
                          {"unit", "unit", "", -1},
                          {"binding", "binds", "", -1}},
                         {{std::string("dram"), 4.25, std::string("B"), true},
                          {std::string("l1"), Cell{}, std::string("cycles"), false}}};
    EXPECT_EQ(builder.build(), expected);
}

TEST(TableBuilder, LeftOutColumnsDropTheirCells) {
    for (bool with_owner : {false, true}) {
        TableBuilder builder("compute", "");
        builder.column_if(with_owner, "level").columns({"quantity", "value"});
        builder.columns_if(!with_owner, {{"spread", "spread", "", 2}, "reps"});
        EXPECT_EQ(builder.declared_columns(), 5u);
        builder.row("l2", "size_bytes", 1024, 0.5, 7);
        const Table table = builder.build();
        if (with_owner) {
            ASSERT_EQ(table.columns.size(), 3u);
            EXPECT_EQ(table.columns[0].key, "level");
            EXPECT_EQ(table.rows[0],
                      (std::vector<Cell>{std::string("l2"), std::string("size_bytes"),
                                         std::int64_t{1024}}));
        } else {
            ASSERT_EQ(table.columns.size(), 4u);
            EXPECT_EQ(table.columns[2].key, "spread");
            EXPECT_EQ(table.columns[2].precision, 2);
            EXPECT_EQ(table.rows[0], (std::vector<Cell>{std::string("size_bytes"),
                                                        std::int64_t{1024}, 0.5, std::int64_t{7}}));
        }
    }
}

TEST(TableBuilder, VectorOfCellsFillsAdjacentColumns) {
    TableBuilder builder("footprints", "");
    builder.columns({"access", "warp_32", "warp_128", "block"});
    const std::vector<Cell> granules{std::int64_t{4}, std::int64_t{1}};
    builder.row("a[x]", granules, 9.0);
    EXPECT_EQ(builder.build().rows.at(0),
              (std::vector<Cell>{std::string("a[x]"), std::int64_t{4}, std::int64_t{1}, 9.0}));
}

TEST(TableBuilder, RowOfWrongWidthIsAnInternalError) {
    TableBuilder builder("short", "");
    builder.columns({"a", "b"});
    try {
        builder.row(1);
        FAIL() << "a one-value row in a two-column table was accepted";
    } catch (const kerncast::Error& e) {
        EXPECT_EQ(e.kind(), kerncast::ErrorKind::internal);
        EXPECT_NE(std::string(e.what()).find("table 'short': a row has 1 values for 2 columns"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(builder.row(1, 2, 3), kerncast::Error);
    EXPECT_FALSE(builder.has_rows());
}

TEST(TableBuilder, ColumnsComeBeforeRows) {
    TableBuilder builder("late", "");
    builder.column("a").row(1);
    EXPECT_TRUE(builder.has_rows());
    EXPECT_THROW(builder.column("b"), kerncast::Error);
}

TEST(TableBuilder, BuildHandsOverTheTableAndEmptiesTheBuilder) {
    TableBuilder builder("once", "Once");
    builder.column("n").row(1).row(2);
    const Table table = builder.build();
    EXPECT_EQ(table.rows.size(), 2u);
    EXPECT_FALSE(builder.has_rows());
    EXPECT_EQ(builder.declared_columns(), 0u);
    EXPECT_EQ(builder.build(), Table{});
}

TEST(TableBuilder, PrintsLikeAHandWrittenTable) {
    TableBuilder builder("values", "Values");
    builder.columns({{"name", "quantity"}, {"value_cycles", "value", "cycles", 2}, "known"});
    builder.row("Mem_L", 730.0, true).row("MWP", 2.28125, blank);
    Document doc;
    doc.tables.push_back(builder.build());
    std::ostringstream text;
    print_text(text, doc);
    EXPECT_EQ(text.str(), "Values\n"
                          "quantity  value (cycles)  known\n"
                          "--------  --------------  -----\n"
                          "Mem_L             730.00  yes\n"
                          "MWP                 2.28  -\n");
}

TEST(MakeCell, SentinelAndAbsentStructGiveBlank) {
    EXPECT_EQ(cell_if(false, 0.5), Cell{});
    EXPECT_EQ(cell_if(true, 3), Cell{std::int64_t{3}});
    struct Spread {
        double relative = 0;
        int repetitions = 0;
    };
    const std::optional<Spread> absent;
    const std::optional<Spread> present = Spread{0.25, 9};
    EXPECT_EQ(make_cell(absent, &Spread::repetitions), Cell{});
    EXPECT_EQ(make_cell(present, &Spread::relative), Cell{0.25});
    EXPECT_EQ(make_cell(present, &Spread::repetitions), Cell{std::int64_t{9}});
}

TEST(TableBuilder, ColumnsInUnitShareUnitAndPrecision) {
    TableBuilder builder("volumes", "");
    builder.column("array").columns_in_unit("B", 2, {{"l2_load", "L2->L1"}, "dram_load"});
    builder.columns_in_unit("MHz", 0, {{"clock", "clock", "GHz", 3}});
    const Table table = builder.build();
    ASSERT_EQ(table.columns.size(), 4u);
    EXPECT_EQ(table.columns[0], (Column{"array", "array", "", -1}));
    EXPECT_EQ(table.columns[1], (Column{"l2_load", "L2->L1", "B", 2}));
    EXPECT_EQ(table.columns[2], (Column{"dram_load", "dram_load", "B", 2}));
    EXPECT_EQ(table.columns[3], (Column{"clock", "clock", "MHz", 0}));
}
