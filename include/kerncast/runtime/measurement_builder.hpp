// Turning a timed run into a measurement record (pure: no GPU, no clock, no files).
#pragma once

#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::runtime {

struct RunContext {
    std::string kernel_file;        // path as given
    std::string kernel_file_sha256; // of that file's bytes
    std::string source_sha256;      // of the CUDA source that runs (KernelRecord::source_sha256)
    kernel::Dim3 fold{1, 1, 1};     // thread folding of generated kernels; 1,1,1 otherwise
    kernel::FoldPlacement fold_placement = kernel::FoldPlacement::consecutive;
    std::map<std::string, ParameterValue> parameters; // kernel-file parameters, if any
    std::vector<std::string> command_line;
    std::string date_utc; // iso8601_utc_now() at the start of the run
    // Bytes the kernel moves, when the caller knows: recorded as the throughput
    // "effective_bandwidth" = bytes / median time (B/s).
    std::optional<std::int64_t> bytes_moved;
};

// The record of `run`, which executed `request`: device and clocks from the run, launch and
// buffers from the request, scalar arguments as parameters (after context.parameters; an
// unsigned value beyond the int64 range is stored as a real), times and their summary.
Measurement make_measurement(const TimingRequest& request, const TimedRun& run,
                             const RunContext& context);

} // namespace kerncast::runtime
