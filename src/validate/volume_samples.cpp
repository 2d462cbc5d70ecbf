// Measured volumes of records as samples for the capacity-curve fit (volume_samples.hpp).
#include "kerncast/validate/volume_samples.hpp"

#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/record_binding.hpp"
#include "kerncast/validate/volume_predictions.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

namespace kerncast::validate {

namespace {

using models::VolumeMetric;

// The record's value of `counter` in `unit` ("" is accepted: a plain count), or nullopt.
std::optional<double> counter_value(const runtime::Measurement& measurement,
                                    const std::string& counter, const std::string& unit,
                                    const std::string& origin) {
    const auto found = measurement.counters.find(counter);
    if (found == measurement.counters.end())
        return std::nullopt;
    const runtime::NamedValue& value = found->second;
    SourceLocation where;
    where.file = origin;
    where.json_path = "/counters/" + counter;
    if (!value.unit.empty() && value.unit != unit)
        throw_input_error("counter " + counter + " is in \"" + value.unit +
                              "\"; fit-volumes reads it in \"" + unit + "\"",
                          where);
    if (!std::isfinite(value.value) || value.value < 0)
        throw_input_error("counter " + counter + " has the value " + std::to_string(value.value) +
                              "; a data volume is a non-negative number",
                          where);
    return value.value;
}

} // namespace

std::array<std::optional<MeasuredVolume>, models::volume_metrics>
measured_volumes(const runtime::Measurement& measurement, double points, double sector_bytes,
                 const std::string& origin) {
    KERNCAST_CHECK(points > 0, "a prediction covers at least one point");
    std::array<std::optional<MeasuredVolume>, models::volume_metrics> volumes;
    auto set = [&](VolumeMetric metric, const std::vector<std::string>& counters,
                   const std::string& unit, double bytes_per_unit) {
        for (const auto& counter : counters) {
            if (const auto value = counter_value(measurement, counter, unit, origin)) {
                volumes[static_cast<std::size_t>(metric)] =
                    MeasuredVolume{counter, *value * bytes_per_unit / points};
                return;
            }
        }
    };
    set(VolumeMetric::dram_load, {"dram__bytes_read.sum"}, "byte", 1.0);
    set(VolumeMetric::dram_store, {"dram__bytes_write.sum"}, "byte", 1.0);
    set(VolumeMetric::l2_load,
        {"lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_op_read.sum"}, "sector",
        sector_bytes);
    set(VolumeMetric::l2_store,
        {"lts__t_sectors_srcunit_tex_op_write.sum", "lts__t_sectors_op_write.sum"}, "sector",
        sector_bytes);
    return volumes;
}

const models::VolumeDecomposition& decomposition_of(const models::VolumePrediction& prediction,
                                                    VolumeMetric metric) {
    switch (metric) {
    case VolumeMetric::l2_load:
        return prediction.decompositions.l2_load;
    case VolumeMetric::l2_store:
        return prediction.decompositions.l2_store;
    case VolumeMetric::dram_load:
        return prediction.decompositions.dram_load;
    case VolumeMetric::dram_store:
        return prediction.decompositions.dram_store;
    }
    throw Error(ErrorKind::internal, "unknown volume metric");
}

void check_decompositions(const models::VolumePrediction& prediction, const CapacityFits& fits,
                          const std::string& machine_id, const std::string& origin) {
    const std::array<std::pair<VolumeMetric, double>, models::volume_metrics> totals{{
        {VolumeMetric::l2_load, prediction.l2_load_bytes},
        {VolumeMetric::l2_store, prediction.l2_store_bytes},
        {VolumeMetric::dram_load, prediction.dram_load_bytes},
        {VolumeMetric::dram_store, prediction.dram_store_bytes},
    }};
    for (const auto& [metric, total] : totals) {
        const double value =
            models::evaluate_decomposition(decomposition_of(prediction, metric), fits, machine_id);
        if (std::abs(value - total) > 1e-9 * std::max(1.0, std::abs(total)))
            throw Error(
                ErrorKind::internal,
                "the volume model's decomposition of " +
                    std::string(models::volume_metric_name(metric)) + " (" + std::to_string(value) +
                    " B per point) does not reproduce its total (" + std::to_string(total) +
                    " B per point) for " + origin,
                {}, {"the capacity fit needs VolumePrediction::decompositions to be the model"});
    }
}

std::string sample_group(const std::string& kernel_name, const kernel::Dim3& block) {
    return kernel_name + " block=" + std::to_string(block[0]) + "x" + std::to_string(block[1]) +
           "x" + std::to_string(block[2]);
}

RecordSamples record_volume_samples(const std::vector<runtime::LoadedRecord>& records,
                                    const std::vector<kernel::KernelSpec>& kernels,
                                    const MachineModel& machine,
                                    const models::RegisterRequest& registers,
                                    const std::function<void(std::size_t, std::size_t)>& progress) {
    for (std::size_t i = 0; i < kernels.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (kernels[i].name == kernels[j].name)
                throw_input_error("two kernel files define the kernel '" + kernels[i].name +
                                  "': " + kernels[j].file + " and " + kernels[i].file +
                                  "; records are matched to kernel files by name");
    const double sector_bytes = validate::l2_sector_bytes(machine);
    // ptxas counters, made only when --registers auto asks for them: one per kernel file and
    // parameter values (which the generated code compiles in).
    using CounterKey = std::pair<std::size_t, std::vector<std::pair<std::string, std::int64_t>>>;
    std::map<CounterKey, std::unique_ptr<codegen::RegisterCounter>> counters;

    RecordSamples result;
    std::map<std::string, int> counters_used;
    std::size_t finished = 0;
    for (const auto& record : records) {
        if (progress)
            progress(finished++, records.size());
        const runtime::KernelRecord& kernel = record.measurement.kernel;
        std::size_t k = 0;
        while (k < kernels.size() && !validate::record_is_of(kernels[k], kernel))
            ++k;
        if (k == kernels.size()) {
            result.notes.push_back("skipped " + record.path + ": no kernel file of kernel '" +
                                   kernel.name + "'");
            continue;
        }
        const kernel::KernelSpec& spec = kernels[k];
        models::VolumeOptions options;
        if (registers.kind == models::RegisterRequest::Kind::none) {
            options.registers = validate::record_register_count(spec, kernel);
        } else if (const auto fixed = models::fixed_register_count(registers, spec)) {
            options.registers = *fixed;
        } else {
            const auto overrides = validate::record_parameter_overrides(spec, kernel);
            auto& counter = counters[CounterKey{k, overrides}];
            if (!counter)
                counter = std::make_unique<codegen::RegisterCounter>(spec, overrides, machine);
            options.registers = counter->count(kernel.launch.config());
        }
        models::VolumePrediction prediction;
        try {
            prediction = *validate::predict_record_volumes(spec, machine, kernel, options);
        } catch (const Error& error) {
            if (error.kind() != ErrorKind::input)
                throw;
            auto notes = error.notes();
            notes.push_back("while predicting the configuration of " + record.path + " (" +
                            runtime::configuration_label(kernel) + ") with " + spec.file);
            throw Error(error.kind(), error.message(), error.where(), notes);
        }
        check_decompositions(prediction, machine.capacity_fits, machine.identity.id, record.path);
        const auto measured = measured_volumes(
            record.measurement, static_cast<double>(prediction.points), sector_bytes, record.path);
        bool any = false;
        for (int m = 0; m < models::volume_metrics; ++m) {
            const auto metric = static_cast<VolumeMetric>(m);
            const auto& volume = measured[static_cast<std::size_t>(m)];
            if (!volume)
                continue;
            if (volume->bytes_per_point <= 0) {
                result.notes.push_back("skipped " +
                                       std::string(models::volume_metric_name(metric)) + " of " +
                                       record.path + ": " + volume->counter + " is 0");
                continue;
            }
            models::VolumeSample sample;
            sample.label = record.path;
            sample.group = sample_group(spec.name, kernel.launch.block);
            sample.metric = metric;
            sample.decomposition = decomposition_of(prediction, metric);
            sample.measured_bytes_per_point = volume->bytes_per_point;
            result.samples.push_back(std::move(sample));
            ++counters_used[volume->counter];
            any = true;
        }
        if (any)
            result.records.push_back(record.path);
        else
            result.notes.push_back("skipped " + record.path +
                                   ": no DRAM or L2 volume counter (dram__bytes_read.sum, "
                                   "lts__t_sectors_op_read.sum, ...)");
    }
    if (progress)
        progress(records.size(), records.size());

    for (const auto& [counter, count] : counters_used)
        result.notes.push_back(counter + ": " + std::to_string(count) + " records");
    return result;
}

std::string dataset_sha256(const std::vector<runtime::LoadedRecord>& records) {
    std::string listing;
    for (const auto& record : records)
        listing += sha256_file_hex(record.path) + "  " +
                   std::filesystem::path(record.path).filename().string() + "\n";
    return sha256_hex(listing);
}

} // namespace kerncast::validate
