// The capacity-curve fit (kerncast fit-volumes) as a report Document: coefficients before and
// after, errors by metric, the solver's summary, the cross-validation and every sample. Only
// arranges numbers; never computes.
#pragma once

#include "kerncast/models/volumes/capacity_fitting.hpp"
#include "kerncast/report/document.hpp"

#include <string>
#include <vector>

namespace kerncast::models {

// schema "kerncast.fit-volumes/1"; `notes` are appended (records skipped, counters used).
report::Document fit_volumes_view(const std::vector<VolumeSample>& samples,
                                  const CapacityFitResult& fit, const CrossValidation& validation,
                                  const std::string& machine_id,
                                  const std::vector<std::string>& notes = {});

} // namespace kerncast::models
