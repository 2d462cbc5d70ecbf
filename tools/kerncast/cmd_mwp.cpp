// kerncast mwp: the MWP-CWP model (Hong & Kim 2009) for one workload on one machine.
#include "commands.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp.hpp"
#include "kerncast/models/mwp_view.hpp"
#include "kerncast/models/workload.hpp"

#include <memory>

namespace kerncast::cli {
namespace {

struct MwpCommandOptions {
    std::string workload_path;
    std::string machine;
    models::MwpCwpOptions model;
    OutputOptions output;
};

void setup_mwp(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "mwp", "MWP-CWP breakdown (Hong & Kim 2009): every intermediate of Table 2 and the total");
    auto options = std::make_shared<MwpCommandOptions>();
    cmd->add_option("--workload", options->workload_path,
                    "Workload file (JSON, kerncast.workload/1; docs/mwp-cwp.md)")
        ->required()
        ->type_name("FILE");
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required()
        ->type_name("MACHINE");
    cmd->add_flag("--paper-rounding", options->model.paper_rounding,
                  "Round MWP to two decimals, as Table 2 printed it, in (22), (23) and (26)");
    cmd->add_flag("--rep-ceiling", options->model.rep_ceiling,
                  "Round #Rep (21) up to whole waves of blocks");
    cmd->add_flag("--synch-bounded", options->model.synch_bounded_by_block_warps,
                  "Use min(MWP, warps per block) in the synchronisation cost (26)");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        options->output.inputs = {options->workload_path, options->machine};
        refuse_clobbering(output_paths(options->output), options->output.inputs);
        const MachineModel machine = resolve_machine(options->machine);
        const models::Workload workload = models::load_workload_file(options->workload_path);
        emit(models::mwp_view(models::predict_mwp_cwp(workload, machine, options->model)),
             options->output);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(300, setup_mwp);

} // namespace kerncast::cli
