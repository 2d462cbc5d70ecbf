// A report Document: what every reporting command produces from a model's plain result
// struct (a "view" builds it), and what every printer serialises. Printers never compute.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kerncast::report {

// One table cell. monostate = not applicable / unknown (printed "-" / null / empty).
using Cell = std::variant<std::monostate, bool, std::int64_t, double, std::string>;

struct Column {
    std::string key;    // machine-readable name, used as JSON key and CSV header: "mem_l_cycles"
    std::string header; // human header: "Mem_L"
    std::string unit;   // "cycles", "GB/s", "B", "" for dimensionless
    int precision = -1; // digits after the point in text/markdown; -1 = shortest exact form
    // JSON and CSV always carry full precision (round-trip exact).
    bool operator==(const Column&) const = default;
};

struct Table {
    std::string key;   // machine-readable name: "intermediates"
    std::string title; // human title: "MWP-CWP intermediates (Hong & Kim 2009, Table 2)"
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows; // each row has columns.size() cells
    bool operator==(const Table&) const = default;
};

// A chart of a report (docs/output.md#html-reports): drawn only by the HTML printer; the text,
// Markdown, JSON and CSV printers carry the same numbers in the tables. A view fills it from
// the same result struct as its tables.
enum class ChartKind {
    scatter,     // points (x, y); a series per colour
    bar,         // one bar per category and series, side by side
    stacked_bar, // one bar per category, the series stacked
};

struct ChartAxis {
    std::string label;        // "measured L2->L1 load"
    std::string unit;         // "B/pt"; "" for dimensionless
    bool logarithmic = false; // log10 scale (positive values only)
    bool operator==(const ChartAxis&) const = default;
};

struct ChartSeries {
    std::string name;      // legend entry: a block shape, a limiter, a level
    std::vector<double> x; // scatter: x of each point; bar charts: unused
    std::vector<double> y; // scatter: y of each point; bar charts: one value per category
    std::vector<std::string> point_labels; // optional tooltip per point ("block=32x8x1 fold=...")
    std::string stack; // stacked_bar: series with the same stack share a bar ("" = one stack)
    // scatter: points to find at a glance (the predicted best, the measured best), drawn as
    // large outlined stars over the other series and named in the legend.
    bool highlight = false;
    bool operator==(const ChartSeries&) const = default;
};

struct Chart {
    std::string key;   // machine-readable name, unique in the document: "throughput"
    std::string title; // "Predicted throughput per configuration, coloured by block shape"
    ChartKind kind = ChartKind::scatter;
    ChartAxis x_axis, y_axis;
    std::vector<std::string> categories; // bar charts: the label of each bar (group)
    std::vector<ChartSeries> series;
    bool diagonal = false;         // scatter: draw the reference line y = x
    std::vector<double> x_markers; // scatter: vertical reference lines at these x (change points)
    bool operator==(const Chart&) const = default;

    // The series of this name, added (empty) at the end when there is none: views that colour
    // points by a category (block shape, kernel, limiter) add each point to its category.
    ChartSeries& series_named(const std::string& name) {
        for (auto& s : series)
            if (s.name == name)
                return s;
        series.emplace_back().name = name;
        return series.back();
    }
};

struct Document {
    std::string schema; // "kerncast.<what>/<version>", e.g. "kerncast.mwp/1"
    std::string title;
    std::vector<Table> tables;
    std::vector<std::string> notes; // free-text remarks printed after the tables
    std::vector<Chart> charts;      // drawn by print_html only
    bool operator==(const Document&) const = default;

    // The table with this key, or nullptr.
    const Table* find_table(std::string_view table_key) const {
        for (const auto& table : tables)
            if (table.key == table_key)
                return &table;
        return nullptr;
    }
    // The table with this key; std::out_of_range when there is none.
    const Table& table_at(std::string_view table_key) const {
        if (const Table* table = find_table(table_key))
            return *table;
        throw std::out_of_range("report has no table '" + std::string(table_key) + "'");
    }
};

} // namespace kerncast::report
