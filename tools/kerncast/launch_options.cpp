// Kernel-file launch options and record-replay options (launch_options.hpp).
#include "launch_options.hpp"

#include "kerncast/error.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/validate/record_kernel_files.hpp"

#include <cctype>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <iterator>

namespace kerncast::cli {

std::vector<std::string> own_command_line() {
    std::ifstream file("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> argv;
    std::string arg;
    while (std::getline(file, arg, '\0'))
        argv.push_back(arg);
    return argv;
}

namespace {

// "What: example (suffix)", or with a scope "Scope: what, example (suffix)".
std::string scoped_help(const std::string& scope, std::string what, const std::string& example,
                        const std::string& suffix) {
    if (scope.empty()) {
        what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
        return what + ": " + example + " (" + suffix + ")";
    }
    return scope + ": " + what + ", " + example + " (" + suffix + ")";
}

} // namespace

void add_define_option(CLI::App& command, std::vector<std::string>& defines,
                       const std::string& scope) {
    command
        .add_option("-D,--define", defines,
                    scoped_help(scope, "set a parameter", "-D name=value", "repeatable"))
        ->type_name("NAME=VALUE");
}

void add_block_option(CLI::App& command, std::string& block, const std::string& scope) {
    command
        .add_option(
            "--block", block,
            scoped_help(scope, "threads per block", "32x4x4 or 32,4,4", "overrides the file"))
        ->type_name("XxYxZ");
}

void add_fold_option(CLI::App& command, std::string& fold, const std::string& scope) {
    command
        .add_option(
            "--fold", fold,
            scoped_help(scope, "points per thread", "1x1x2, z=2, 2z or 2z:strided",
                        "overrides the file; ':strided' places a thread's points a block apart"))
        ->type_name("FOLD");
}

void add_launch_options(CLI::App& command, LaunchOptions& options, const std::string& scope) {
    add_define_option(command, options.defines, scope);
    add_block_option(command, options.block, scope);
    add_fold_option(command, options.fold, scope);
}

bool any_given(const LaunchOptions& options) {
    return !options.defines.empty() || !options.block.empty() || !options.fold.empty();
}

kernel::LaunchConfig launch_of(const kernel::KernelSpec& spec, const LaunchOptions& options) {
    return kernel::override_launch(spec.launch, options.block, options.fold);
}

std::vector<std::pair<std::string, std::int64_t>>
parameter_overrides(const LaunchOptions& options) {
    return kernel::parse_parameter_defines(options.defines);
}

std::vector<std::string> launch_arguments(const LaunchOptions& options) {
    std::vector<std::string> arguments;
    for (const auto& define : options.defines)
        arguments.insert(arguments.end(), {"-D", define});
    if (!options.block.empty())
        arguments.insert(arguments.end(), {"--block", options.block});
    if (!options.fold.empty())
        arguments.insert(arguments.end(), {"--fold", options.fold});
    return arguments;
}

void add_record_replay_options(CLI::App& command, RecordReplayOptions& options,
                               const std::string& records_help) {
    command
        .add_option("KERNEL", options.kernel_paths,
                    "Kernel files the records are of (matched by kernel name)")
        ->type_name("FILE...");
    command.add_option("--records", options.records_directories, records_help)
        ->type_name("DIR")
        ->required();
    command
        .add_option("--kernels", options.kernels_directory,
                    "Also every kernel file (*.yaml, *.yml) in DIR")
        ->type_name("DIR");
    command.add_option("-m,--machine", options.machine, "Built-in machine id or machine file")
        ->required();
}

void add_max_iterations_option(CLI::App& command, int& max_iterations) {
    command
        .add_option("--max-iterations", max_iterations,
                    "Levenberg-Marquardt iterations at most (default 200)")
        ->type_name("N");
}

void check_max_iterations(const RecordReplayOptions& options) {
    if (options.max_iterations < 1)
        throw_usage_error("--max-iterations must be at least 1");
}

ReplayedRecords load_replayed_records(const RecordReplayOptions& options) {
    ReplayedRecords replayed;
    for (const auto& directory : options.records_directories) {
        auto loaded = runtime::load_measurement_directory(directory);
        replayed.records.insert(replayed.records.end(), std::make_move_iterator(loaded.begin()),
                                std::make_move_iterator(loaded.end()));
    }
    replayed.dataset_path = fmt::format("{}", fmt::join(options.records_directories, ", "));
    replayed.kernel_paths = validate::record_kernel_files(
        options.kernel_paths, options.kernels_directory, replayed.records);
    return replayed;
}

void set_replay_inputs(const RecordReplayOptions& options, OutputOptions& output) {
    output.inputs = options.kernel_paths;
    output.input_directories = options.records_directories;
    output.input_directories.push_back(options.kernels_directory);
}

} // namespace kerncast::cli
