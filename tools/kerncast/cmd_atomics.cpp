// kerncast atomics: is the shared-memory atomic unit the bottleneck? (Dong & Pai; docs/atomics.md)
// Forms: --ncu-csv FILE / --measurement FILE (counters of a run), KERNEL (static forecast),
// KERNEL --run (profile on the GPU with ncu), --measure-table (the microbenchmark, GPU) and
// --replay RAW (the table from a recorded microbenchmark run).
#include "commands.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/codegen/array_fill.hpp"
#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/atomics/atomics_view.hpp"
#include "kerncast/models/atomics/service_time_benchmark.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/ncu_command.hpp"
#include "kerncast/runtime/ncu_csv.hpp"
#include "launch_options.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace kerncast::cli {
namespace {

namespace ma = models::atomics;

struct AtomicsCommandOptions {
    std::string kernel_path;
    std::string machine;
    std::string ncu_csv_path;
    std::string measurement_path;
    std::string replay_path;
    bool measure_table = false;
    bool run = false;
    std::string raw_path;
    std::string machine_out_path;
    LaunchOptions launch;
    std::string sweep; // NAME=V1,V2,...: one forecast per value
    std::string input = "solid";
    bool input_given = false; // --input on the command line (not its default)
    std::string operation;
    std::optional<double> kernel_cycles;
    int registers = 0;
    int device = 0;
    int repetitions = 5;
    std::string queued_warps;
    std::string active_threads;
    OutputOptions output;
};

std::string machine_label(const MachineModel& machine) {
    return machine.identity.id.empty() ? machine.identity.name : machine.identity.id;
}

// Where the table comes from, or that the machine has none.
std::string table_note(const MachineModel& machine) {
    if (!machine.atomic_service_times)
        return "machine '" + machine_label(machine) +
               "' lacks a measured shared-memory atomic service-time table: T(n,e,c), S, B and "
               "U are not computed (measure it with `kerncast atomics --measure-table`, "
               "docs/atomics.md)";
    const auto& table = *machine.atomic_service_times;
    std::string note = "service times: source '" + table.source + "'";
    const auto it = machine.sources.find(table.source);
    if (it != machine.sources.end())
        note += " (" + std::string(source_kind_name(it->second.kind)) + ": " + it->second.citation +
                (it->second.run.empty() ? "" : ", run " + it->second.run) + ")";
    return note;
}

std::optional<ma::AtomicUtilization> utilization_if_table(const MachineModel& machine,
                                                          const ma::AtomicUtilizationInput& input) {
    if (!machine.atomic_service_times)
        return std::nullopt;
    return ma::predict_utilization(ma::service_grid(machine, input.operation), input);
}

std::string counters_operation(const AtomicsCommandOptions& o) {
    return o.operation.empty() ? "add" : o.operation;
}

void emit_counters(const std::vector<std::pair<std::string, std::string>>& names,
                   const std::vector<std::map<std::string, runtime::NamedValue>>& metrics,
                   const MachineModel& machine, const AtomicsCommandOptions& o,
                   const std::string& origin) {
    std::vector<ma::LaunchUtilization> launches;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        ma::LaunchUtilization launch;
        launch.kernel = names[i].first;
        launch.launch_id = names[i].second;
        launch.reading = ma::read_atomic_counters(
            metrics[i], machine, counters_operation(o),
            origin + (launch.launch_id.empty() ? "" : ", launch " + launch.launch_id));
        launch.utilization = utilization_if_table(machine, launch.reading.input);
        launches.push_back(std::move(launch));
    }
    report::Document doc =
        ma::counters_view(launches, machine_label(machine), origin, table_note(machine));
    doc.notes.push_back("operation " + counters_operation(o) +
                        (o.operation.empty() ? " (default; counters do not tell ATOMS.ADD from "
                                               "ATOMS.POPC.INC: --operation popc_inc for a "
                                               "return-free integer increment on CC >= 8.0)"
                                             : " (--operation)"));
    emit(doc, o.output);
}

void from_ncu_csv(const AtomicsCommandOptions& o, const MachineModel& machine) {
    const auto launches = runtime::parse_ncu_csv(
        read_input_file(o.ncu_csv_path, "Nsight Compute CSV"), o.ncu_csv_path);
    if (launches.empty())
        throw_input_error(o.ncu_csv_path + ": no profiled launch in the CSV",
                          SourceLocation{o.ncu_csv_path, 0, 0, {}, {}});
    std::vector<std::pair<std::string, std::string>> names;
    std::vector<std::map<std::string, runtime::NamedValue>> metrics;
    for (const auto& launch : launches) {
        names.emplace_back(launch.kernel_name, launch.id);
        metrics.push_back(launch.metrics);
    }
    emit_counters(names, metrics, machine, o, o.ncu_csv_path);
}

void from_measurement(const runtime::Measurement& m, const std::string& origin,
                      const AtomicsCommandOptions& o, const MachineModel& machine) {
    if (m.counters.empty())
        throw_input_error(origin + ": the measurement has no counters (run with --counters)");
    emit_counters({{m.kernel.name, ""}}, {m.counters}, machine, o, origin);
}

// The child's --fill options for the input: a solid input fills every global integer array the
// kernel only reads with its innermost subscript (image[p, c] = c); a uniform one keeps kerncast
// run's deterministic hash (each byte uniform-like).
std::vector<codegen::ArrayFill> run_input_fills(const AtomicsCommandOptions& o) {
    if (o.input != "solid")
        return {};
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::ParameterOverrides values = parameter_overrides(o.launch);
    const kernel::BoundKernel bound = analysis::bind(
        analysis::analyze(analysis::staging_judged_at(spec, values), launch_of(spec, o.launch)),
        values);
    std::vector<codegen::ArrayFill> fills =
        codegen::solid_input_fills(codegen::lower_kernel(bound));
    if (fills.empty())
        throw_input_error(o.kernel_path + ": --run --input solid fills the global integer arrays "
                                          "the kernel only reads, and it reads none; use "
                                          "--input uniform (kerncast run's hash)");
    return fills;
}

// KERNEL --run: `kerncast run KERNEL --counters` as a child, then the counters form.
void run_on_gpu(const AtomicsCommandOptions& o, const MachineModel& machine) {
    const std::vector<codegen::ArrayFill> fills = run_input_fills(o); // the user's input first
    if (!runtime::find_program("ncu"))
        throw Error(ErrorKind::unavailable, "--run needs Nsight Compute: no 'ncu' on PATH", {},
                    {"install Nsight Compute and put its ncu on PATH, or profile elsewhere and "
                     "use --ncu-csv FILE"});
    (void)gpu::query_devices(); // unavailable without a GPU or a CUDA build
    const std::string record = (std::filesystem::temp_directory_path() /
                                ("kerncast-atomics-" + std::to_string(::getpid()) + ".json"))
                                   .string();
    std::vector<std::string> argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
                                     "run",
                                     o.kernel_path,
                                     "--counters",
                                     "--device",
                                     std::to_string(o.device),
                                     "-o",
                                     record};
    for (auto& argument : launch_arguments(o.launch))
        argv.push_back(std::move(argument));
    std::string filled;
    for (const auto& fill : fills) {
        argv.insert(argv.end(), {"--fill", codegen::to_string(fill)});
        filled += (filled.empty() ? "" : ", ") + codegen::to_string(fill);
    }
    const runtime::ProcessResult child = runtime::run_process(argv);
    if (child.exit_code != 0) {
        std::filesystem::remove(record);
        throw Error(child.exit_code == 3 ? ErrorKind::unavailable : ErrorKind::input,
                    "profiling " + o.kernel_path + " failed: " + runtime::shell_join(argv), {},
                    {child.output});
    }
    std::cerr << child.output;
    const runtime::Measurement m = runtime::load_measurement_file(record);
    std::filesystem::remove(record);
    from_measurement(m,
                     o.kernel_path + " (profiled with ncu; input " +
                         (fills.empty() ? "uniform: kerncast run's deterministic hash"
                                        : "solid: --fill " + filled) +
                         ")",
                     o, machine);
}

// --sweep NAME=V1,V2,...: the parameter and its values (integers, at least one).
std::pair<std::string, std::vector<std::int64_t>> parse_sweep(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw_usage_error("--sweep must be NAME=V1,V2,... (e.g. n=1024,4096), got '" + text + "'");
    const std::string name = text.substr(0, equals);
    std::vector<std::int64_t> values;
    std::stringstream list(text.substr(equals + 1));
    std::string item;
    while (std::getline(list, item, ',')) {
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (error != std::errc{} || end != item.data() + item.size())
            throw_usage_error("--sweep " + name + ": '" + item + "' is not an integer");
        values.push_back(value);
    }
    if (values.empty())
        throw_usage_error("--sweep " + name + " has no values");
    return {name, values};
}

void forecast(const AtomicsCommandOptions& o, const MachineModel& machine) {
    const auto distribution = ma::parse_distribution(o.input);
    if (!distribution)
        throw_usage_error("--input must be solid or uniform, got '" + o.input + "'");
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    const kernel::ParameterOverrides values = parameter_overrides(o.launch);
    const analysis::KernelAnalysis analysis =
        analysis::analyze(analysis::staging_judged_at(spec, values), launch);
    const kernel::BoundKernel bound = analysis::bind(analysis, values);
    ma::ForecastOptions options;
    options.distribution = *distribution;
    options.operation = o.operation;
    options.kernel_cycles = o.kernel_cycles;
    options.registers_per_thread = o.registers;
    if (!o.sweep.empty()) {
        const auto parsed = parse_sweep(o.sweep);
        const std::string& name = parsed.first;
        std::vector<ma::SweepForecast> sweep;
        for (const std::int64_t value : parsed.second) {
            auto defines = parameter_overrides(o.launch);
            std::erase_if(defines, [&](const auto& define) { return define.first == name; });
            defines.emplace_back(name, value);
            const kernel::BoundKernel swept = analysis::bind(analysis, defines);
            ma::SweepForecast entry{value, ma::forecast_atomics(analysis, swept, machine, options),
                                    std::nullopt};
            entry.utilization = utilization_if_table(machine, entry.forecast.input);
            sweep.push_back(std::move(entry));
        }
        emit(ma::forecast_sweep_view(name, sweep, machine_label(machine), table_note(machine)),
             o.output);
        return;
    }
    const ma::AtomicForecast f = ma::forecast_atomics(analysis, bound, machine, options);
    emit(ma::forecast_view(f, utilization_if_table(machine, f.input), machine_label(machine),
                           table_note(machine)),
         o.output);
}

std::vector<int> parse_int_list(const std::string& text, const char* option) {
    std::vector<int> values;
    if (text.empty())
        return values;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto dash = item.find('-');
        try {
            if (dash != std::string::npos && dash > 0) {
                const int low = std::stoi(item.substr(0, dash));
                const int high = std::stoi(item.substr(dash + 1));
                for (int v = low; v <= high; ++v)
                    values.push_back(v);
            } else {
                values.push_back(std::stoi(item));
            }
        } catch (const std::exception&) {
            throw_usage_error(std::string(option) + ": '" + item +
                              "' is not an integer or a range such as 1-32");
        }
    }
    return values;
}

// The table of a record into a machine file (-o), with its provenance.
void write_machine_with_table(const AtomicsCommandOptions& o, const ma::ServiceRecord& record,
                              const std::string& raw_label) {
    if (o.machine.empty())
        throw_usage_error("-o needs -m MACHINE: the machine the table is added to");
    const MachineText machine_text = resolve_machine_text(o.machine);
    MachineModel machine = parse_machine_json(machine_text.text, machine_text.origin);
    const std::string source = "atomics-service-times";
    machine.sources[source] = Provenance{
        SourceKind::measured,
        "kerncast atomics microbenchmark (Dong & Pai sec. 3.2) on " + record.device + ", " +
            record.date_utc + ", median of " + std::to_string(record.repetitions) + " repetitions",
        raw_label};
    machine.atomic_service_times = ma::service_table_from_record(record, source);
    std::cerr << "kerncast: note: "
              << write_derived_machine(machine_text, machine, o.machine_out_path) << "\n";
}

void measure_table(const AtomicsCommandOptions& o) {
    ma::ServiceBenchmarkOptions options;
    options.device = o.device;
    options.repetitions = o.repetitions;
    options.queued_warps = parse_int_list(o.queued_warps, "--warps");
    options.active_threads = parse_int_list(o.active_threads, "--threads");
    if (!o.operation.empty())
        options.operations = {o.operation};
    options.command = "kerncast atomics --measure-table";
    options.progress = [](const std::string& line) { std::cerr << "kerncast: " << line << "\n"; };
    const ma::ServiceRecord record = ma::run_service_benchmark(options);
    if (!o.raw_path.empty()) {
        std::ofstream out(o.raw_path);
        if (!out)
            throw_input_error("cannot write '" + o.raw_path + "'");
        out << ma::format_service_record(record);
    }
    if (!o.machine_out_path.empty())
        write_machine_with_table(o, record, o.raw_path);
    emit(ma::service_table_view(record, ma::service_table_from_record(record, "this run")),
         o.output);
}

void replay(const AtomicsCommandOptions& o) {
    const ma::ServiceRecord record = ma::read_service_record(o.replay_path);
    if (!o.machine_out_path.empty())
        write_machine_with_table(o, record, o.replay_path);
    emit(ma::service_table_view(record, ma::service_table_from_record(record, o.replay_path)),
         o.output);
}

void atomics_command(const AtomicsCommandOptions& o) {
    const int forms = !o.ncu_csv_path.empty() + !o.measurement_path.empty() +
                      !o.replay_path.empty() + o.measure_table + !o.kernel_path.empty();
    if (forms != 1)
        throw_usage_error("give exactly one of KERNEL, --ncu-csv FILE, --measurement FILE, "
                          "--replay RAW, --measure-table");
    if (o.run && o.kernel_path.empty())
        throw_usage_error("--run needs KERNEL");
    if (o.input_given && o.kernel_path.empty())
        throw_usage_error("--input belongs to KERNEL (the static forecast): counters carry the "
                          "input they were measured on");
    if (!o.sweep.empty() && (o.kernel_path.empty() || o.run))
        throw_usage_error("--sweep belongs to the static forecast (KERNEL without --run)");
    if (!o.operation.empty() && o.operation != "add" && o.operation != "popc_inc")
        throw_usage_error("--operation must be add or popc_inc, got '" + o.operation + "'");
    if (!o.machine_out_path.empty() && o.replay_path.empty() && !o.measure_table)
        throw_usage_error("-o belongs to --replay and --measure-table");
    if (o.measure_table) {
        measure_table(o);
        return;
    }
    if (!o.replay_path.empty()) {
        replay(o);
        return;
    }
    if (o.machine.empty())
        throw_usage_error("-m MACHINE is required (a built-in id or a machine file)");
    const MachineModel machine = resolve_machine(o.machine);
    if (!o.ncu_csv_path.empty())
        from_ncu_csv(o, machine);
    else if (!o.measurement_path.empty())
        from_measurement(runtime::load_measurement_file(o.measurement_path), o.measurement_path, o,
                         machine);
    else if (o.run)
        run_on_gpu(o, machine);
    else
        forecast(o, machine);
}

void setup_atomics(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "atomics", "Shared-memory atomic unit utilization (Dong & Pai): from counters, a static "
                   "forecast, or measured on the GPU (docs/atomics.md)");
    auto o = std::make_shared<AtomicsCommandOptions>();
    cmd->add_option("KERNEL", o->kernel_path,
                    "Kernel file (YAML): forecast from its exact atomic counts, or with --run "
                    "profile it on the GPU")
        ->type_name("KERNEL");
    cmd->add_option("-m,--machine", o->machine, "Built-in machine id or machine file")
        ->type_name("MACHINE");
    cmd->add_option("--ncu-csv", o->ncu_csv_path,
                    "Nsight Compute CSV (ncu --csv --page raw) with the model's metrics")
        ->type_name("FILE");
    cmd->add_option("--measurement", o->measurement_path,
                    "Measurement record of `kerncast run --counters`")
        ->type_name("FILE");
    cmd->add_flag("--run", o->run,
                  "With KERNEL: run it on the GPU under ncu (kerncast run --counters) and use "
                  "the counters");
    cmd->add_option("--input", o->input,
                    "With KERNEL: the input distribution, solid (default: one colour, the most "
                    "contention) or uniform; with --run the image the GPU reads")
        ->type_name("solid|uniform");
    cmd->add_option("--operation", o->operation,
                    "Fetch-and-op grid of the table: add or popc_inc (default: forecast "
                    "decides, counters use add)")
        ->type_name("OP");
    cmd->add_option("--kernel-cycles", o->kernel_cycles,
                    "With KERNEL: the kernel's active cycles per SM, for U = B / T")
        ->type_name("CYCLES");
    cmd->add_option("--registers", o->registers,
                    "With KERNEL: registers per thread for the occupancy calculation")
        ->type_name("N");
    add_define_option(*cmd, o->launch.defines, "With KERNEL");
    cmd->add_option("--sweep", o->sweep,
                    "With KERNEL: one forecast per value of a parameter, e.g. --sweep "
                    "n=65536,1048576 (a table and charts against it)")
        ->type_name("NAME=V1,V2,...");
    add_block_option(*cmd, o->launch.block, "With KERNEL");
    add_fold_option(*cmd, o->launch.fold, "With KERNEL");
    cmd->add_flag("--measure-table", o->measure_table,
                  "GPU: run the service-time microbenchmark (Dong & Pai sec. 3.2)");
    cmd->add_option("--replay", o->replay_path,
                    "Build the table from a raw record of --measure-table (no GPU needed)")
        ->type_name("RAW");
    cmd->add_option("--raw", o->raw_path, "With --measure-table: write the raw record to FILE")
        ->type_name("FILE");
    cmd->add_option("-o,--machine-out", o->machine_out_path,
                    "With --measure-table or --replay: write -m MACHINE with the table to FILE")
        ->type_name("FILE");
    cmd->add_option("--warps", o->queued_warps,
                    "With --measure-table: the n to measure, e.g. 1-64 or 1,2,4,8 (default all)")
        ->type_name("LIST");
    cmd->add_option("--threads", o->active_threads,
                    "With --measure-table: the e to measure, e.g. 1-32 (default all)")
        ->type_name("LIST");
    cmd->add_option("--repetitions", o->repetitions,
                    "With --measure-table: launches per point (default 5)")
        ->type_name("N");
    cmd->add_option("--device", o->device, "CUDA device ordinal (default 0)")->type_name("N");
    add_output_options(*cmd, o->output);
    cmd->callback([cmd, o] {
        o->output.inputs = {o->kernel_path, o->machine, o->ncu_csv_path, o->measurement_path,
                            o->replay_path};
        std::vector<OutputPath> outputs = output_paths(o->output);
        outputs.push_back({"--raw", o->raw_path});
        outputs.push_back({"-o", o->machine_out_path});
        refuse_clobbering(outputs, o->output.inputs);
        o->input_given = cmd->count("--input") > 0;
        atomics_command(*o);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(350, setup_atomics);

} // namespace kerncast::cli
