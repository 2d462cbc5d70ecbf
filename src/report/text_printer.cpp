// Aligned plain-text tables for terminals: numbers right-aligned, text left-aligned.
#include "kerncast/report/cell_format.hpp"
#include "kerncast/report/printers.hpp"

#include <algorithm>
#include <ostream>

namespace kerncast::report {

static void print_table(std::ostream& out, const Table& table) {
    const size_t n = table.columns.size();
    std::vector<std::string> headers(n);
    std::vector<size_t> widths(n);
    std::vector<bool> right_aligned(n, false);
    for (size_t c = 0; c < n; ++c) {
        headers[c] = header_with_unit(table.columns[c]);
        widths[c] = headers[c].size();
    }
    std::vector<std::vector<std::string>> texts;
    texts.reserve(table.rows.size());
    for (const auto& row : table.rows) {
        std::vector<std::string> line(n);
        for (size_t c = 0; c < n && c < row.size(); ++c) {
            line[c] = format_cell(row[c], table.columns[c].precision);
            widths[c] = std::max(widths[c], line[c].size());
            if (is_numeric(row[c]))
                right_aligned[c] = true;
        }
        texts.push_back(std::move(line));
    }

    auto emit_line = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (size_t c = 0; c < n; ++c) {
            if (c > 0)
                line += "  ";
            const std::string pad(widths[c] - cells[c].size(), ' ');
            line += right_aligned[c] ? pad + cells[c] : cells[c] + pad;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    };

    if (!table.title.empty())
        out << table.title << "\n";
    emit_line(headers);
    std::vector<std::string> rules(n);
    for (size_t c = 0; c < n; ++c)
        rules[c] = std::string(widths[c], '-');
    emit_line(rules);
    for (const auto& line : texts)
        emit_line(line);
}

void print_text(std::ostream& out, const Document& doc) {
    bool first = true;
    if (!doc.title.empty()) {
        out << doc.title << "\n" << std::string(doc.title.size(), '=') << "\n";
        first = false;
    }
    for (const auto& table : doc.tables) {
        if (!first)
            out << "\n";
        first = false;
        print_table(out, table);
    }
    if (!doc.notes.empty()) {
        out << "\n";
        for (const auto& note : doc.notes)
            out << "note: " << note << "\n";
    }
}

} // namespace kerncast::report
