// Calibration samples from measurement records (cost_model_samples.hpp).
#include "kerncast/validate/cost_model_samples.hpp"

#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/staged_arrays.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/record_binding.hpp"

#include <filesystem>
#include <map>
#include <tuple>

namespace kerncast::validate {

using models::calibrated::CalibrationSample;
using models::calibrated::CostModel;
using models::calibrated::kernel_features;
using models::calibrated::measured_output;

CostModelSamples cost_model_samples(const CostModel& model,
                                    const std::vector<runtime::LoadedRecord>& records,
                                    const std::vector<kernel::KernelSpec>& kernels,
                                    const std::function<void(std::size_t, std::size_t)>& progress) {
    for (std::size_t a = 0; a < kernels.size(); ++a)
        for (std::size_t b = a + 1; b < kernels.size(); ++b)
            if (kernels[a].name == kernels[b].name)
                throw_input_error("two kernel files name the kernel '" + kernels[a].name +
                                      "': " + kernels[a].file + " and " + kernels[b].file,
                                  SourceLocation{kernels[b].file, 0, 0, {}, {}});
    CostModelSamples out;
    // One analysis per kernel and launch; it evaluates at any parameter values.
    // A staged kernel is staged at the record's values (analysis::staging_judged_at): they are
    // part of its key.
    using LaunchKey = std::tuple<std::size_t, kernel::Dim3, kernel::Dim3, kernel::FoldPlacement,
                                 kernel::ParameterOverrides>;
    std::map<LaunchKey, analysis::KernelAnalysis> analyses;
    std::size_t finished = 0;
    for (const auto& record : records) {
        if (progress)
            progress(finished++, records.size());
        const auto& kernel_record = record.measurement.kernel;
        std::size_t index = kernels.size();
        for (std::size_t k = 0; k < kernels.size(); ++k)
            if (record_is_of(kernels[k], kernel_record))
                index = k;
        if (index == kernels.size()) {
            out.notes.push_back(record.path + ": skipped, of kernel '" + kernel_record.name +
                                "', which no given kernel file defines");
            continue;
        }
        const std::optional<double> measured = measured_output(model, record.measurement);
        if (!measured) {
            out.notes.push_back(record.path + ": skipped, the record holds no times");
            continue;
        }
        const kernel::KernelSpec& spec = kernels[index];
        for (const auto& [name, value] : kernel_record.parameters)
            if (spec.find_param(name) && !std::holds_alternative<std::int64_t>(value))
                throw_input_error("record gives the integer parameter '" + name + "' of kernel '" +
                                      spec.name + "' a real value",
                                  SourceLocation{record.path, 0, 0, {}, {}});
        std::error_code error;
        if (!kernel_record.file_sha256.empty() &&
            std::filesystem::is_regular_file(spec.file, error) &&
            sha256_file_hex(spec.file) != kernel_record.file_sha256)
            out.notes.push_back(record.path +
                                ": measured with a kernel file whose SHA-256 differs "
                                "from " +
                                spec.file + "'s (changed since?); its features are those of " +
                                spec.file);
        const kernel::ParameterOverrides values = record_parameter_overrides(spec, kernel_record);
        const LaunchKey key{index, kernel_record.launch.block, kernel_record.launch.fold,
                            kernel_record.launch.fold_placement,
                            kernel::has_staged_arrays(spec) ? values
                                                            : kernel::ParameterOverrides{}};
        auto found = analyses.find(key);
        if (found == analyses.end())
            found = analyses
                        .emplace(key, analysis::analyze(analysis::staging_judged_at(spec, values),
                                                        kernel_record.launch.config()))
                        .first;
        const auto params = analysis::bind(found->second, values).values();
        CalibrationSample sample;
        sample.label = record.path;
        sample.kernel = spec.name;
        sample.configuration = runtime::configuration_label(kernel_record);
        sample.features = kernel_features(model, found->second, params);
        sample.measured = *measured;
        out.samples.push_back(std::move(sample));
        out.records.push_back(record.path);
        out.published_records += record.measurement.published() ? 1 : 0;
    }
    if (progress)
        progress(records.size(), records.size());

    return out;
}

} // namespace kerncast::validate
