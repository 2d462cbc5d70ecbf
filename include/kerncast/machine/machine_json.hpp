// The machine-file format ("schema": "kerncast.machine/1", docs/machine-format.md):
// reading it into a MachineModel (with file:line:column and JSON-path errors) and writing a
// MachineModel back losslessly.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace kerncast {

// The schema string every machine file carries.
inline constexpr const char* machine_schema = "kerncast.machine/1";

// Parses and validates one machine file's text. origin names the text in messages (a file
// path, or "built-in machine 'id'"). "extends": "<id>" overlays the text onto a built-in
// machine. Bad input throws an input Error (file:line:column, JSON path, the line with a caret).
MachineModel parse_machine_json(const std::string& text, const std::string& origin);

// Reads the file at path and parses it (errors name the path).
MachineModel load_machine_file(const std::string& path);

// The text of the machine file at path; a file that cannot be read is an input Error naming it.
std::string read_machine_file(const std::string& path);

// The machine in the machine-file format; lossless: parse(dump(to_json(m))) == m.
// Each section names its most common source once ("source") and writes other values as
// {"value": ..., "source": ...}.
nlohmann::json machine_to_json(const MachineModel& machine);

// The same document as text in the layout of machines/*.json: keys in the order
// docs/machine-format.md lists them, short objects on one line. Reads back losslessly.
std::string machine_json_text(const MachineModel& machine);

} // namespace kerncast
