// Aligned plain-text tables for terminals: numbers right-aligned, text left-aligned.
#include "kerncast/report/cell_format.hpp"
#include "kerncast/report/printers.hpp"

#include <algorithm>
#include <ostream>

namespace kerncast::report {

// Text cells wider than this are wrapped onto continuation lines, so that a table of sources,
// notes or explanations fits a terminal: at "; " between the items of a list where an item
// fits a line, else at spaces (a single word longer than a line stays whole).
static constexpr size_t max_text_cell_width = 60;

static void append_words(std::vector<std::string>& lines, const std::string& text) {
    size_t at = 0;
    while (at < text.size()) {
        const size_t space = text.find(' ', at);
        const size_t end = space == std::string::npos ? text.size() : space;
        const std::string word = text.substr(at, end - at);
        if (!lines.back().empty() && lines.back().size() + 1 + word.size() > max_text_cell_width)
            lines.emplace_back();
        lines.back() += (lines.back().empty() ? "" : " ") + word;
        at = end + 1;
    }
}

static std::vector<std::string> wrap_words(const std::string& text) {
    if (text.size() <= max_text_cell_width)
        return {text};
    std::vector<std::string> lines{""};
    size_t at = 0;
    while (at < text.size()) {
        const size_t semicolon = text.find("; ", at);
        const size_t end = semicolon == std::string::npos ? text.size() : semicolon + 1;
        const std::string item = text.substr(at, end - at); // with its ';'
        const size_t joined = lines.back().size() + (lines.back().empty() ? 0 : 1) + item.size();
        if (joined <= max_text_cell_width)
            lines.back() += (lines.back().empty() ? "" : " ") + item;
        else if (item.size() <= max_text_cell_width)
            lines.push_back(item);
        else
            append_words(lines, item);
        at = end + (semicolon == std::string::npos ? 0 : 1);
    }
    return lines;
}

// Tables up to this wide print one line a row; wider ones wrap their long text cells.
static constexpr size_t max_unwrapped_table_width = 160;

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
    size_t total = 2 * (n > 0 ? n - 1 : 0);
    for (size_t w : widths)
        total += w;
    const bool wrap = total > max_unwrapped_table_width;

    // Each row as one or more physical lines (wrapped text cells of a wide table).
    std::vector<std::vector<std::string>> lines;
    lines.reserve(texts.size());
    if (wrap)
        for (size_t c = 0; c < n; ++c)
            widths[c] = headers[c].size();
    for (const auto& text : texts) {
        if (!wrap) {
            lines.push_back(text);
            continue;
        }
        std::vector<std::vector<std::string>> cells(n);
        size_t height = 1;
        for (size_t c = 0; c < n; ++c) {
            cells[c] = right_aligned[c] ? std::vector<std::string>{text[c]} : wrap_words(text[c]);
            for (const std::string& part : cells[c])
                widths[c] = std::max(widths[c], part.size());
            height = std::max(height, cells[c].size());
        }
        for (size_t k = 0; k < height; ++k) {
            std::vector<std::string> line(n);
            for (size_t c = 0; c < n; ++c)
                line[c] = k < cells[c].size() ? cells[c][k] : std::string();
            lines.push_back(std::move(line));
        }
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
    for (const auto& line : lines)
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
