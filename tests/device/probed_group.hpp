// The device probe tests' common start: one probe group measured on the GPU, analysed, and
// the machine file the probe makes of it.
#pragma once

#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/runner.hpp"

#include <map>
#include <string>
#include <utility>

namespace kerncast::probe::testing {

struct ProbedGroup {
    ProbeAnalysis analysis;
    MachineModel machine;
};

// Measured once a process and group: tests run in one process (device_tests by hand, not
// under ctest, which runs each test alone) share the run.
inline const ProbedGroup& probe_group_on_device(const std::string& group) {
    static std::map<std::string, ProbedGroup> runs;
    if (const auto found = runs.find(group); found != runs.end())
        return found->second;
    ProbeOptions options;
    options.groups = {group};
    options.command = "device_tests";
    ProbedGroup probed{analyse_probe_record(run_probe(options)), {}};
    probed.machine = machine_from_probe(probed.analysis, "device_tests");
    return runs.emplace(group, std::move(probed)).first->second;
}

} // namespace kerncast::probe::testing
