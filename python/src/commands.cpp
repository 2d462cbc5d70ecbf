// count, predict, explore, mwp and validate: the library calls of the CLI's cmd_<name>.cpp,
// with the GIL released while they compute (explore's workers use every core), returning the
// report as plain Python objects (document_to_python). Arguments arrive normalised by the
// kerncast package (python/kerncast/__init__.py): launch triples as "32x4x4" text, registers as
// the CLI's --registers text.
#include "bindings.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/kernel/search_space.hpp"
#include "kerncast/models/counts/count_kernel.hpp"
#include "kerncast/models/counts/count_view.hpp"
#include "kerncast/models/mwp_cwp/kernel_mwp_view.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/mwp_cwp/mwp_view.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/launch_registers.hpp"
#include "kerncast/models/prediction/model_times.hpp"
#include "kerncast/models/prediction/model_times_view.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/prediction/unknown_registers.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/shortlist.hpp"
#include "kerncast/models/volumes/volume_view.hpp"
#include "kerncast/validate/record_binding.hpp"
#include "kerncast/validate/volume_predictions.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <pybind11/stl.h>
#include <set>

namespace py = pybind11;

namespace kerncast::python {

namespace {

using Overrides = std::vector<std::pair<std::string, std::int64_t>>;

py::dict count(const kernel::KernelSpec& spec, const std::string& block, const std::string& fold,
               const Overrides& overrides, bool index_arithmetic,
               const std::vector<std::int64_t>& granule_bytes, bool footprints,
               std::int64_t subgroup_size) {
    if (subgroup_size < 1)
        throw_usage_error("subgroup_size must be positive");
    for (const auto size : granule_bytes)
        if (size < 1)
            throw_usage_error("granules must be positive byte counts");
    report::Document document;
    {
        py::gil_scoped_release released;
        const kernel::LaunchConfig launch = kernel::override_launch(spec.launch, block, fold);
        analysis::CountOptions options;
        options.count_index_arithmetic = index_arithmetic;
        options.subgroup_size = subgroup_size;
        models::counts::FootprintOptions footprint_options;
        footprint_options.granule_bytes = granule_bytes;
        footprint_options.warp_size = subgroup_size;
        footprint_options.enabled = footprints;
        document = models::counts::count_view(
            models::counts::count_kernel(spec, launch, overrides, options, footprint_options));
    }
    return document_to_python(document);
}

py::dict predict(const kernel::KernelSpec& spec, const MachineModel& machine,
                 const std::string& block, const std::string& fold, const Overrides& overrides,
                 const std::string& registers_text, bool linear_addresses) {
    report::Document document;
    {
        py::gil_scoped_release released;
        const kernel::LaunchConfig launch = kernel::override_launch(spec.launch, block, fold);
        const models::RegisterRequest registers =
            models::parse_register_request(registers_text, "registers");
        models::VolumeOptions options;
        // ptxas compiles only once the launch is valid
        const models::RegistersForLaunch ptxas_registers =
            models::launch_registers(registers, spec, overrides, machine, options.registers);
        options.linear_addresses = linear_addresses;
        // Analysed and bound once, as the CLI's predict does.
        const models::AnalysedLaunch analysed =
            models::analyse_launch(spec, launch, overrides, machine);
        const models::VolumePrediction volumes =
            models::predict_launch(analysed, machine, options, ptxas_registers);
        document = models::predict_view(volumes, spec.name, machine.identity.id);
        if (const auto warning = models::unknown_registers_warning(
                spec, launch, overrides, machine, options, volumes, "this launch", &analysed))
            document.notes.insert(document.notes.begin(), *warning);
        document.tables.push_back(
            models::model_times_table(models::model_times(analysed, machine, volumes)));
    }
    return document_to_python(document);
}

// A shortlist's values (both 0 without one; the Python layer passes both or neither): Usage
// Errors up front, as the CLI's.
void check_shortlist(double confidence, double error_spread) {
    if (confidence != 0 || error_spread != 0)
        (void)models::shortlist({}, error_spread, confidence);
}

// Input Error when no configuration of `result` can run, each reason once as a note.
void refuse_if_nothing_runs(const models::ExploreResult& result, const std::string& what,
                            const MachineModel& machine) {
    if (std::any_of(result.rows.begin(), result.rows.end(),
                    [](const models::ExploreRow& row) { return row.prediction.has_value(); }))
        return;
    std::set<std::string> reasons;
    for (const auto& row : result.rows)
        reasons.insert(models::format_triple(row.launch.block) + " fold " +
                       kernel::fold_text(row.launch) + ": " + row.skipped);
    throw_input_error("no configuration of " + what + " can run on " + machine.identity.id, {},
                      std::vector<std::string>(reasons.begin(), reasons.end()));
}

// The CLI's explore: the same option checks and messages (tools/kerncast/cmd_explore.cpp).
py::dict explore(const kernel::KernelSpec& spec, const MachineModel& machine,
                 const std::string& blocks, const std::string& folds, std::int64_t threads,
                 const Overrides& overrides, const std::string& registers_text, unsigned jobs,
                 double confidence, double error_spread) {
    report::Document document;
    {
        py::gil_scoped_release released;
        check_shortlist(confidence, error_spread);
        models::ExploreOptions options;
        if (threads < 1 && threads != -1) // -1: threads=None, the default sweep
            throw_usage_error("threads must be positive");
        options.threads_per_block = std::max<std::int64_t>(threads, 0);
        if (!blocks.empty())
            options.blocks = kernel::parse_launch_triple_list(blocks, "blocks");
        if (!folds.empty())
            options.folds = kernel::parse_fold_list(folds, "folds");
        if (options.blocks.empty() && threads > 0 && models::default_block_sizes(threads).empty())
            throw_usage_error("threads " + std::to_string(threads) +
                              " is not a power of two up to 1024 x 1024 x 64: no block sizes "
                              "to sweep");
        const models::RegisterRequest registers =
            models::parse_register_request(registers_text, "registers");
        // ptxas: the sweep's launches counted ahead in batches
        options.registers_for_launch =
            models::launch_registers(registers, spec, overrides, machine, options.volume.registers,
                                     models::CounterCreation::now, &options.prepare_registers);
        options.jobs = jobs;
        const models::ExploreResult result = models::explore(spec, overrides, machine, options);
        refuse_if_nothing_runs(result, spec.name, machine);
        document = models::explore_view(result, 0);
        models::add_best_registers_warning(document, spec, overrides, machine, options, result);
        if (confidence != 0)
            models::add_shortlist(document, result, error_spread, confidence);
    }
    return document_to_python(document);
}

// The CLI's explore --space (tools/kerncast/cmd_explore.cpp): every combination of a search
// space, ranked by predicted time; with a confidence the shortlist too.
py::dict explore_space(const std::string& space_path, const MachineModel& machine,
                       const Overrides& overrides, const std::string& registers_text, unsigned jobs,
                       double confidence, double error_spread) {
    report::Document document;
    {
        py::gil_scoped_release released;
        check_shortlist(confidence, error_spread);
        const kernel::LoadedSearchSpace space = kernel::load_search_space_with_kernels(space_path);
        models::ExploreOptions options;
        const models::RegisterRequest registers =
            models::parse_register_request(registers_text, "registers");
        options.registers_for_case = models::space_registers(registers, space.kernels, machine,
                                                             &options.prepare_registers_for_case);
        options.jobs = jobs;
        const models::ExploreResult result =
            models::explore_space(space.kernels, space.combinations, overrides, machine, options);
        refuse_if_nothing_runs(result, space_path, machine);
        document = models::explore_view(result, 0);
        if (confidence != 0)
            models::add_shortlist(document, result, error_spread, confidence);
    }
    return document_to_python(document);
}

// `workload` is a file path, or JSON text when `is_text`.
py::dict mwp(const std::string& workload, bool is_text, const MachineModel& machine,
             bool paper_rounding, bool rep_ceiling, bool synch_bounded) {
    report::Document document;
    {
        py::gil_scoped_release released;
        const models::Workload parsed = is_text ? models::parse_workload_json(workload, "<string>")
                                                : models::load_workload_file(workload);
        models::MwpCwpOptions options;
        options.paper_rounding = paper_rounding;
        options.rep_ceiling = rep_ceiling;
        options.synch_bounded_by_block_warps = synch_bounded;
        document = models::mwp_view(models::predict_mwp_cwp(parsed, machine, options));
    }
    return document_to_python(document);
}

// Records mode of `kerncast validate`: (report, warnings about records of another kernel file).
std::pair<py::dict, std::vector<std::string>>
validate(const std::vector<std::shared_ptr<kernel::KernelSpec>>& kernels,
         const MachineModel& machine, const std::string& records_directory) {
    report::Document document;
    std::vector<std::string> warnings;
    {
        py::gil_scoped_release released;
        std::vector<kernel::KernelSpec> specs;
        for (const auto& kernel : kernels)
            specs.push_back(*kernel);
        const auto records = runtime::load_measurement_directory(records_directory);
        for (const auto& spec : specs)
            if (std::filesystem::is_regular_file(spec.file)) // not for YAML text
                for (auto& warning :
                     kerncast::validate::kernel_file_mismatches(spec, spec.file, records))
                    warnings.push_back(std::move(warning));
        document = kerncast::validate::validation_view(kerncast::validate::validate_predictions(
            records, kerncast::validate::volume_model_predictions(specs, machine)));
    }
    return {document_to_python(document), warnings};
}

} // namespace

void bind_commands(py::module_& module) {
    using py::arg;
    module.def("count", &count, arg("kernel"), arg("block"), arg("fold"), arg("overrides"),
               arg("index_arithmetic"), arg("granule_bytes"), arg("footprints"),
               arg("subgroup_size"));
    module.def("predict", &predict, arg("kernel"), arg("machine"), arg("block"), arg("fold"),
               arg("overrides"), arg("registers"), arg("linear_addresses"));
    module.def("explore", &explore, arg("kernel"), arg("machine"), arg("blocks"), arg("folds"),
               arg("threads"), arg("overrides"), arg("registers"), arg("jobs"), arg("confidence"),
               arg("error_spread"));
    module.def("explore_space", &explore_space, arg("space"), arg("machine"), arg("overrides"),
               arg("registers"), arg("jobs"), arg("confidence"), arg("error_spread"));
    module.def("mwp", &mwp, arg("workload"), arg("is_text"), arg("machine"), arg("paper_rounding"),
               arg("rep_ceiling"), arg("synch_bounded"));
    module.def("validate", &validate, arg("kernels"), arg("machine"), arg("records"));
}

} // namespace kerncast::python
