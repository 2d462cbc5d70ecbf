// Writing a machine that a command derived from a machine file as an edit of that file's text.
//
// fit-volumes -o (capacity fits), calibrate -o (calibrated costs) and atomics --replay -m -o
// (the atomic service table) each change a few members of a machine and its sources. Written with
// machine_json_text() the whole file would change: sizes spelled "96 KiB" become 98304, 1380
// becomes 1380.0, sources are sorted and section defaults move, so the diff of a refit hides
// the refit. edit_machine_text() instead replaces, adds or removes only the members of
// /sources, /capacity_fits, /calibrated_costs and /atomic_service_times that differ, each in
// the layout machine_json_text() gives it, and keeps every other byte of the original.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <string>

namespace kerncast {

struct MachineTextEdit {
    std::string text;         // the machine file to write; checked to read back as `updated`
    bool kept_layout = false; // an edit of the original text; false: machine_json_text()
    std::string reason;       // why the original's layout could not be kept (when false)
};

// `original_text` is the machine file (`origin` names it) that `updated` was derived from.
// When `updated` differs from it beyond the four sections above, when a member that changed is
// not in the text itself (it comes from the built-in an "extends" file extends), or when the
// edited text would not read back as `updated`, the result is machine_json_text(updated) with
// the reason. A malformed original is an input Error.
MachineTextEdit edit_machine_text(const std::string& original_text, const std::string& origin,
                                  const MachineModel& updated);

} // namespace kerncast
