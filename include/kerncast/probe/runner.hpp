// Running the probe on a GPU: the microbenchmarks of cuda/probe/ driven by the host-side
// algorithms of this directory, producing a ProbeRecord (raw series). Without CUDA, or
// without a GPU, run_probe throws an unavailable Error (exit 3).
#pragma once

#include "kerncast/probe/raw_series.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kerncast::probe {

// The groups `--only` selects (docs/probe.md, "What is measured").
inline const std::vector<std::string>& probe_groups() {
    static const std::vector<std::string> groups{
        "clock", "l1",      "texture",   "readonly", "constant", "shared", "l2",
        "dram",  "sharing", "bandwidth", "mwp",      "carveout", "tlb",    "launch"};
    return groups;
}

// Parses "l1,l2,..." (empty = every group). Unknown names are usage errors (exit 2) that
// list the valid groups and suggest the closest one.
std::vector<std::string> parse_probe_groups(const std::string& comma_separated);

struct ProbeOptions {
    std::vector<std::string> groups = probe_groups(); // what to measure
    int device = 0;                                   // CUDA device ordinal
    int repetitions = 3;      // independent repetitions of size sweeps and latencies
    int carveout_percent = 0; // shared-memory carve-out for the chase kernels (0 = max L1)
    std::string command;      // recorded in the raw series
    std::function<void(const std::string&)> progress; // one line per step (stderr in the CLI)
};

// True when kerncast was built with the CUDA probes.
bool probe_built_with_cuda();

class ProbeDevice;

// The probe run on `device` (probe_device.hpp): the benchmarks of the selected groups in
// docs/probe.md's order, recorded as raw series. run_probe opens the CUDA device and calls it.
ProbeRecord run_probe_on(ProbeDevice& device, const ProbeOptions& options);

// Measures the GPU. Throws Error(unavailable) without CUDA or GPU; CUDA failures name the
// call, file and line.
ProbeRecord run_probe(const ProbeOptions& options);

} // namespace kerncast::probe
