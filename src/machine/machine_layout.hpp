// Private to src/machine: the text layout of machine files.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kerncast::machine_format {

// Machine-file text as people write it: keys in the order of `document` (the documented
// order), two-space indents, and objects or arrays of plain values (or of {"value", "source"}
// pairs) on one line when they fit in 100 columns. No final newline.
std::string layout_machine_text(const nlohmann::ordered_json& document);

} // namespace kerncast::machine_format
