// kerncast run: compile a CUDA kernel at run time, time it on the GPU (and read its counters
// with Nsight Compute), write a measurement record. docs/gpu-runtime.md.
// The kernel-file form (KERNEL + code generation) comes with the code generator; until then
// the kernel is given as CUDA source.
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/kernel_arguments.hpp"
#include "kerncast/runtime/measurement_builder.hpp"
#include "kerncast/runtime/ncu_command.hpp"
#include "kerncast/runtime/run_view.hpp"
#include "kerncast/runtime/timing_harness.hpp"
#include "kerncast/sha256.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace kerncast::cli {
namespace {

struct RunCommandOptions {
    std::string cuda_source_path;
    std::string kernel_name;
    std::string grid;
    std::string block;
    std::int64_t shared_bytes = 0;
    std::optional<std::int64_t> bytes_moved;
    std::vector<std::string> buffers;
    std::vector<std::string> scalars;
    std::vector<std::string> nvrtc_options;
    runtime::TimingOptions timing;
    bool counters = false;
    std::string record_path;
    OutputOptions output;
};

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw_input_error("cannot open CUDA source '" + path + "'",
                          SourceLocation{path, 0, 0, {}, {}});
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// This process's command line, as the kernel saw it (for the record).
std::vector<std::string> own_command_line() {
    std::ifstream file("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> argv;
    std::string arg;
    while (std::getline(file, arg, '\0'))
        argv.push_back(arg);
    return argv;
}

// The kernel's arguments in command-line order: --buffer and --scalar may interleave.
std::vector<runtime::KernelArgument> arguments_in_order(const CLI::App& cmd) {
    std::vector<runtime::KernelArgument> arguments;
    std::size_t next_buffer = 0, next_scalar = 0;
    const auto* buffer_option = cmd.get_option("--buffer");
    const auto* scalar_option = cmd.get_option("--scalar");
    const auto buffers = buffer_option->as<std::vector<std::string>>();
    const auto scalars = scalar_option->as<std::vector<std::string>>();
    for (const CLI::Option* option : cmd.parse_order()) {
        if (option == buffer_option && buffer_option->count() > 0)
            arguments.push_back(runtime::parse_buffer_spec(buffers.at(next_buffer++)));
        else if (option == scalar_option && scalar_option->count() > 0)
            arguments.push_back(runtime::parse_scalar_argument(scalars.at(next_scalar++)));
    }
    return arguments;
}

// The same kernel, once, under ncu: this program re-run with the same kernel and arguments.
std::vector<std::string> profiled_child(const RunCommandOptions& options,
                                        const std::vector<runtime::KernelArgument>& arguments) {
    std::vector<std::string> argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
                                     "run",
                                     "--cuda-source",
                                     options.cuda_source_path,
                                     "--kernel",
                                     options.kernel_name,
                                     "--grid",
                                     options.grid,
                                     "--block",
                                     options.block,
                                     "--shared-bytes",
                                     std::to_string(options.shared_bytes),
                                     "--device",
                                     std::to_string(options.timing.device),
                                     "--warmup",
                                     "0",
                                     "--repeat",
                                     "1"};
    for (const auto& option : options.nvrtc_options)
        argv.push_back("--nvrtc-option=" + option);
    for (const auto& argument : arguments) {
        if (const auto* buffer = std::get_if<runtime::BufferSpec>(&argument))
            argv.insert(argv.end(), {"--buffer", runtime::to_string(*buffer)});
        else
            argv.insert(argv.end(), {"--scalar", runtime::to_string(
                                                     std::get<runtime::ScalarArgument>(argument))});
    }
    return argv;
}

void run_command(const CLI::App& cmd, const RunCommandOptions& options) {
    // Everything the user typed is checked before the GPU is touched.
    runtime::TimingRequest request;
    request.source_name = std::filesystem::path(options.cuda_source_path).filename().string();
    request.kernel_name = options.kernel_name;
    request.grid = runtime::parse_dim3(options.grid, "--grid");
    request.block = runtime::parse_dim3(options.block, "--block");
    if (options.shared_bytes < 0)
        throw_usage_error("--shared-bytes must not be negative");
    request.dynamic_shared_memory_bytes = options.shared_bytes;
    if (options.bytes_moved && *options.bytes_moved < 1)
        throw_usage_error("--bytes must be positive");
    if (options.timing.repetitions < 1)
        throw_usage_error("--repeat must be at least 1");
    if (options.timing.warmup < 0)
        throw_usage_error("--warmup must not be negative");
    request.arguments = arguments_in_order(cmd);
    request.compile_options = options.nvrtc_options;
    request.options = options.timing;

    std::optional<std::string> ncu_path;
    if (options.counters) {
        ncu_path = runtime::find_program("ncu");
        if (!ncu_path)
            throw Error(ErrorKind::unavailable, "--counters needs Nsight Compute: no 'ncu' on PATH",
                        {},
                        {"install Nsight Compute (part of the CUDA toolkit) and put its ncu on "
                         "PATH, or run without --counters"});
    }

    request.cuda_source = read_file(options.cuda_source_path);
    runtime::RunContext context;
    context.kernel_file = options.cuda_source_path;
    context.kernel_file_sha256 = sha256_hex(request.cuda_source);
    context.command_line = own_command_line();
    context.date_utc = runtime::iso8601_utc_now();
    context.bytes_moved = options.bytes_moved;

    const runtime::TimedRun run = runtime::time_kernel(request);
    if (!run.compile_log.empty())
        std::cerr << "kerncast: NVRTC log for " << request.source_name << ":\n"
                  << run.compile_log << "\n";
    runtime::Measurement measurement = runtime::make_measurement(request, run, context);

    if (ncu_path) {
        const auto table = runtime::metric_table_for(run.device.cc_major, run.device.cc_minor);
        if (!table.exact)
            std::cerr << "kerncast: warning: no metric table for compute capability "
                      << run.device.cc_major << "." << run.device.cc_minor << "; using the "
                      << table.table->cc_major << "." << table.table->cc_minor << " table\n";
        runtime::NcuProfileRequest profile;
        profile.ncu_path = *ncu_path;
        for (const auto& metric : table.table->metrics)
            profile.metrics.push_back(metric.name);
        profile.kernel_symbol = run.lowered_name;
        profile.application = profiled_child(options, request.arguments);
        const auto collection = runtime::collect_counters(profile, true);
        for (const auto& warning : collection.warnings)
            std::cerr << "kerncast: warning: " << warning << "\n";
        measurement.counters = collection.counters;
    }

    if (!options.record_path.empty())
        runtime::write_measurement_file(measurement, options.record_path);
    if (options.record_path != "-")
        emit(runtime::run_view(measurement), options.output);
}

void setup_run(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "run", "GPU: compile a kernel with NVRTC, time it with CUDA events, write a measurement "
               "record (docs/gpu-runtime.md)");
    auto options = std::make_shared<RunCommandOptions>();
    cmd->add_option("--cuda-source", options->cuda_source_path,
                    "CUDA C++ file with the kernel (the kernel-file form needs the code "
                    "generator, which is not there yet)")
        ->required()
        ->type_name("FILE");
    cmd->add_option("--kernel", options->kernel_name,
                    "The __global__ function: its name, or a template instantiation like "
                    "scale<float>")
        ->required()
        ->type_name("NAME");
    cmd->add_option("--grid", options->grid, "Grid size in blocks: X[,Y[,Z]]")
        ->required()
        ->type_name("X[,Y[,Z]]");
    cmd->add_option("--block", options->block, "Block size in threads: X[,Y[,Z]]")
        ->required()
        ->type_name("X[,Y[,Z]]");
    cmd->add_option("--shared-bytes", options->shared_bytes,
                    "Dynamic shared memory per block in bytes (default 0)")
        ->type_name("N");
    cmd->add_option("--buffer", options->buffers,
                    "A device buffer argument, initialised on the device: name:dtype:count[:hash|"
                    "zero] (dtype f32 f64 i32 i64 u32 u64; default hash). Kernel parameters are "
                    "the --buffer and --scalar options in command-line order")
        ->type_name("SPEC")
        ->take_all();
    cmd->add_option("--scalar", options->scalars, "A scalar argument: name:dtype:value")
        ->type_name("SPEC")
        ->take_all();
    cmd->add_option("--nvrtc-option", options->nvrtc_options,
                    "An extra NVRTC option, written with '=': --nvrtc-option=--use_fast_math "
                    "(repeatable)")
        ->type_name("OPT")
        ->allow_extra_args(false);
    cmd->add_option("--warmup", options->timing.warmup, "Untimed launches first (default 3)")
        ->type_name("N");
    cmd->add_option("--repeat", options->timing.repetitions,
                    "Timed launches, one CUDA event pair each (default 10)")
        ->type_name("N");
    cmd->add_option("--bytes", options->bytes_moved,
                    "Bytes the kernel moves, if known: records the effective bandwidth "
                    "(bytes / median time)")
        ->type_name("N");
    cmd->add_flag("--l2-flush", options->timing.l2_flush,
                  "Write a buffer of twice the L2 size between repetitions (outside the timing)");
    cmd->add_option("--device", options->timing.device, "CUDA device ordinal (default 0)")
        ->type_name("N");
    cmd->add_flag("--counters", options->counters,
                  "Also profile one launch with Nsight Compute (ncu on PATH) and record the "
                  "counters the models need");
    cmd->add_option("-o,--record", options->record_path,
                    "Write the measurement record (JSON, kerncast.measurement/1) to FILE or -")
        ->type_name("FILE|-");
    add_output_options(*cmd, options->output);
    cmd->callback([cmd, options] { run_command(*cmd, *options); });
}

} // namespace

KERNCAST_REGISTER_COMMAND(700, setup_run);

} // namespace kerncast::cli
