// TableBuilder: how a view writes a report Table as a list of columns and then rows of plain
// values. Values become typed cells by one rule (make_cell): integers -> int64, floating ->
// double, text -> string, std::optional -> its value or blank. Optional columns are declared
// once with a condition; rows always name every value and the builder drops the cells of
// columns that are left out, so a view never branches per row on which columns exist.
//
//   TableBuilder t("limiters", "Limiters (sec. 2)");
//   t.columns({"limiter", {"per_point", "per point", "", 3}, "unit"});
//   t.row(limiter_name(l), amount, "B");
//   doc.tables.push_back(t.build());
#pragma once

#include "kerncast/report/document.hpp"

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kerncast::report {

// A cell with no value: not applicable or unknown ("-" in text, null in JSON, empty in CSV).
inline constexpr std::monostate blank{};

inline Cell make_cell(const Cell& cell) {
    return cell;
}
inline Cell make_cell(std::monostate) {
    return Cell{};
}
inline Cell make_cell(bool value) {
    return value;
}
template <std::integral Integer>
requires(!std::same_as<Integer, bool>) Cell make_cell(Integer value) {
    return static_cast<std::int64_t>(value);
}
template <std::floating_point Floating> Cell make_cell(Floating value) {
    return static_cast<double>(value);
}
inline Cell make_cell(std::string value) {
    return value;
}
inline Cell make_cell(const char* value) {
    return std::string(value);
}
inline Cell make_cell(std::string_view value) {
    return std::string(value);
}
// Unknown -> blank.
template <class T> Cell make_cell(const std::optional<T>& value) {
    return value ? make_cell(*value) : Cell{};
}
// The value when it is known, else blank: for fields that mark "none" with a sentinel
// (cell_if(p_value >= 0, p_value)) or an empty string.
template <class T> Cell cell_if(bool known, const T& value) {
    return known ? make_cell(value) : Cell{};
}
// A member of a struct that may be absent, blank when it is:
// make_cell(provenance.uncertainty, &Uncertainty::repetitions).
template <class T, class Member> Cell make_cell(const std::optional<T>& value, Member T::*member) {
    return value ? make_cell((*value).*member) : Cell{};
}

// One column: `{"count"}` (header = key, no unit, shortest number form) or
// `{"median_us", "median", "us", 3}` (key, header, unit, digits after the point).
struct ColumnSpec {
    ColumnSpec(const char* key) : column{key, key, "", -1} {}
    ColumnSpec(std::string key) : column{key, key, "", -1} {}
    ColumnSpec(std::string key, std::string header, std::string unit = "", int precision = -1)
        : column{std::move(key), std::move(header), std::move(unit), precision} {}
    Column column;
};

class TableBuilder {
public:
    TableBuilder(std::string key, std::string title);

    // Columns in order; the `_if` forms declare columns that the table shows only when
    // `include` is true (rows still give their values, which are then dropped).
    TableBuilder& column(ColumnSpec spec);
    TableBuilder& columns(std::initializer_list<ColumnSpec> specs);
    TableBuilder& column_if(bool include, ColumnSpec spec);
    TableBuilder& columns_if(bool include, std::initializer_list<ColumnSpec> specs);
    // Columns that share one unit and precision, given once: columns_in_unit("B", 2,
    // {{"l2_load", "L2->L1"}, ...}); the group's unit and precision replace the specs' own.
    TableBuilder& columns_in_unit(const std::string& unit, int precision,
                                  std::initializer_list<ColumnSpec> specs);

    // One row: one value per declared column (shown or not), each through make_cell; a
    // std::vector<Cell> argument stands for that many adjacent columns. A row of the wrong
    // width is an internal error (KERNCAST_CHECK), not a silently shifted table.
    template <class... Values> TableBuilder& row(const Values&... values) {
        std::vector<Cell> cells;
        cells.reserve(included_.size());
        (append(cells, values), ...);
        return row_cells(std::move(cells));
    }
    TableBuilder& row_cells(std::vector<Cell> cells);

    // Declared columns, shown or not (the width every row must have).
    std::size_t declared_columns() const { return included_.size(); }
    bool has_rows() const { return !table_.rows.empty(); }

    // The finished table; the builder is left empty.
    Table build();

private:
    template <class Value> static void append(std::vector<Cell>& cells, const Value& value) {
        cells.push_back(make_cell(value));
    }
    static void append(std::vector<Cell>& cells, const std::vector<Cell>& group) {
        cells.insert(cells.end(), group.begin(), group.end());
    }

    Table table_;
    std::vector<bool> included_; // one flag per declared column
};

} // namespace kerncast::report
