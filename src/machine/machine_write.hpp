// Private to src/machine: machine documents for the "extends" merge.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <nlohmann/json.hpp>

namespace kerncast::machine_format {

// Every value as {"value", "source"} and no section defaults: the form an "extends" overlay is
// merged onto, so that a default in the overlay never re-attributes a value of the base machine.
nlohmann::json explicit_machine_json(const MachineModel& machine);

} // namespace kerncast::machine_format
