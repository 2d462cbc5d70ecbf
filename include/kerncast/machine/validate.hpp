// Semantic checks of a MachineModel: every value's source resolves, sizes and counts are
// positive, and the values are consistent with each other (docs/machine-format.md lists the
// rules). The loaders call it; code that builds a MachineModel itself can call it too.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <string>

namespace kerncast {

// Throws an input Error naming origin, the JSON path of the offending value and what was
// expected.
void validate_machine(const MachineModel& machine, const std::string& origin);

} // namespace kerncast
