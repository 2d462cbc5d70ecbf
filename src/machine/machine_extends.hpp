// Private to src/machine: "extends", a machine file written as changes to a built-in machine
// (docs/machine-format.md).
#pragma once

#include "machine_read.hpp"

#include <map>
#include <string>

namespace kerncast::machine_format {

// Deep merge of `overlay` onto `base` at JSON pointer `path`: objects merge key by key; the
// arrays of memory levels, TLBs (by "name") and issue rates (by "op" and "dtype") merge element
// by element; anything else, a {"value", "source"} pair, a source's uncertainty, fit or
// calibration and the atomic table are replaced whole. `path_map` records, for each merged
// array element, the path it had in the overlay ("" when it is inherited from the base).
void merge_into(json& base, const json& overlay, const std::string& path,
                std::map<std::string, std::string>& path_map);

// Reads `document`, which has "extends": the built-in machine it names with the document
// merged onto it, validated; errors name the file's positions, and a value inherited from the
// built-in says so. At most 8 built-ins deep.
MachineModel read_extended_machine(Reader& reader, const json& document);

} // namespace kerncast::machine_format
