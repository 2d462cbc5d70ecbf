// CSV (RFC 4180 quoting, LF line ends): header row of column keys, full-precision values. A report
// with several tables writes one block per table, each introduced by a "# <key>" line and separated
// by a blank line (docs/output.md).
#include "kerncast/report/cell_format.hpp"
#include "kerncast/report/printers.hpp"

#include <ostream>

namespace kerncast::report {

static std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char ch : text) {
        if (ch == '"')
            quoted += '"';
        quoted += ch;
    }
    return quoted + "\"";
}

void print_csv(std::ostream& out, const Document& doc) {
    const bool several = doc.tables.size() > 1;
    bool first = true;
    for (const auto& table : doc.tables) {
        if (!first)
            out << "\n";
        first = false;
        if (several)
            out << "# " << table.key << "\n";
        for (size_t c = 0; c < table.columns.size(); ++c)
            out << (c ? "," : "") << csv_field(table.columns[c].key);
        out << "\n";
        for (const auto& row : table.rows) {
            for (size_t c = 0; c < table.columns.size(); ++c)
                out << (c ? "," : "")
                    << csv_field(c < row.size() ? format_cell_exact(row[c]) : std::string());
            out << "\n";
        }
    }
}

} // namespace kerncast::report
