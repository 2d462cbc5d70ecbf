// Reading Nsight Compute's CSV output into counters.
#pragma once

#include "kerncast/runtime/measurement.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast::runtime {

// One profiled kernel launch and its metrics (value converted to the base unit).
struct ProfiledLaunch {
    std::string id;          // ncu's launch ID
    std::string kernel_name; // as ncu printed it
    std::string block_size;  // "(256, 1, 1)" when ncu printed it
    std::string grid_size;
    std::map<std::string, NamedValue> metrics;
};

// Parses `ncu --csv --page raw` output (a header row of column names, a row of units, one row
// per launch) and also the default `--csv --page details` form (one row per metric with
// "Metric Name", "Metric Unit", "Metric Value" columns). Lines before the header (==PROF==
// messages, application output) are skipped. Values may carry thousands separators; unit
// prefixes K, M, G, T (powers of 1000) are folded into the value, so "1.5 Kbyte" becomes 1500
// byte. A value ncu could not collect ("n/a", empty) is left out. Malformed CSV is an input
// Error naming origin and the line.
std::vector<ProfiledLaunch> parse_ncu_csv(const std::string& text, const std::string& origin);

// RFC 4180 fields of one CSV record (quotes, doubled quotes inside quotes; no line breaks
// inside fields, which ncu does not write). Returns false for an unterminated quote.
bool split_csv_record(const std::string& line, std::vector<std::string>& fields);

} // namespace kerncast::runtime
