// kerncast probe: measure this GPU's memory topology (or replay a recorded run) and write
// a machine file.
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/method_availability.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/probe_machine_file.hpp"
#include "kerncast/probe/runner.hpp"
#include "number_options.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace kerncast::cli {
namespace {

struct ProbeCliOptions {
    std::string only;
    std::string machine_path;
    std::string raw_directory;
    std::string replay_directory;
    int device = 0;
    int repetitions = 3;
    int carveout_percent = 0;
    OutputOptions output;
};

// The file (an "extends" of the built-in of the same device where there is one), and on stderr
// what it extends and which models can use it.
void write_machine_file(const MachineModel& machine, const std::string& path) {
    const probe::ProbeMachineFile file = probe::probe_machine_file(machine, path);
    write_file_safely(path, "the machine file", [&](std::ostream& out) { out << file.text; });
    std::cerr << "kerncast probe: machine file written to " << path
              << (file.extends ? " (extends the built-in " + *file.extends + ")"
                               : std::string(" (no built-in lists this device: the probed "
                                             "values alone)"))
              << "\n";
    for (const std::string& value : file.left_out)
        std::cerr << "kerncast probe:   left out " << value << "\n";
    for (const models::MethodAvailability& method : models::method_availability(file.machine))
        std::cerr << "kerncast probe:   " << method.method << ": "
                  << (method.missing.empty() ? "can use it" : "cannot: " + method.missing) << "\n";
}

void run(const ProbeCliOptions& options) {
    probe::ProbeRecord record;
    std::string run;
    if (!options.replay_directory.empty()) {
        record = probe::read_probe_record(options.replay_directory);
        run = std::filesystem::is_directory(options.replay_directory)
                  ? (std::filesystem::path(options.replay_directory) / probe::probe_raw_file_name)
                        .string()
                  : options.replay_directory;
    } else {
        probe::ProbeOptions probe_options;
        probe_options.groups = probe::parse_probe_groups(options.only); // usage errors first
        probe_options.device = options.device;
        probe_options.repetitions = options.repetitions;
        probe_options.carveout_percent = options.carveout_percent;
        // The settings that shape the measurement, as a command that repeats it.
        probe_options.command = "kerncast probe --device " + std::to_string(options.device) +
                                " --repetitions " + std::to_string(options.repetitions) +
                                " --carveout " + std::to_string(options.carveout_percent) +
                                (options.only.empty() ? "" : " --only " + options.only);
        // One line per step (a run takes minutes), on a terminal and without --quiet.
        if (::isatty(STDERR_FILENO) == 1 && !quiet_requested())
            probe_options.progress = [](const std::string& line) {
                std::cerr << "kerncast probe: " << line << std::endl;
            };
        record = probe::run_probe(probe_options);
        if (!options.raw_directory.empty()) {
            probe::write_probe_record(record, options.raw_directory);
            run = (std::filesystem::path(options.raw_directory) / probe::probe_raw_file_name)
                      .string();
            std::cerr << "kerncast probe: raw series written to " << run << "\n";
        } else {
            run = "kerncast probe on " + record.host + " at " + record.date +
                  " (raw series not kept; use --raw DIR)";
        }
    }
    const probe::ProbeAnalysis analysis = probe::analyse_probe_record(record);
    if (!options.machine_path.empty()) {
        write_machine_file(probe::machine_from_probe(analysis, run), options.machine_path);
    }
    emit(probe::probe_view(analysis), options.output);
}

void setup_probe(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "probe",
        "GPU: measure this GPU's memory topology and write a machine file (docs/probe.md)");
    auto options = std::make_shared<ProbeCliOptions>();
    cmd->add_option("--only", options->only,
                    "Comma-separated groups to measure: clock,l1,texture,readonly,constant,"
                    "shared,l2,dram,sharing,bandwidth,mwp,carveout,tlb,launch (default: all)")
        ->type_name("GROUPS");
    cmd->add_option("-o,--output", options->machine_path, "Write the machine file here")
        ->type_name("FILE");
    auto* raw = cmd->add_option("--raw", options->raw_directory,
                                "Write the raw series (raw.json) into this directory")
                    ->type_name("DIR");
    auto* replay = cmd->add_option("--replay", options->replay_directory,
                                   "Analyse a recorded run (a --raw directory or its raw.json) "
                                   "instead of measuring; needs no GPU")
                       ->type_name("DIR");
    auto* device = cmd->add_option("--device", options->device, "CUDA device ordinal")
                       ->check(whole_number_at_least(0));
    auto* repetitions = cmd->add_option("--repetitions", options->repetitions,
                                        "Independent repetitions of size searches and latencies")
                            ->check(CLI::Range(1, 100));
    auto* carveout = cmd->add_option("--carveout", options->carveout_percent,
                                     "Shared-memory carve-out in percent for the chase kernels "
                                     "(0 = largest L1)")
                         ->check(CLI::Range(0, 100));
    auto* only = cmd->get_option("--only");
    for (auto* live_only : {raw, device, repetitions, carveout, only})
        replay->excludes(live_only);
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        // The replay directory (or raw.json) is read; --raw DIR is written by the live run.
        options->output.input_directories = {options->replay_directory};
        std::vector<OutputPath> outputs = output_paths(options->output);
        outputs.push_back({"-o", options->machine_path});
        if (!options->raw_directory.empty())
            outputs.push_back({"--raw", (std::filesystem::path(options->raw_directory) /
                                         probe::probe_raw_file_name)
                                            .string()});
        refuse_clobbering(outputs, {}, options->output.input_directories);
        run(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(800, setup_probe);

} // namespace kerncast::cli
