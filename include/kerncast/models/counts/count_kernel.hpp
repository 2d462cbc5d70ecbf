// What `kerncast count` reports for a kernel file at one launch: the kernel analysed, its
// parameters bound (the file's values with overrides) and checked, the counts evaluated. Used by
// the CLI and the Python module (docs/python.md).
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/models/counts/count_report.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::models::counts {

// Input Errors: a bad parameter value, a fold longer than the domain. A count that overflows 64
// bits (an error without a place) is rethrown naming the kernel file (spec.file) and, in a note,
// the parameter values it was evaluated at.
CountReport count_kernel(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                         const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                         const analysis::CountOptions& options, const FootprintOptions& footprints);

} // namespace kerncast::models::counts
