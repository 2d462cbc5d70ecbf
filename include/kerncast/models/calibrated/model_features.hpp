// A cost model's input features of a kernel, from the kernel file's exact counts at parameter
// values (Stevens & Klöckner sec. 7.2: "we collect feature values for each measurement
// kernel"), and its output feature of a measurement record (docs/model-format.md).
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <optional>
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

} // namespace kerncast::models::calibrated
