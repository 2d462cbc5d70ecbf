// kerncast calibrate: fit a cost model's parameters (Stevens & Klöckner, sec. 7.2) to the times
// in a directory of measurement records, report the residual and per-kernel errors, and write
// the machine with the calibrated parameters and their provenance (docs/model-format.md).
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/calibrated/calibrated_machine.hpp"
#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/calibration_view.hpp"
#include "kerncast/models/volumes/capacity_fitting.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/validate/cost_model_samples.hpp"
#include "kerncast/validate/volume_samples.hpp"
#include "launch_options.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>

namespace kerncast::cli {

namespace {

namespace fs = std::filesystem;
namespace cal = models::calibrated;

struct CalibrateOptions {
    std::string model_path;
    RecordReplayOptions replay;
    std::string output_path;
    bool absolute = false;
    bool non_negative = false;
    bool write_undetermined = false;
    bool cross_validate = false;
    OutputOptions output;
};

void run_calibrate(const CalibrateOptions& o) {
    check_max_iterations(o.replay);
    const cal::CostModel model = cal::load_cost_model(o.model_path);
    const MachineText machine_text = resolve_machine_text(o.replay.machine);
    const MachineModel machine = parse_machine_json(machine_text.text, machine_text.origin);
    const ReplayedRecords replayed = load_replayed_records(o.replay);
    const std::vector<runtime::LoadedRecord>& records = replayed.records;
    const std::string& dataset_path = replayed.dataset_path;
    const std::vector<std::string>& paths = replayed.kernel_paths;
    if (!o.output_path.empty()) {
        std::vector<std::string> inputs = paths;
        inputs.push_back(o.model_path);
        inputs.push_back(o.replay.machine);
        for (const auto& record : records)
            inputs.push_back(record.path);
        refuse_clobbering({{"-o", o.output_path}}, inputs, o.replay.records_directories);
    }
    std::vector<kernel::KernelSpec> kernels;
    for (const auto& path : paths)
        kernels.push_back(kernel::load_kernel_file(path));
    const auto progress = make_progress_bar("calibrate: features", "records");
    const validate::CostModelSamples samples = validate::cost_model_samples(
        model, records, kernels,
        [&progress](std::size_t done, std::size_t total) { progress->update(done, total); });
    progress->finish();
    if (samples.samples.empty())
        throw_input_error("no record in " + dataset_path +
                              " gives a measured time of the given kernels",
                          SourceLocation{}, samples.notes);
    cal::CalibrationOptions options;
    options.relative_error = !o.absolute;
    options.non_negative = o.non_negative;
    options.max_iterations = o.replay.max_iterations;
    const cal::CalibrationResult result = cal::calibrate(model, samples.samples, options);
    std::optional<cal::CalibrationCrossValidation> validation;
    if (o.cross_validate)
        validation = cal::cross_validate_calibration(model, samples.samples, options);
    const cal::CalibrationCrossValidation* shown = validation ? &*validation : nullptr;

    std::vector<std::string> notes = samples.notes;
    // Parameters the measurements did not fix are not written as calibrated values.
    std::string unfixed;
    for (const auto& p : result.parameters)
        if (p.status == cal::ParameterStatus::undetermined ||
            p.status == cal::ParameterStatus::not_separable)
            unfixed += (unfixed.empty() ? "" : ", ") + p.name + " (" +
                       cal::parameter_status_name(p.status) + ")";
    if (!o.output_path.empty() && !unfixed.empty() && !o.write_undetermined) {
        emit(cal::calibration_view(model, samples.samples, result, notes, shown), o.output);
        throw_input_error("'" + o.output_path + "' was not written: the " +
                              std::to_string(samples.samples.size()) +
                              " records do not determine " + unfixed + " (the notes above say why)",
                          SourceLocation{},
                          {"measure more kernels or configurations, or --write-undetermined "
                           "to write the values anyway"});
    }
    if (!o.output_path.empty()) {
        cal::CalibrationDataset dataset;
        dataset.path = dataset_path;
        dataset.records_sha256 = validate::dataset_sha256(records);
        dataset.records = static_cast<int>(samples.records.size());
        dataset.published_records = samples.published_records;
        dataset.date = runtime::iso8601_utc_now();
        dataset.kerncast_version = KERNCAST_VERSION;
        const std::string source_key =
            models::unused_source_key(machine, cal::calibration_source_base(model.name));
        const MachineModel calibrated =
            cal::machine_with_calibration(machine, model, result, dataset, source_key);
        const std::string layout_note =
            write_derived_machine(machine_text, calibrated, o.output_path);
        const std::string written_key =
            calibrated.calibrated_costs
                .at(cal::calibrated_cost_key(model.name, result.parameters.front().name))
                .source;
        notes.push_back("wrote " + o.output_path + ": machine '" + calibrated.identity.id +
                        "' with the parameters of model '" + model.name + "' as calibrated_costs " +
                        model.name + ".<parameter> under the source '" + written_key + "'");
        notes.push_back(layout_note);
    }
    emit(cal::calibration_view(model, samples.samples, result, notes, shown), o.output);
}

void setup_calibrate(CLI::App& app) {
    auto options = std::make_shared<CalibrateOptions>();
    auto* cmd = app.add_subcommand(
        "calibrate", "Calibrate a cost model's parameters to measured times (Stevens & Klöckner)");
    cmd->add_option("MODEL", options->model_path, "Model file (YAML, docs/model-format.md)")
        ->required();
    add_record_replay_options(*cmd, options->replay,
                              "Measurement records (*.json) with times (repeatable)");
    cmd->add_option("-o,--output", options->output_path,
                    "Write the machine with the calibrated parameters and their provenance")
        ->type_name("FILE");
    cmd->add_flag("--write-undetermined", options->write_undetermined,
                  "With -o: write the machine even when the records leave parameters "
                  "undetermined or not separable (refused otherwise)");
    cmd->add_flag("--absolute", options->absolute,
                  "Minimise absolute errors g - t instead of relative ones (g - t) / t");
    cmd->add_flag("--non-negative", options->non_negative,
                  "Keep every parameter without its own min at >= 0 (costs)");
    cmd->add_flag("--cross-validate", options->cross_validate,
                  "Also calibrate on each half of the kernels and report the other half's "
                  "errors (two halves by kernel)");
    add_max_iterations_option(*cmd, options->replay.max_iterations);
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        set_replay_inputs(options->replay, options->output);
        options->output.inputs.push_back(options->model_path);
        options->output.inputs.push_back(options->replay.machine);
        std::error_code error;
        if (!options->output_path.empty() && fs::is_directory(options->output_path, error))
            throw_usage_error("-o: '" + options->output_path +
                              "' is a directory; give the machine file to write");
        std::vector<OutputPath> outputs = output_paths(options->output);
        outputs.push_back({"-o", options->output_path});
        refuse_clobbering(outputs, options->output.inputs, options->output.input_directories);
        run_calibrate(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(745, setup_calibrate);

} // namespace kerncast::cli
