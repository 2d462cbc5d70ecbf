// kerncast mwp-fit: MWP-CWP's memory parameters (Mem_LD, departure delays) fitted to timed
// micro-benchmark runs (Hong & Kim 2009, sec. 5.1; docs/mwp-cwp.md, "Fitting the parameters").
#include "commands.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/parameter_fit.hpp"
#include "kerncast/models/mwp_cwp/parameter_fit_view.hpp"
#include "kerncast/validate/mwp_fit_samples.hpp"
#include "kerncast/validate/record_kernel_files.hpp"

#include <memory>
#include <optional>

namespace kerncast::cli {
namespace {

struct MwpFitCommandOptions {
    std::vector<std::string> kernel_paths; // empty: the files the records name
    std::string records_directory;
    std::string machine;
    bool cross_validate = false;
    OutputOptions output;
};

void run_mwp_fit(const MwpFitCommandOptions& o) {
    const MachineModel machine = resolve_machine(o.machine);
    const auto records = runtime::load_measurement_directory(o.records_directory);
    const std::vector<std::string> paths =
        validate::record_kernel_files(o.kernel_paths, "", records);
    std::vector<kernel::KernelSpec> specs;
    for (const auto& path : paths)
        specs.push_back(kernel::load_kernel_file(path));
    std::vector<std::string> skipped;
    const auto progress = make_progress_bar("mwp-fit: predicting", "records");
    const auto samples = validate::mwp_fit_samples(
        records, specs, machine, skipped,
        [&progress](std::size_t done, std::size_t total) { progress->update(done, total); });
    progress->finish();
    const models::mwp_cwp::MwpFit fit = models::mwp_cwp::fit_mwp_parameters(samples, machine);
    std::optional<models::mwp_cwp::MwpCrossValidation> validation;
    if (o.cross_validate)
        validation = models::mwp_cwp::cross_validate_mwp_fit(samples, machine);
    emit(models::mwp_cwp::mwp_fit_view(fit, machine.identity.id, skipped,
                                       validation ? &*validation : nullptr),
         o.output);
}

void setup_mwp_fit(CLI::App& app) {
    auto options = std::make_shared<MwpFitCommandOptions>();
    auto* cmd = app.add_subcommand(
        "mwp-fit", "Fit MWP-CWP's Mem_LD and departure delays to timed micro-benchmark runs");
    cmd->add_option("KERNEL", options->kernel_paths,
                    "Kernel files of the records (default: the files the records name)");
    cmd->add_option("--records", options->records_directory,
                    "Directory of measurement records (*.json) with times")
        ->required()
        ->type_name("DIR");
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required()
        ->type_name("MACHINE");
    cmd->add_flag("--cross-validate", options->cross_validate,
                  "Also fit each half of the kernels and report the other half's errors (two "
                  "halves by kernel)");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        options->output.inputs = options->kernel_paths;
        options->output.inputs.push_back(options->machine);
        options->output.input_directories = {options->records_directory};
        refuse_clobbering(output_paths(options->output), options->output.inputs,
                          options->output.input_directories);
        run_mwp_fit(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(310, setup_mwp_fit);

} // namespace kerncast::cli
