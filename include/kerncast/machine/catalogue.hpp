// The built-in machine catalogue: machines/<id>.json, embedded into the library at build
// time so that it works from any directory.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <string>
#include <vector>

namespace kerncast {

// The built-in ids in catalogue order.
std::vector<std::string> builtin_machine_ids();

// One built-in machine, parsed and validated. An unknown id throws an input Error that names
// the closest ids.
MachineModel builtin_machine(const std::string& id);

// A built-in id, or the path of a machine file (a built-in id wins over a file of that name).
MachineModel resolve_machine(const std::string& id_or_path);

// The ids of `candidates` closest to `wanted` (edit distance, case-insensitive; ids that
// contain `wanted` count as close), best first, at most `limit`.
std::vector<std::string> closest_names(const std::string& wanted,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

} // namespace kerncast
