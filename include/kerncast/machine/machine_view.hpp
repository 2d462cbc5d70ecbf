// Report views of machine models: the catalogue listing and one machine with every known
// value and its source.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/report/document.hpp"

#include <vector>

namespace kerncast {

// schema "kerncast.machines/1": id, name, CC, SMs, L2 size, DRAM bandwidth (peak, sustained).
report::Document machines_view(const std::vector<MachineModel>& machines);

// schema "kerncast.machine-report/1": identity, compute, memory levels, special memories,
// model parameters and the sources they cite.
report::Document machine_view(const MachineModel& machine);

} // namespace kerncast
