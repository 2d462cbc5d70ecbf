// Calibration samples from measurement records (docs/measurement-format.md): each record
// names its kernel, parameter values and launch and holds the measured time; the model's
// features are computed from the kernel file's exact counts at those values (Stevens &
// Klöckner sec. 7.2: "we collect feature values for each measurement kernel").
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

// The model's input features of a kernel at parameter values (model.features() order).
std::vector<double> kernel_features(const CostModel& model,
                                    const analysis::KernelAnalysis& analysis,
                                    const std::vector<std::int64_t>& params);

// The output feature of a record: its median, minimum or mean time in seconds; nullopt when
// the record holds no times (a published record that states none).
std::optional<double> measured_output(const CostModel& model,
                                      const runtime::Measurement& measurement);

struct RecordSamples {
    std::vector<CalibrationSample> samples; // label = record path
    std::vector<std::string> records;       // paths of the records that gave samples
    int published_records = 0;              // of those, published (not kerncast's own)
    std::vector<std::string> notes;         // records skipped and why
};

// One sample per record of one of `kernels` (matched by name, validate::record_is_of) with a
// time: the kernel analysed under the record's launch (block, fold), its integer parameters,
// the features at them. Records of no given kernel, or without times, are skipped with a
// note; two kernel files of one name are an input Error.
// `progress`, when set, hears how many records are done (a progress bar in the CLI).
RecordSamples
record_samples(const CostModel& model, const std::vector<runtime::LoadedRecord>& records,
               const std::vector<kernel::KernelSpec>& kernels,
               const std::function<void(std::size_t done, std::size_t total)>& progress = {});

} // namespace kerncast::models::calibrated
