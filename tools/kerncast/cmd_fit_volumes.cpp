// kerncast fit-volumes: fit a machine's capacity-miss curves (Ernst et al. 2023, sec. 4.5) to
// the volumes measured in a directory of records, cross-validate, and write the machine with
// the fitted coefficients and their provenance (docs/volume-model.md, "Fitting the capacity
// curves").
#include "commands.hpp"
#include "kerncast/closest_names.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/volumes/capacity_fitting.hpp"
#include "kerncast/models/volumes/capacity_fitting_view.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/validate/volume_samples.hpp"
#include "launch_options.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <memory>
#include <sstream>

namespace kerncast::cli {

namespace {

namespace fs = std::filesystem;

struct FitVolumesOptions {
    RecordReplayOptions replay;
    std::string output_path;
    std::string fits;
    std::string registers;
    bool fit_asymptote = false;
    OutputOptions output;
};

// "l1_redundant_loads,z_layer_overlap" -> kinds; empty text = all.
std::vector<models::CapacityFitKind> parse_fits(const std::string& text) {
    std::vector<models::CapacityFitKind> kinds;
    if (text.empty())
        return kinds;
    std::vector<std::string> names;
    for (int k = 0; k < models::capacity_fit_kinds; ++k)
        names.emplace_back(models::capacity_fit_name(static_cast<models::CapacityFitKind>(k)));
    std::stringstream list(text);
    for (std::string name; std::getline(list, name, ',');) {
        const auto kind = models::capacity_fit_kind(name);
        if (!kind) {
            std::vector<std::string> notes;
            const auto close = closest_names(name, names, 1);
            if (!close.empty())
                notes.push_back("did you mean '" + close.front() + "'?");
            notes.push_back(fmt::format("fits: {}", fmt::join(names, ", ")));
            throw_usage_error("--fits: unknown capacity fit '" + name + "'", notes);
        }
        if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end())
            kinds.push_back(*kind);
    }
    return kinds;
}

// -o must not name one of the inputs.
void refuse_overwriting_inputs(const std::string& output, const std::vector<std::string>& inputs) {
    std::error_code error;
    if (!fs::exists(output, error))
        return;
    if (fs::is_directory(output))
        throw_usage_error("-o: '" + output + "' is a directory; give the machine file to write");
    for (const auto& input : inputs)
        if (fs::exists(input, error) && fs::equivalent(output, input, error))
            throw_usage_error("-o: '" + output + "' is an input of this fit (" + input +
                                  "); fit-volumes does not overwrite its inputs",
                              {"write the fitted machine to a new file"});
}

void run_fit_volumes(const FitVolumesOptions& o) {
    models::CapacityFitOptions options;
    options.fits = parse_fits(o.fits);
    options.fit_asymptote = o.fit_asymptote;
    check_max_iterations(o.replay);
    options.max_iterations = o.replay.max_iterations;
    const models::RegisterRequest registers =
        models::parse_register_request(o.registers, "--registers");

    const MachineText machine_text = resolve_machine_text(o.replay.machine);
    const MachineModel machine = parse_machine_json(machine_text.text, machine_text.origin);
    const ReplayedRecords replayed = load_replayed_records(o.replay);
    const std::vector<runtime::LoadedRecord>& records = replayed.records;
    const std::string& dataset_path = replayed.dataset_path; // the directories, as given
    const std::vector<std::string>& paths = replayed.kernel_paths;
    if (!o.output_path.empty()) {
        std::vector<std::string> inputs = paths;
        for (const auto& record : records)
            inputs.push_back(record.path);
        if (fs::is_regular_file(o.replay.machine))
            inputs.push_back(o.replay.machine);
        refuse_overwriting_inputs(o.output_path, inputs);
    }
    std::vector<kernel::KernelSpec> kernels;
    for (const auto& path : paths)
        kernels.push_back(kernel::load_kernel_file(path));

    const auto progress = make_progress_bar("fit-volumes: analysing", "records");
    const validate::RecordSamples samples = validate::record_volume_samples(
        records, kernels, machine, registers,
        [&progress](std::size_t done, std::size_t total) { progress->update(done, total); });
    progress->finish();
    if (samples.samples.empty()) {
        std::vector<std::string> notes = samples.notes;
        throw_input_error("no record in " + dataset_path +
                              " gives a measured volume of the given kernels",
                          SourceLocation{}, notes);
    }
    options.source_key = models::unused_source_key(machine, "fit-volumes");
    const models::CapacityFitResult fit = models::fit_capacity_curves(
        samples.samples, machine.capacity_fits, machine.identity.id, options);
    const models::CrossValidation validation = models::cross_validate_capacity_fits(
        samples.samples, machine.capacity_fits, machine.identity.id, options);

    std::vector<std::string> notes = samples.notes;
    if (!o.output_path.empty()) {
        models::FitDataset dataset;
        dataset.path = dataset_path;
        dataset.records_sha256 = validate::dataset_sha256(records);
        dataset.records = static_cast<int>(samples.records.size());
        for (const auto& record : records)
            if (record.measurement.published() &&
                std::find(samples.records.begin(), samples.records.end(), record.path) !=
                    samples.records.end())
                ++dataset.published_records;
        dataset.date = runtime::iso8601_utc_now();
        dataset.kerncast_version = KERNCAST_VERSION;
        const MachineModel fitted =
            models::machine_with_fits(machine, fit, validation, dataset, options.source_key);
        const std::string layout_note = write_derived_machine(machine_text, fitted, o.output_path);
        notes.push_back("wrote " + o.output_path + ": machine '" + fitted.identity.id +
                        "' with the fitted coefficients under the source '" +
                        models::fitted_source_key(fitted, fit) + "'");
        notes.push_back(layout_note);
    }
    emit(models::fit_volumes_view(samples.samples, fit, validation, machine.identity.id, notes),
         o.output);
}

void setup_fit_volumes(CLI::App& app) {
    auto options = std::make_shared<FitVolumesOptions>();
    auto* cmd = app.add_subcommand(
        "fit-volumes", "Fit a machine's capacity-miss curves to measured data volumes (Ceres)");
    add_record_replay_options(
        *cmd, options->replay,
        "Measurement records (*.json) with DRAM/L2 volume counters (repeatable)");
    cmd->add_option("-o,--output", options->output_path,
                    "Write the machine with the fitted curves and their provenance to FILE")
        ->type_name("FILE");
    cmd->add_option("--fits", options->fits,
                    "Fits to determine (default all): l1_redundant_loads, y_layer_overlap, "
                    "z_layer_overlap, l2_redundant_stores, l2_redundant_loads")
        ->type_name("LIST");
    cmd->add_flag("--fit-asymptote", options->fit_asymptote,
                  "Fit a too (the paper's three coefficients); by default a = 1 and only b and c "
                  "are fitted");
    cmd->add_option("--registers", options->registers,
                    "Registers per thread for occupancy: N, or 'auto' (ptxas); default the "
                    "record's, else the kernel file's registers_per_thread")
        ->type_name("N|auto");
    add_max_iterations_option(*cmd, options->replay.max_iterations);
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        set_replay_inputs(options->replay, options->output);
        options->output.inputs.push_back(options->replay.machine);
        run_fit_volumes(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(730, setup_fit_volumes);

} // namespace kerncast::cli
