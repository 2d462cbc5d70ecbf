// The lowering state and the ordered pass list of lower_kernel.
#include "lowering_state.hpp"

#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/staged_arrays.hpp"
#include "lowering_passes.hpp"

#include <algorithm>

namespace kerncast::codegen::lowering {

namespace {

bool same_launch(const kernel::LaunchConfig& x, const kernel::LaunchConfig& y) {
    return x == y;
}

// `bound`, bound again at the launch its analysis resolved when that differs.
kernel::BoundKernel at_launch(const kernel::BoundKernel& bound,
                              const analysis::KernelAnalysis& analysis) {
    const bool staged = kernel::has_staged_arrays(bound.spec()); // analysis.spec is staged
    if (same_launch(bound.launch(), analysis.launch) && !staged)
        return bound;
    return kernel::BoundKernel::bind(staged ? analysis.spec : bound.spec(), analysis.launch,
                                     bound.named_values());
}

} // namespace

LoweringState::LoweringState(const kernel::BoundKernel& bound_)
    : analysis(analysis::analyze(bound_)), bound(at_launch(bound_, analysis)), spec(bound.spec()) {}

LoweringState::LoweringState(const kernel::KernelSpec& spec_, const kernel::LaunchConfig& launch,
                             const kernel::ParameterOverrides& overrides)
    : analysis(analysis::analyze(analysis::staging_judged_at(spec_, overrides), launch)),
      bound(analysis::bind(analysis, overrides)), spec(bound.spec()) {}

std::vector<std::string> LoweringState::in_domain_order(const std::set<std::string>& names) const {
    auto position = [&](const std::string& index) {
        return std::find(spec.indices.begin(), spec.indices.end(), index) - spec.indices.begin();
    };
    std::vector<std::string> ordered(names.begin(), names.end());
    std::sort(ordered.begin(), ordered.end(),
              [&](const auto& x, const auto& y) { return position(x) < position(y); });
    return ordered;
}

void unsupported(const kernel::KernelSpec& spec, const std::string& message,
                 const SourceLocation& where) {
    SourceLocation location = where;
    if (location.file.empty())
        location.file = spec.file;
    throw_input_error("cannot generate code for kernel '" + spec.name + "': " + message, location);
}

const std::vector<LoweringPass>& lowering_pipeline() {
    static const std::vector<LoweringPass> passes{
        {"bind-parameters", bind_parameters},
        {"lay-out-arrays", lay_out_arrays},
        {"map-threads", map_threads},
        {"bound-sequential-loops", bound_sequential_loops},
        {"split-statements", split_statements},
        {"order-reduction-pieces", order_reduction_pieces},
        {"fuse-loops", fuse_loops},
        {"place-accumulators", place_accumulators},
        {"build-loop-tree", build_loop_tree},
    };
    return passes;
}

} // namespace kerncast::codegen::lowering
