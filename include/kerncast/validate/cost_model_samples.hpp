// Calibration samples from measurement records (docs/measurement-format.md): each record
// names its kernel, parameter values and launch and holds the measured time; the model's
// features are computed from the kernel file's exact counts at those values (Stevens &
// Klöckner sec. 7.2), model_features.hpp.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/models/calibrated/model_features.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kerncast::validate {

struct CostModelSamples {
    std::vector<models::calibrated::CalibrationSample> samples; // label = record path
    std::vector<std::string> records; // paths of the records that gave samples
    int published_records = 0;        // of those, published (not kerncast's own)
    std::vector<std::string> notes;   // records skipped and why
};

// One sample per record of one of `kernels` (matched by name, record_is_of) with a
// time: the kernel analysed under the record's launch (block, fold), its integer parameters,
// the features at them. Records of no given kernel, or without times, are skipped with a
// note; two kernel files of one name are an input Error.
// `progress`, when set, hears how many records are done (a progress bar in the CLI).
CostModelSamples
cost_model_samples(const models::calibrated::CostModel& model,
                   const std::vector<runtime::LoadedRecord>& records,
                   const std::vector<kernel::KernelSpec>& kernels,
                   const std::function<void(std::size_t done, std::size_t total)>& progress = {});

} // namespace kerncast::validate
