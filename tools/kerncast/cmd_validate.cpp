// kerncast validate: the volume model's predictions next to measurements of the generated
// kernel, from recorded measurements (--records) or by running a sweep on the GPU
// (docs/codegen.md, "kerncast validate").
#include "commands.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/mwp_record_predictions.hpp"
#include "kerncast/validate/record_binding.hpp"
#include "kerncast/validate/sweep.hpp"
#include "kerncast/validate/volume_predictions.hpp"
#include "launch_options.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace kerncast::cli {

namespace {

struct ValidateOptions {
    std::vector<std::string> kernel_paths; // several only with --records
    std::string machine;
    std::string sweep = "default";
    std::string records_directory;
    std::string save_directory;
    std::string tie_break = "next-limit";
    std::vector<std::string> defines;
    std::string mwp_variant; // empty: the volume model predicts
    runtime::TimingOptions timing;
    bool timing_given = false; // --repeat, --warmup or --l2-flush on the command line
    OutputOptions output;
};

// Runs each launch on the GPU and appends its record; records are written to save_directory
// when given.
void measure_launches(const kernel::KernelSpec& spec, const ValidateOptions& o,
                      const std::vector<kernel::LaunchConfig>& sweep,
                      const kernel::ParameterOverrides& overrides,
                      const codegen::SourceOrigin& origin,
                      std::vector<runtime::LoadedRecord>& records) {
    for (const auto& launch : sweep) {
        const kernel::BoundKernel bound = analysis::bind(
            analysis::analyze(analysis::staging_judged_at(spec, overrides), launch), overrides);
        const codegen::Schedule schedule = codegen::lower_kernel(bound);
        const codegen::GeneratedKernel generated = codegen::generate_cuda(schedule, origin);
        const runtime::TimingRequest request =
            codegen::timing_request(generated, spec.name + ".cu", o.timing);
        runtime::RunContext context = codegen::run_context(schedule, generated, origin);
        context.date_utc = runtime::iso8601_utc_now();
        context.command_line = own_command_line();
        const runtime::TimedRun run = runtime::time_kernel(request);
        runtime::LoadedRecord record;
        record.measurement = runtime::make_measurement(request, run, context);
        const std::string label = runtime::configuration_label(record.measurement.kernel);
        record.path = "(measured) " + label;
        if (!o.save_directory.empty()) {
            std::string file_name = spec.name;
            for (int a = 0; a < kernel::axis_count; ++a)
                file_name += "_" + std::to_string(generated.block[static_cast<size_t>(a)]);
            for (int a = 0; a < kernel::axis_count; ++a)
                file_name += "_" + std::to_string(generated.fold[static_cast<size_t>(a)]);
            if (kernel::strided_fold({generated.block, generated.fold, generated.fold_placement}))
                file_name += "_strided";
            record.path =
                (std::filesystem::path(o.save_directory) / (file_name + ".json")).string();
            runtime::write_measurement_file(record.measurement, record.path);
        }
        std::cerr << "kerncast: " << label << ": " << record.measurement.results.median_s * 1e3
                  << " ms\n";
        records.push_back(std::move(record));
    }
}

// Runs every configuration of the sweep on the GPU; a --save directory it made is removed
// again when the first run fails.
std::vector<runtime::LoadedRecord> measure_sweep(const kernel::KernelSpec& spec,
                                                 const ValidateOptions& o) {
    const std::string& kernel_path = o.kernel_paths.front();
    const std::vector<kernel::LaunchConfig> sweep =
        o.sweep == "default" ? validate::default_sweep(spec) : validate::read_sweep_file(o.sweep);
    const auto overrides = kernel::parse_parameter_defines(o.defines);
    const codegen::SourceOrigin origin{kernel_path, sha256_file_hex(kernel_path)};
    std::vector<runtime::LoadedRecord> records;
    if (o.save_directory.empty())
        measure_launches(spec, o, sweep, overrides, origin, records);
    else
        with_output_directory(o.save_directory, "--save", [&] {
            measure_launches(spec, o, sweep, overrides, origin, records);
        });
    return records;
}

void run_validate(const ValidateOptions& o) {
    std::vector<kernel::KernelSpec> specs;
    for (const auto& path : o.kernel_paths)
        specs.push_back(kernel::load_kernel_file(path));
    const MachineModel machine = resolve_machine(o.machine);
    if (o.timing.repetitions < 1)
        throw_usage_error("--repeat must be at least 1");
    if (o.timing.warmup < 0)
        throw_usage_error("--warmup must not be negative");
    std::vector<runtime::LoadedRecord> records;
    if (!o.records_directory.empty()) {
        if (!o.defines.empty() || o.sweep != "default" || !o.save_directory.empty() ||
            o.timing_given)
            throw_usage_error("--records replays recorded runs: -D, --sweep, --repeat, --warmup, "
                              "--l2-flush and --save belong to the live mode");
        records = runtime::load_measurement_directory(o.records_directory);
        for (std::size_t i = 0; i < specs.size(); ++i)
            for (const auto& warning :
                 validate::kernel_file_mismatches(specs[i], o.kernel_paths[i], records))
                std::cerr << "kerncast: warning: " << warning << "\n";
    } else {
        if (specs.size() != 1)
            throw_usage_error("the live mode runs one kernel file; several kernel files need "
                              "--records");
        records = measure_sweep(specs.front(), o);
    }
    const auto progress = make_progress_bar("validate", "records");
    const validate::PredictionSource predict =
        o.mwp_variant.empty()
            ? validate::volume_model_predictions(specs, machine)
            : validate::mwp_record_predictions(
                  specs, machine, models::mwp_cwp::parse_variant(o.mwp_variant, "--mwp-model"));
    std::size_t predicted = 0;
    const validate::ValidationReport report =
        validate::validate_predictions(records, [&](const runtime::KernelRecord& record) {
            auto prediction = predict(record);
            if (prediction && o.tie_break == "none")
                prediction->tie_break_s = 0; // equal forecasts tie
            progress->update(++predicted, records.size());
            return prediction;
        });
    progress->finish();
    emit(validate::validation_view(report), o.output);
}

void setup_validate(CLI::App& app) {
    auto options = std::make_shared<ValidateOptions>();
    auto* cmd = app.add_subcommand(
        "validate", "Predicted vs measured volumes and times of a kernel file's configurations");
    cmd->add_option("KERNEL", options->kernel_paths,
                    "Kernel file (YAML, docs/kernel-format.md); with --records several, each "
                    "record predicted by the one whose kernel name it has")
        ->required();
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required();
    cmd->add_option("--records", options->records_directory,
                    "Validate against the measurement records (*.json) in DIR instead of "
                    "running (no GPU needed)")
        ->type_name("DIR");
    cmd->add_option("--sweep", options->sweep,
                    "Live mode: 'default' (Ernst et al. 5.1 block sizes of 256 threads x "
                    "folds none/2y/2z) or a FILE of 'BLOCK [FOLD]' lines")
        ->type_name("default|FILE");
    add_define_option(*cmd, options->defines, "Live mode");
    const CLI::Option* repeat =
        cmd->add_option("--repeat", options->timing.repetitions,
                        "Live mode: timed launches per configuration (default 10)")
            ->type_name("N");
    const CLI::Option* warmup =
        cmd->add_option("--warmup", options->timing.warmup,
                        "Live mode: untimed launches per configuration first (default 3; 0 with "
                        "--repeat 1 launches each configuration once, e.g. under ncu)")
            ->type_name("N");
    const CLI::Option* l2_flush = cmd->add_flag("--l2-flush", options->timing.l2_flush,
                                                "Live mode: flush L2 between repetitions");
    cmd->add_option("--save", options->save_directory,
                    "Live mode: also write each configuration's measurement record to DIR")
        ->type_name("DIR");
    cmd->add_option("--mwp-model", options->mwp_variant,
                    "Predict with MWP-CWP (Hong & Kim 2009), classic or cache-aware, instead of "
                    "the volume model: times and throughputs only, no counters")
        ->type_name("classic|cache-aware");
    cmd->add_option("--tie-break", options->tie_break,
                    "How the rankings order configurations of equal predicted time: by the "
                    "next-largest limit (default), or none (they tie; docs/accuracy.md)")
        ->type_name("next-limit|none")
        ->check(CLI::IsMember({"next-limit", "none"}));
    add_output_options(*cmd, options->output);
    cmd->callback([options, repeat, warmup, l2_flush] {
        options->timing_given = repeat->count() + warmup->count() + l2_flush->count() > 0;
        options->output.inputs = options->kernel_paths;
        options->output.inputs.push_back(options->machine);
        options->output.inputs.push_back(options->sweep);
        options->output.input_directories = {options->records_directory, options->save_directory};
        refuse_clobbering(output_paths(options->output), options->output.inputs,
                          options->output.input_directories);
        run_validate(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(720, setup_validate);

} // namespace kerncast::cli
