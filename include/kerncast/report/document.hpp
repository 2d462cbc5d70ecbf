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

struct Document {
    std::string schema; // "kerncast.<what>/<version>", e.g. "kerncast.mwp/1"
    std::string title;
    std::vector<Table> tables;
    std::vector<std::string> notes; // free-text remarks printed after the tables
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
