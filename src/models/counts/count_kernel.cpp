#include "kerncast/models/counts/count_kernel.hpp"

#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

namespace kerncast::models::counts {

using namespace kerncast::analysis;

CountReport count_kernel(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                         const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                         const analysis::CountOptions& options,
                         const FootprintOptions& footprints) {
    const KernelAnalysis result = analyze(staging_judged_at(spec, overrides), launch, options);
    const kernel::BoundKernel bound = bind(result, overrides);
    check_fold_within_domain(bound);
    try {
        CountReport report = evaluate_counts(result, bound, footprints);
        // A grid CUDA cannot launch is refused after the counts, so that a count that
        // overflows 64 bits (the larger problem of such a domain) is the one named.
        kernel::check_grid_limits(bound);
        return report;
    } catch (...) {
        // An error without a place (a count overflowing 64 bits) is about this kernel at
        // these parameter values: name them.
        kernel::rethrow_naming_kernel(bound);
    }
}

} // namespace kerncast::models::counts
