// Printers serialise a Document; they compute nothing.
#pragma once

#include "kerncast/report/document.hpp"

#include <iosfwd>

namespace kerncast::report {

void print_text(std::ostream& out, const Document& doc);     // aligned tables for terminals
void print_markdown(std::ostream& out, const Document& doc); // GitHub-flavoured tables
void print_json(std::ostream& out, const Document& doc);     // {"schema": ..., "tables": ...}
void print_csv(std::ostream& out, const Document& doc);      // RFC 4180 quoting; see docs/output.md
// One self-contained HTML page (no network): the title, every table, the notes and every chart,
// drawn by Chart.js (Debian's libjs-chart.js, embedded at build time); docs/output.md.
void print_html(std::ostream& out, const Document& doc);

} // namespace kerncast::report
