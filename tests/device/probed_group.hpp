// The device probe tests' common start: one probe group measured on the GPU, analysed, and
// the machine file the probe makes of it.
#pragma once

#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/runner.hpp"

#include <string>

namespace kerncast::probe::testing {

struct ProbedGroup {
    ProbeAnalysis analysis;
    MachineModel machine;
};

inline ProbedGroup probe_group_on_device(const std::string& group) {
    ProbeOptions options;
    options.groups = {group};
    options.command = "device_tests";
    ProbedGroup probed{analyse_probe_record(run_probe(options)), {}};
    probed.machine = machine_from_probe(probed.analysis, "device_tests");
    return probed;
}

} // namespace kerncast::probe::testing
