// Running a kernel under Nsight Compute (`ncu`): finding ncu, the command line kerncast runs,
// and collecting the counters of one launch.
#pragma once

#include "kerncast/runtime/ncu_csv.hpp"
#include "kerncast/runtime/ncu_metrics.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::runtime {

// The first executable `program` in the ':'-separated directory list `path_list` (the value of
// PATH); empty when there is none.
std::optional<std::string> find_on_path(const std::string& program, const std::string& path_list);
// find_on_path(program, $PATH).
std::optional<std::string> find_program(const std::string& program);

struct NcuProfileRequest {
    std::string ncu_path = "ncu";
    std::vector<std::string> metrics;
    // The kernel's symbol (mangled for C++ kernels; ncu matches it with
    // --kernel-name-base mangled).
    std::string kernel_symbol;
    int launch_skip = 0;  // launches of that kernel to let pass before profiling
    int launch_count = 1; // launches to profile
    std::string log_file; // where ncu writes its CSV (keeps it apart from the program's output)
    std::vector<std::string> application; // the program to profile and its arguments
};

// ncu --csv --page raw --print-units base --metrics m1,m2,... --kernel-name-base mangled
//     --kernel-name SYMBOL --launch-skip N --launch-count M --target-processes all
//     --log-file FILE APPLICATION...
std::vector<std::string> ncu_command_line(const NcuProfileRequest& request);

// A command line as one shell-quoted string (for messages and records).
std::string shell_join(const std::vector<std::string>& argv);

struct ProcessResult {
    int exit_code = -1; // the program's exit status; 128 + signal when killed by a signal
    std::string output; // standard output and standard error, interleaved
};

// Runs argv[0] (no shell) and waits. Failure to start is an unavailable Error.
ProcessResult run_process(const std::vector<std::string>& argv);

struct CounterCollection {
    std::map<std::string, NamedValue> counters;
    std::vector<std::string> warnings; // metrics ncu does not offer or could not collect
    std::vector<std::string> command_line;
};

// Runs the request's application under ncu and returns the counters of the (single) profiled
// launch. When `query_available` is set, first asks `ncu --query-metrics` which of the metrics
// the GPU offers and requests only those (the rest become warnings). ncu failing (no
// permission for counters, no kernel matched) is an unavailable Error with ncu's output as a
// note.
CounterCollection collect_counters(NcuProfileRequest request, bool query_available);

} // namespace kerncast::runtime
