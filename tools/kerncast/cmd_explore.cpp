// kerncast explore: rank block sizes and foldings by predicted throughput (Ernst et al. 2023,
// sec. 5.1, 5.8; docs/volume-model.md).
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/kernel/search_space.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"
#include "kerncast/models/prediction/unknown_registers.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/shortlist.hpp"
#include "kerncast/models/volumes/volume_view.hpp"
#include "launch_options.hpp"
#include "number_options.hpp"

#include <algorithm>
#include <memory>

namespace kerncast::cli {

namespace {

struct ExploreCommandOptions {
    std::string kernel_path;
    std::string space_path;
    std::string machine;
    std::vector<std::string> defines;
    std::int64_t threads = 0; // 0: default_thread_counts
    std::string blocks;
    std::string folds;
    std::size_t top = 0;
    unsigned jobs = 0;
    std::string registers;
    double shortlist = 0;    // confidence; 0: no shortlist
    double error_spread = 0; // standard deviation of ln(measured / predicted)
    OutputOptions output;
};

// --shortlist and --error-spread go together; checked before any prediction.
void check_shortlist_options(const ExploreCommandOptions& o) {
    if (o.shortlist == 0 && o.error_spread == 0)
        return;
    if (o.shortlist == 0 || o.error_spread == 0)
        throw_usage_error("--shortlist CONFIDENCE needs --error-spread SPREAD, and --error-spread "
                          "belongs to --shortlist (docs/autotuning.md lists measured spreads)");
    (void)models::shortlist({}, o.error_spread, o.shortlist); // Usage Errors for bad values
}

void add_shortlist_if_asked(report::Document& document, const models::ExploreResult& result,
                            const ExploreCommandOptions& o) {
    if (o.shortlist > 0)
        models::add_shortlist(document, result, o.error_spread, o.shortlist);
}

// The ranking's document. Every configuration skipped: the table would list only reasons,
// which is no answer, so it is printed and `nothing_runs` (the error) thrown. With
// --json/--csv/--md/--report the whole table goes to the files; --top trims the text table.
report::Document ranking_document(const models::ExploreResult& result,
                                  const ExploreCommandOptions& o, const std::string& nothing_runs) {
    if (std::none_of(result.rows.begin(), result.rows.end(),
                     [](const models::ExploreRow& row) { return row.prediction.has_value(); })) {
        emit(models::explore_view(result, 0), o.output);
        throw_input_error(nothing_runs + " (the table lists why)");
    }
    const bool files = !o.output.json_path.empty() || !o.output.csv_path.empty() ||
                       !o.output.markdown_path.empty() || !o.output.report_path.empty();
    return models::explore_view(result, files ? 0 : o.top);
}

// explore --space FILE: every combination of a search space (docs/autotuning.md).
void run_explore_space(const ExploreCommandOptions& o) {
    check_shortlist_options(o);
    if (!o.kernel_path.empty() || !o.blocks.empty() || !o.folds.empty() || o.threads > 0)
        throw_usage_error("--space names the kernels, blocks and folds: KERNEL, --blocks, "
                          "--folds and --threads do not combine with it");
    const kernel::LoadedSearchSpace space = kernel::load_search_space_with_kernels(o.space_path);
    const MachineModel machine = resolve_machine(o.machine);
    const auto overrides = kernel::parse_parameter_defines(o.defines);
    const models::RegisterRequest request =
        models::parse_register_request(o.registers, "--registers");
    models::ExploreOptions options;
    options.registers_for_case = models::space_registers(request, space.kernels, machine,
                                                         &options.prepare_registers_for_case);
    options.jobs = o.jobs;
    const auto progress = make_progress_bar("explore", "configurations");
    options.progress = [&progress](std::size_t done, std::size_t total) {
        progress->update(done, total);
    };
    const auto result =
        models::explore_space(space.kernels, space.combinations, overrides, machine, options);
    progress->finish();
    report::Document document = ranking_document(
        result, o, "no combination of " + o.space_path + " can run on " + machine.identity.id);
    add_shortlist_if_asked(document, result, o);
    emit(document, o.output);
}

void run_explore(const ExploreCommandOptions& o) {
    if (!o.space_path.empty())
        return run_explore_space(o);
    if (o.kernel_path.empty())
        throw_usage_error("explore needs a KERNEL file, or --space FILE");
    check_shortlist_options(o);
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const MachineModel machine = resolve_machine(o.machine);
    models::ExploreOptions options;
    options.threads_per_block = o.threads;
    if (!o.blocks.empty())
        options.blocks = kernel::parse_launch_triple_list(o.blocks, "--blocks");
    if (!o.folds.empty())
        options.folds = kernel::parse_fold_list(o.folds, "--folds");

    if (options.blocks.empty() && o.threads > 0 && models::default_block_sizes(o.threads).empty())
        throw_usage_error("--threads " + std::to_string(o.threads) +
                          " is not a power of two up to 1024 x 1024 x 64: no block sizes to sweep");
    const models::RegisterRequest registers =
        models::parse_register_request(o.registers, "--registers");
    const auto overrides = kernel::parse_parameter_defines(o.defines);
    // ptxas: the sweep's launches counted ahead in batches
    options.registers_for_launch =
        models::launch_registers(registers, spec, overrides, machine, options.volume.registers,
                                 models::CounterCreation::now, &options.prepare_registers);
    options.jobs = o.jobs;
    const auto progress = make_progress_bar("explore", "configurations");
    options.progress = [&progress](std::size_t done, std::size_t total) {
        progress->update(done, total);
    };
    const auto result = models::explore(spec, overrides, machine, options);
    progress->finish();
    report::Document document = ranking_document(
        result, o, "no configuration of " + spec.name + " can run on " + machine.identity.id);
    models::add_best_registers_warning(document, spec, overrides, machine, options, result);
    add_shortlist_if_asked(document, result, o);
    emit(document, o.output);
}

void setup_explore(CLI::App& app) {
    auto options = std::make_shared<ExploreCommandOptions>();
    auto* cmd =
        app.add_subcommand("explore", "Rank block sizes and foldings by predicted throughput");
    cmd->add_option("KERNEL", options->kernel_path,
                    "Kernel file (YAML, docs/kernel-format.md); not with --space");
    cmd->add_option("--space", options->space_path,
                    "A search space instead: kernel files, block and fold values, parameters "
                    "and restrictions (YAML, docs/autotuning.md), ranked by predicted time")
        ->type_name("FILE");
    cmd->add_option("-m,--machine", options->machine, "Built-in machine id or machine file")
        ->required();
    add_define_option(*cmd, options->defines);
    cmd->add_option("--threads", options->threads,
                    "Threads per block of the default sweep (X*Y*Z); default 1024 for kernels "
                    "that map z, else 64, 128, 256, 512 and 1024")
        ->check(whole_number_at_least(1));
    cmd->add_option("--blocks", options->blocks,
                    "Block sizes instead of the sweep: 32x4x4,64x2x8,...");
    cmd->add_option("--folds", options->folds,
                    "Foldings (default none,2y,2z): e.g. none,1x1x2,4z,4z:strided (a placement "
                    "after ':', consecutive or strided; default the kernel file's)");
    cmd->add_option("--top", options->top, "Show only the N best configurations (0: all)")
        ->check(whole_number_at_least(0))
        ->capture_default_str();
    cmd->add_option("-j,--jobs", options->jobs, "Worker threads (0: all cores)")
        ->capture_default_str();
    cmd->add_option("--registers", options->registers,
                    "Registers per thread for occupancy: N (0: not limiting), or auto: ptxas's "
                    "count for each configuration (NVRTC), also over the kernel file's; "
                    "without it the kernel file's registers_per_thread")
        ->type_name("N|auto");
    cmd->add_option("--shortlist", options->shortlist,
                    "Also list the fewest leading configurations that hold the measured best "
                    "with this probability (e.g. 0.95), given --error-spread")
        ->type_name("CONFIDENCE");
    cmd->add_option("--error-spread", options->error_spread,
                    "The model's time-error spread across one kernel's configurations: the "
                    "standard deviation of ln(measured / predicted) (docs/autotuning.md)")
        ->type_name("SPREAD");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        options->output.inputs = {options->kernel_path, options->machine, options->space_path};
        refuse_clobbering(output_paths(options->output), options->output.inputs);
        run_explore(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(410, setup_explore);

} // namespace kerncast::cli
