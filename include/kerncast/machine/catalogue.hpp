// The built-in machine catalogue: machines/<id>.json, embedded into the library at build
// time so that it works from any directory.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast {

// The built-in ids in catalogue order.
std::vector<std::string> builtin_machine_ids();

// One built-in machine, parsed and validated. An unknown id throws an input Error that names
// the closest ids.
MachineModel builtin_machine(const std::string& id);

// The id of the built-in machine whose identity lists `device_name` (the CUDA runtime's name of
// a GPU) among its device_names with this compute capability; nullopt when none does.
std::optional<std::string> builtin_for_device(const std::string& device_name, int cc_major,
                                              int cc_minor);

// A built-in id, or the path of a machine file (a built-in id wins over a file of that name).
MachineModel resolve_machine(const std::string& id_or_path);

// The text resolve_machine() parses, and the name its errors give it ("built-in machine 'id'
// (machines/id.json)", or the path): what a command that writes a changed machine edits
// (machine_text_edit.hpp).
struct MachineText {
    std::string text;
    std::string origin;
};
MachineText resolve_machine_text(const std::string& id_or_path);

} // namespace kerncast
