// Volume-model predictions for recorded configurations and the live sweep
// (kernel_validation.hpp).
#include "kerncast/codegen/kernel_validation.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/sha256.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kerncast::codegen {

bool record_is_of(const kernel::KernelSpec& spec, const runtime::KernelRecord& record) {
    // The generated kernel's symbol is the spec name made into a C identifier.
    std::string symbol;
    for (char c : spec.name)
        symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return record.name == spec.name || record.name == symbol || record.name == "kc_" + symbol;
}

std::optional<models::VolumePrediction>
predict_record_volumes(const kernel::KernelSpec& spec, const MachineModel& machine,
                       const runtime::KernelRecord& record, const models::VolumeOptions& options) {
    if (!record_is_of(spec, record))
        return std::nullopt;
    kernel::LaunchConfig launch;
    launch.block = record.launch.block;
    launch.fold = record.launch.fold;
    kernel::check_launch_limits(launch, "the recorded launch");
    const analysis::KernelAnalysis analysis = analysis::analyze(spec, launch);
    const kernel::BoundKernel bound =
        analysis::bind(analysis, record_parameter_overrides(spec, record));
    analysis::check_fold_within_domain(bound);
    const std::vector<std::int64_t>& params = bound.values();
    return models::predict_volumes(analysis, params, machine, options);
}

std::vector<std::pair<std::string, std::int64_t>>
record_parameter_overrides(const kernel::KernelSpec& spec, const runtime::KernelRecord& record) {
    std::vector<std::pair<std::string, std::int64_t>> overrides;
    for (const auto& [name, value] : record.parameters)
        if (spec.find_param(name) && std::holds_alternative<std::int64_t>(value))
            overrides.emplace_back(name, std::get<std::int64_t>(value));
    return overrides;
}

models::RegisterCount record_register_count(const kernel::KernelSpec& spec,
                                            const runtime::KernelRecord& record) {
    models::RegisterCount count;
    if (record.registers_per_thread) {
        count.per_thread = *record.registers_per_thread;
        count.source = models::RegisterSource::measurement_record;
    } else if (spec.registers_per_thread) {
        count.per_thread = *spec.registers_per_thread;
        count.source = models::RegisterSource::kernel_file;
    }
    return count;
}

double l2_sector_bytes(const MachineModel& machine) {
    const MemoryLevel* l2 = machine.level("l2");
    if (!l2 || !l2->sector_bytes || l2->sector_bytes->value <= 0)
        throw_input_error("machine '" + machine.identity.id +
                          "' has no memory level l2 with sector_bytes, which the L2 sector "
                          "counters need");
    return l2->sector_bytes->value;
}

std::optional<runtime::Prediction> predict_record(const kernel::KernelSpec& spec,
                                                  const MachineModel& machine,
                                                  const runtime::KernelRecord& record) {
    models::VolumeOptions options;
    options.registers = record_register_count(spec, record);
    const auto predicted = predict_record_volumes(spec, machine, record, options);
    if (!predicted)
        return std::nullopt;
    const models::VolumePrediction& volumes = *predicted;
    const auto points = static_cast<double>(volumes.points);
    const double sector_bytes = l2_sector_bytes(machine);
    runtime::Prediction prediction;
    prediction.time_s = volumes.limiter.seconds_per_launch;
    prediction.counters["dram__bytes_read.sum"] = volumes.dram_load_bytes * points;
    prediction.counters["dram__bytes_write.sum"] = volumes.dram_store_bytes * points;
    prediction.counters["lts__t_sectors_srcunit_tex_op_read.sum"] =
        volumes.l2_load_bytes * points / sector_bytes;
    prediction.counters["lts__t_sectors_srcunit_tex_op_write.sum"] =
        volumes.l2_store_bytes * points / sector_bytes;
    // Every L2 sector of these kernels is requested by L1/TEX (kernel_validation.hpp).
    prediction.counters["lts__t_sectors_op_read.sum"] =
        prediction.counters["lts__t_sectors_srcunit_tex_op_read.sum"];
    prediction.counters["lts__t_sectors_op_write.sum"] =
        prediction.counters["lts__t_sectors_srcunit_tex_op_write.sum"];
    prediction.flops = volumes.flops_per_point * points;
    return prediction;
}

runtime::PredictionSource volume_model_predictions(const kernel::KernelSpec& spec,
                                                   const MachineModel& machine) {
    return [spec, machine](const runtime::KernelRecord& record) {
        return predict_record(spec, machine, record);
    };
}

runtime::PredictionSource volume_model_predictions(const std::vector<kernel::KernelSpec>& specs,
                                                   const MachineModel& machine) {
    return [specs,
            machine](const runtime::KernelRecord& record) -> std::optional<runtime::Prediction> {
        for (const auto& spec : specs)
            if (auto prediction = predict_record(spec, machine, record))
                return prediction;
        return std::nullopt;
    };
}

std::vector<std::string> kernel_file_mismatches(const kernel::KernelSpec& spec,
                                                const std::string& kernel_path,
                                                const std::vector<runtime::LoadedRecord>& records) {
    std::vector<std::string> warnings;
    const std::string sha = sha256_file_hex(kernel_path);
    for (const auto& record : records)
        if (!record.measurement.kernel.file_sha256.empty() &&
            record.measurement.kernel.file_sha256 != sha &&
            record.measurement.kernel.name == spec.name)
            warnings.push_back(record.path +
                               " was recorded from a kernel file with another SHA-256 than " +
                               kernel_path);
    return warnings;
}

std::vector<kernel::LaunchConfig> default_sweep(const kernel::KernelSpec& spec) {
    std::vector<kernel::LaunchConfig> sweep;
    auto add_if_possible = [&](const kernel::LaunchConfig& launch) {
        try {
            const analysis::KernelAnalysis analysis = analysis::analyze(spec, launch);
            const kernel::LaunchConfig& used = analysis.launch; // fixed tiles applied
            const bool seen = std::any_of(sweep.begin(), sweep.end(), [&](const auto& l) {
                return l.block == used.block && l.fold == used.fold;
            });
            if (!seen)
                sweep.push_back(used);
        } catch (const Error&) {
            // a launch this kernel cannot take (a fixed tile, an unmapped axis)
        }
    };
    for (const auto& fold : models::default_folds())
        for (const auto& block : models::default_block_sizes(256))
            add_if_possible(kernel::LaunchConfig{block, fold});
    if (sweep.empty())
        add_if_possible(spec.launch);
    return sweep;
}

std::vector<kernel::LaunchConfig> read_sweep_file(const std::string& path) {
    std::ifstream file(path);
    if (!file)
        throw_input_error("cannot open sweep file '" + path + "'", {path, 0, 0, {}, {}});
    std::vector<kernel::LaunchConfig> sweep;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        const std::string text = line.substr(0, line.find('#'));
        std::istringstream words(text);
        std::vector<std::string> fields;
        for (std::string word; words >> word;)
            fields.push_back(word);
        if (fields.empty())
            continue;
        SourceLocation where{path, number, 1, {}, line};
        if (fields.size() > 2)
            throw_input_error(
                "expected 'BLOCK [FOLD]', got " + std::to_string(fields.size()) + " fields", where);
        kernel::LaunchConfig launch;
        try {
            launch.block = kernel::parse_launch_triple(fields[0], "block");
            if (fields.size() == 2)
                launch.fold = kernel::parse_launch_triple(fields[1], "fold");
            kernel::check_launch_limits(launch, "the launch");
        } catch (const Error& e) {
            throw_input_error(e.message(), where);
        }
        sweep.push_back(launch);
    }
    if (sweep.empty())
        throw_input_error("sweep file '" + path + "' lists no configuration", {path, 0, 0, {}, {}});
    return sweep;
}

} // namespace kerncast::codegen
