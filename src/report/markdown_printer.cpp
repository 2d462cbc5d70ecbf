// GitHub-flavoured Markdown: a heading per document and table, pipe tables, notes as a list.
#include "kerncast/report/cell_format.hpp"
#include "kerncast/report/printers.hpp"

#include <ostream>

namespace kerncast::report {

// Pipes and line breaks would break a Markdown table cell.
static std::string escape_markdown(const std::string& text) {
    std::string escaped;
    for (char ch : text) {
        if (ch == '|')
            escaped += "\\|";
        else if (ch == '\n')
            escaped += "<br>";
        else
            escaped += ch;
    }
    return escaped;
}

void print_markdown(std::ostream& out, const Document& doc) {
    if (!doc.title.empty())
        out << "# " << escape_markdown(doc.title) << "\n\n";
    for (const auto& table : doc.tables) {
        if (!table.title.empty())
            out << "## " << escape_markdown(table.title) << "\n\n";
        const size_t n = table.columns.size();
        std::vector<bool> numeric(n, false);
        for (const auto& row : table.rows)
            for (size_t c = 0; c < n && c < row.size(); ++c)
                numeric[c] = numeric[c] || is_numeric(row[c]);
        out << "|";
        for (const auto& column : table.columns)
            out << " " << escape_markdown(header_with_unit(column)) << " |";
        out << "\n|";
        for (size_t c = 0; c < n; ++c)
            out << (numeric[c] ? " ---: |" : " --- |");
        out << "\n";
        for (const auto& row : table.rows) {
            out << "|";
            for (size_t c = 0; c < n; ++c) {
                const std::string text =
                    c < row.size() ? format_cell(row[c], table.columns[c].precision) : "";
                out << " " << escape_markdown(text) << " |";
            }
            out << "\n";
        }
        out << "\n";
    }
    for (const auto& note : doc.notes)
        out << "- " << escape_markdown(note) << "\n";
}

} // namespace kerncast::report
