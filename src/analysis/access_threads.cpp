// The threads that execute an access: distinct (block, thread) index tuples of its domain.
#include "../support/isl_support.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"

#include <algorithm>

namespace kerncast::analysis {

std::int64_t access_threads(const KernelAnalysis& analysis, const AccessInfo& access,
                            const std::vector<std::int64_t>& params) {
    isl::Context ctx;
    ::isl::set set = isl::parse_set(ctx, access.domain);
    // Fix the parameters.
    const std::vector<std::string> names = isl::dim_names(set, isl_dim_param);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto at = std::find(analysis.parameters.begin(), analysis.parameters.end(), names[i]);
        KERNCAST_CHECK(at != analysis.parameters.end(), "unknown parameter " + names[i]);
        const auto value = params.at(static_cast<std::size_t>(at - analysis.parameters.begin()));
        set = isl::checked("fixing a parameter",
                           [&] { return isl::fix_param(set, static_cast<int>(i), value); });
    }
    // Keep the block and thread indices only.
    const std::vector<std::string> dims = isl::dim_names(set, isl_dim_set);
    for (std::size_t k = dims.size(); k-- > 0;) {
        const auto variable =
            std::find_if(analysis.variables.begin(), analysis.variables.end(),
                         [&](const LaunchVariable& v) { return v.name == dims[k]; });
        const bool thread_identity = variable != analysis.variables.end() &&
                                     (variable->kind == LaunchVariable::Kind::block ||
                                      variable->kind == LaunchVariable::Kind::thread);
        if (!thread_identity)
            set = isl::checked("projecting out a loop index", [&] {
                return isl::project_out(set, isl_dim_set, static_cast<int>(k), 1);
            });
    }
    return isl::count_points(ctx, set);
}

} // namespace kerncast::analysis
