// kerncast mwp: the MWP-CWP model (Hong & Kim 2009) for a workload file, or for a kernel file
// whose workload it derives (classic or cache-aware).
#include "commands.hpp"
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_mwp_view.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/mwp_cwp/mwp_view.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "launch_options.hpp"

#include <memory>

namespace kerncast::cli {
namespace {

struct MwpCommandOptions {
    std::string workload_path;
    std::string kernel_path;
    std::string machine;
    LaunchOptions launch;
    std::string registers;
    std::string variant = "classic";
    models::MwpCwpOptions model;
    OutputOptions output;
};

void run_kernel_mwp(const MwpCommandOptions& o, const MachineModel& machine) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    const auto overrides = parameter_overrides(o.launch);
    models::mwp_cwp::KernelMwpOptions options;
    options.variant = models::mwp_cwp::parse_variant(o.variant, "--mwp-model");
    options.model = o.model;
    const models::RegisterRequest request =
        models::parse_register_request(o.registers, "--registers");
    if (const auto fixed = models::fixed_register_count(request, spec))
        options.registers = *fixed;
    else
        options.registers = codegen::RegisterCounter(spec, overrides, machine).count(launch);
    emit(models::mwp_cwp::kernel_mwp_view(
             models::mwp_cwp::predict_kernel_mwp(spec, launch, overrides, machine, options)),
         o.output);
}

void setup_mwp(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "mwp", "MWP-CWP breakdown (Hong & Kim 2009): every intermediate of Table 2 and the total");
    auto options = std::make_shared<MwpCommandOptions>();
    cmd->add_option("KERNEL", options->kernel_path,
                    "Kernel file (YAML, docs/kernel-format.md): derive the workload from it")
        ->type_name("KERNEL");
    cmd->add_option("--workload", options->workload_path,
                    "Workload file (JSON, kerncast.workload/1; docs/mwp-cwp.md) instead of a "
                    "kernel file")
        ->type_name("FILE");
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required()
        ->type_name("MACHINE");
    add_launch_options(*cmd, options->launch, "Kernel file");
    cmd->add_option("--registers", options->registers,
                    "Kernel file: registers per thread for occupancy: N (0: not limiting), or "
                    "auto: ptxas's count (NVRTC), also over the kernel file's; without it the "
                    "kernel file's registers_per_thread")
        ->type_name("N|auto");
    cmd->add_option("--mwp-model", options->variant,
                    "Kernel file: classic (Hong & Kim) or cache-aware (average latency and "
                    "bandwidth bounds over L1, L2 and DRAM from the volume model)")
        ->type_name("classic|cache-aware");
    cmd->add_flag("--paper-rounding", options->model.paper_rounding,
                  "Round MWP to two decimals, as Table 2 printed it, in (22), (23) and (26)");
    cmd->add_flag("--rep-ceiling", options->model.rep_ceiling,
                  "Round #Rep (21) up to whole waves of blocks");
    cmd->add_flag("--synch-bounded", options->model.synch_bounded_by_block_warps,
                  "Use min(MWP, warps per block) in the synchronisation cost (26)");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        const bool kernel = !options->kernel_path.empty();
        if (kernel == !options->workload_path.empty())
            throw_usage_error("give a kernel file or --workload FILE (one of them)");
        if (!kernel && (any_given(options->launch) || !options->registers.empty() ||
                        options->variant != "classic"))
            throw_usage_error("-D, --block, --fold, --registers and --mwp-model apply to a "
                              "kernel file, not to --workload");
        options->output.inputs = {kernel ? options->kernel_path : options->workload_path,
                                  options->machine};
        refuse_clobbering(output_paths(options->output), options->output.inputs);
        const MachineModel machine = resolve_machine(options->machine);
        if (kernel) {
            run_kernel_mwp(*options, machine);
            return;
        }
        const models::Workload workload = models::load_workload_file(options->workload_path);
        emit(models::mwp_view(models::predict_mwp_cwp(workload, machine, options->model)),
             options->output);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(300, setup_mwp);

} // namespace kerncast::cli
