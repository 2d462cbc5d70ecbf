// Which of kerncast's models a machine lets run, and for each that cannot, what the machine
// lacks: each model's own check of the values it reads, so the answer never drifts from what
// the model would say. `kerncast probe -o` reports it for the file it writes.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/report/document.hpp"

#include <string>
#include <vector>

namespace kerncast::models {

struct MethodAvailability {
    std::string key;     // "volumes", "mwp", "mwp_cache_aware", "atomics": a column key
    std::string method;  // "volume model (predict, explore)", ...
    std::string missing; // "" when the model can run; else its message naming what is missing
};

// The volume model (check_volume_machine), MWP-CWP (mwp_cwp_machine_parameters), its
// cache-aware variant (both) and the shared-memory atomics model (a service-time table), in
// that order. Calibrated cost models are left out: they take their parameters from a
// calibration, not from the machine's measured values.
std::vector<MethodAvailability> method_availability(const MachineModel& machine);

// The calibrated cost models (Stevens & Klöckner) the machine carries parameters of: the
// distinct MODEL of its calibrated_costs keys "MODEL.PARAMETER", sorted.
std::vector<std::string> calibrated_models(const MachineModel& machine);

// `kerncast machines`: a table "methods" (a row per machine, a column per method: "yes" or
// "no", and the calibrated cost models it carries, or "none") and, per machine that cannot run
// a method, a note with what it lacks (methods that lack the same value share the note; the
// machines without calibrated costs share one).
void add_method_table(report::Document& document, const std::vector<MachineModel>& machines);

} // namespace kerncast::models
