// Internal: validation with a caller-supplied way to turn a JSON path into a SourceLocation
// (the loaders pass one that finds the line and column in the file's text).
#pragma once

#include "kerncast/error.hpp"
#include "kerncast/machine/machine_model.hpp"

#include <functional>
#include <string>

namespace kerncast {

using JsonPathLocator = std::function<SourceLocation(const std::string& json_path)>;

void validate_machine_at(const MachineModel& machine, const JsonPathLocator& locate);

} // namespace kerncast
