// kerncast predict: data volumes, L1 cycles and limiters of one launch configuration
// (Ernst et al. 2023; docs/volume-model.md).
#include "commands.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/calibrated/calibration_view.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/models/calibrated/model_prediction.hpp"
#include "kerncast/models/mwp_cwp/kernel_mwp_view.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"
#include "kerncast/models/prediction/model_times.hpp"
#include "kerncast/models/prediction/model_times_view.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/prediction/unknown_registers.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/volume_view.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "launch_options.hpp"

#include <memory>

namespace kerncast::cli {

namespace {

struct PredictOptions {
    std::string kernel_path;
    std::string machine;
    LaunchOptions launch;
    std::string registers;
    bool linear = false;
    bool explain = false;   // --explain: the volume model's stages on this machine
    std::string model_path; // --model: a calibrated cost model instead of the volume model
    OutputOptions output;
};

// --model: the calibrated cost model's prediction (Stevens & Klöckner sec. 7.3) with the
// machine's calibrated parameters (docs/model-format.md).
void run_model_predict(const PredictOptions& o) {
    const models::calibrated::CostModel model = models::calibrated::load_cost_model(o.model_path);
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const MachineModel machine = resolve_machine(o.machine);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    const kernel::ParameterOverrides values = parameter_overrides(o.launch);
    const analysis::KernelAnalysis analysis =
        analysis::analyze(analysis::staging_judged_at(spec, values), launch);
    const kernel::BoundKernel bound = analysis::bind(analysis, values);
    analysis::check_fold_within_domain(bound);
    kernel::check_grid_limits(bound);
    emit(models::calibrated::model_prediction_view(
             models::calibrated::predict_with_model(model, analysis, bound, machine)),
         o.output);
}

void run_predict(const PredictOptions& o) {
    if (!o.model_path.empty()) {
        if (!o.registers.empty() || o.linear || o.explain)
            throw_usage_error("--registers, --linear-addresses and --explain are options of the "
                              "volume model; a cost model (--model) does not use them");
        run_model_predict(o);
        return;
    }
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const MachineModel machine = resolve_machine(o.machine);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    const models::RegisterRequest registers =
        models::parse_register_request(o.registers, "--registers");
    const auto overrides = parameter_overrides(o.launch);
    models::VolumeOptions options;
    // ptxas compiles only once the launch is valid
    const models::RegistersForLaunch ptxas_registers =
        models::launch_registers(registers, spec, overrides, machine, options.registers);
    options.linear_addresses = o.linear;
    // Analysed and bound once; every model below forecasts from it.
    const models::AnalysedLaunch analysed =
        models::analyse_launch(spec, launch, overrides, machine);
    const models::VolumePrediction volumes =
        models::predict_launch(analysed, machine, options, ptxas_registers);
    report::Document document = models::predict_view(volumes, spec.name, machine.identity.id);
    if (const auto warning = models::unknown_registers_warning(
            spec, launch, overrides, machine, options, volumes, "this launch", &analysed))
        document.notes.insert(document.notes.begin(), *warning);
    document.tables.push_back(
        models::model_times_table(models::model_times(analysed, machine, volumes)));
    if (o.explain)
        document.tables.push_back(models::volume_stages_table(models::plan_volume_stages(machine)));
    emit(document, o.output);
}

void setup_predict(CLI::App& app) {
    auto options = std::make_shared<PredictOptions>();
    auto* cmd = app.add_subcommand(
        "predict", "Data volumes, L1 cycles and limiters of one launch configuration");
    cmd->add_option("KERNEL", options->kernel_path, "Kernel file (YAML, docs/kernel-format.md)")
        ->required();
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required();
    add_launch_options(*cmd, options->launch);
    cmd->add_option("--registers", options->registers,
                    "Registers per thread for occupancy: N (0: not limiting), or auto: ptxas's "
                    "count (NVRTC), also over the kernel file's; without it the kernel file's "
                    "registers_per_thread")
        ->type_name("N|auto");
    cmd->add_flag("--linear-addresses", options->linear,
                  "Count footprints in linear byte addresses");
    cmd->add_flag("--explain", options->explain,
                  "Add a table of the volume model's stages on this machine: which run, with "
                  "which machine values, and what stands in for those that do not");
    cmd->add_option("--model", options->model_path,
                    "Predict with a calibrated cost model (docs/model-format.md) and the "
                    "machine's calibrated parameters instead of the volume model")
        ->type_name("MODEL");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        options->output.inputs = {options->kernel_path, options->machine, options->model_path};
        refuse_clobbering(output_paths(options->output), options->output.inputs);
        run_predict(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(400, setup_predict);

} // namespace kerncast::cli
