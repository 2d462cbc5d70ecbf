// -D/--define, --block and --fold: a kernel file's parameters and launch, declared the same way
// on every command that reads a kernel file (count, predict, codegen, mwp, atomics, run,
// validate, explore), and the record-replay options that fit-volumes and calibrate share.
#pragma once

#include "commands.hpp"
#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::cli {

// This process's command line (/proc/self/cmdline), one argument per element: what a
// measurement record of run or validate's live mode keeps as /command_line.
std::vector<std::string> own_command_line();

struct LaunchOptions {
    std::vector<std::string> defines; // "name=value"
    std::string block;                // "" keeps the kernel file's
    std::string fold;
};

// Each option's help text is "Set a parameter: -D name=value (repeatable)" and the like; with a
// `scope` (the mode they belong to: "With KERNEL", "Kernel file", "Live mode") it reads
// "With KERNEL: set a parameter, -D name=value (repeatable)".
void add_define_option(CLI::App& command, std::vector<std::string>& defines,
                       const std::string& scope = "");
void add_block_option(CLI::App& command, std::string& block, const std::string& scope = "");
void add_fold_option(CLI::App& command, std::string& fold, const std::string& scope = "");
// All three, in that order.
void add_launch_options(CLI::App& command, LaunchOptions& options, const std::string& scope = "");

// Whether any of the three was given.
bool any_given(const LaunchOptions& options);

// The kernel file's launch with --block and --fold applied (kernel::override_launch).
kernel::LaunchConfig launch_of(const kernel::KernelSpec& spec, const LaunchOptions& options);
// The -D values (kernel::parse_parameter_defines).
std::vector<std::pair<std::string, std::int64_t>> parameter_overrides(const LaunchOptions& options);

// The options as command-line arguments again ("-D", "n=5", "--block", "32x4x1", ...), for a
// command that runs kerncast once more (under ncu).
std::vector<std::string> launch_arguments(const LaunchOptions& options);

// fit-volumes and calibrate: measurement records replayed against kernel files.
struct RecordReplayOptions {
    std::vector<std::string> records_directories;
    std::vector<std::string> kernel_paths;
    std::string kernels_directory;
    std::string machine;
    int max_iterations = 200;
};

// KERNEL..., --records DIR (repeatable; `records_help` says what they must hold), --kernels DIR
// and -m/--machine, in that order.
void add_record_replay_options(CLI::App& command, RecordReplayOptions& options,
                               const std::string& records_help);
// --max-iterations N (Levenberg-Marquardt).
void add_max_iterations_option(CLI::App& command, int& max_iterations);
// A usage Error when --max-iterations is below 1.
void check_max_iterations(const RecordReplayOptions& options);

struct ReplayedRecords {
    std::vector<runtime::LoadedRecord> records; // of every directory, in the order given
    std::string dataset_path;                   // the directories as given, ", "-separated
    std::vector<std::string> kernel_paths;      // validate::record_kernel_files
};
ReplayedRecords load_replayed_records(const RecordReplayOptions& options);

// What a replay reads, for refuse_clobbering: the kernel files given (the command appends its
// other input files) and the records and --kernels directories.
void set_replay_inputs(const RecordReplayOptions& options, OutputOptions& output);

} // namespace kerncast::cli
