// How one cell reads in text: shared by the text and Markdown printers (and CSV, which uses
// full precision). Formatting only; no computation on values.
#pragma once

#include "kerncast/report/document.hpp"

#include <string>

namespace kerncast::report {

// Shortest decimal form that reads back to exactly the same double ("0.1", "50728.1875").
std::string shortest_double(double value);

// A double as a person reads it: whole numbers (and anything of 100000 or more) as integers,
// other values to 6 significant digits without trailing zeros, tiny ones in scientific form
// ("1443597824" for 1443597823.9999998, "3971.88", "2.5e-12"). JSON and CSV keep full precision.
std::string readable_double(double value);

// Text of a cell for humans: precision >= 0 gives fixed digits after the point for doubles;
// -1 readable_double. Unknown (monostate) reads "-"; booleans "yes"/"no".
std::string format_cell(const Cell& cell, int precision);

// Text of a cell for machines (CSV): full precision, empty for unknown, true/false.
std::string format_cell_exact(const Cell& cell);

// True for cells that are numbers (right-aligned in tables).
bool is_numeric(const Cell& cell);

// "Mem_L (cycles)" or "MWP" when the column has no unit.
std::string header_with_unit(const Column& column);

} // namespace kerncast::report
