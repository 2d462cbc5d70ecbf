// The machine file `kerncast probe -o` writes. The probe measures the memory system (sizes,
// sectors, latencies, bandwidths, MWP-CWP's delays), not what the models also need from a
// machine (the L1's bank layout and associativity, issue rates, capacity curves): a file of
// probed values alone leaves the volume model without an L1 size or line. So where a built-in
// machine describes the same device (identity.device_names, the same compute capability), the
// file extends it ("extends") with every probed value, and the built-in supplies the rest;
// otherwise it is the probed machine alone. (Which models can use it is
// models::method_availability of `machine`; the probe area does not depend on the models.)
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::probe {

struct ProbeMachineFile {
    std::string text;                   // the JSON written, read back and checked
    std::optional<std::string> extends; // the built-in it extends
    MachineModel machine;               // what the text reads back as
    // Probed values the extended built-in cannot take, and why (left out of the file).
    std::vector<std::string> left_out;
};

// `probed` from machine_from_probe; `path` names the file in messages. Input Error when the
// text would not read back as a valid machine file.
ProbeMachineFile probe_machine_file(const MachineModel& probed, const std::string& path);

} // namespace kerncast::probe
