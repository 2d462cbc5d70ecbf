// Feature values from kerncast's exact counts (analysis/kernel_analysis.hpp): an analysed
// kernel evaluated at parameter values gives every kernel feature of a model (Stevens &
// Klöckner, sec. 5-6.1). One analysis serves any parameter values.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/calibrated/feature.hpp"

#include <cstdint>
#include <vector>

namespace kerncast::models::calibrated {

// The value of one kernel feature (not a measured one: an internal error) at `params`
// (in analysis.parameters order):
// - operation: the count of that (dtype, operation), per sub-group (arithmetic) or
//   work-item (atomics), as analysis::OperationCount;
// - memory: the counts of every access matching all given fields, summed; each access in its
//   own granularity (work-item; sub-group for shared-memory and uniform accesses, sec. 5).
//   Local/group strides are the strides of threadIdx/blockIdx in the flattened subscript
//   (analysis::access_strides), the AFR is executions by all work-items over distinct
//   elements (global and constant accesses only); an access with an unknown stride (indirect)
//   or no AFR does not match a constraint on it;
// - barrier: the barriers one work-item passes; launch: 1; thread_group: thread blocks.
// A stride bound naming a parameter the kernel lacks is an input Error naming the feature.
double feature_value(const analysis::KernelAnalysis& analysis,
                     const std::vector<std::int64_t>& params, const FeatureSpec& feature);

// Whether `access` has every property `feature` (a memory feature) asks for, at `params`.
bool access_matches(const analysis::KernelAnalysis& analysis, const analysis::AccessInfo& access,
                    const std::vector<std::int64_t>& params, const FeatureSpec& feature);

} // namespace kerncast::models::calibrated
