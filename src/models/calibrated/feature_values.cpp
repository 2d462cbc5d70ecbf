// Feature values from the exact counts (feature_values.hpp; docs/model-format.md).
#include "kerncast/models/calibrated/feature_values.hpp"

#include "kerncast/error.hpp"

#include <algorithm>

namespace kerncast::models::calibrated {

namespace {

double bound_value(const analysis::KernelAnalysis& analysis,
                   const std::vector<std::int64_t>& params, const Constraint& constraint,
                   const FeatureSpec& feature) {
    if (constraint.parameter.empty())
        return constraint.value;
    const auto& names = analysis.parameters;
    const auto at = std::find(names.begin(), names.end(), constraint.parameter);
    if (at == names.end())
        throw_input_error("feature '" + feature.name + "' bounds a stride by '" +
                              constraint.parameter + "', which is not a parameter of kernel '" +
                              analysis.spec.name + "'",
                          SourceLocation{analysis.spec.file, 0, 0, {}, {}});
    return static_cast<double>(params[static_cast<std::size_t>(at - names.begin())]);
}

bool strides_match(const analysis::KernelAnalysis& analysis,
                   const std::vector<std::int64_t>& params,
                   const std::array<std::optional<Constraint>, kernel::axis_count>& constraints,
                   const std::array<std::int64_t, kernel::axis_count>& strides,
                   const FeatureSpec& feature) {
    for (std::size_t axis = 0; axis < kernel::axis_count; ++axis)
        if (const auto& c = constraints[axis])
            if (!satisfies(static_cast<double>(strides[axis]), c->comparison,
                           bound_value(analysis, params, *c, feature)))
                return false;
    return true;
}

bool constrains_strides(const FeatureSpec& feature) {
    for (std::size_t axis = 0; axis < kernel::axis_count; ++axis)
        if (feature.local_strides[axis] || feature.group_strides[axis])
            return true;
    return false;
}

} // namespace

bool access_matches(const analysis::KernelAnalysis& analysis, const analysis::AccessInfo& access,
                    const std::vector<std::int64_t>& params, const FeatureSpec& feature) {
    if (access.space == kernel::MemorySpace::private_)
        return false;
    if (!feature.tag.empty() && access.tag != feature.tag)
        return false;
    if (feature.space && access.space != *feature.space)
        return false;
    if (feature.dtype && access.dtype != *feature.dtype)
        return false;
    if (!feature.direction.empty() &&
        feature.direction != analysis::direction_name(access.direction))
        return false;
    if (constrains_strides(feature)) {
        if (access.indirect)
            return false;
        const analysis::AccessStrides strides = analysis::access_strides(analysis, access, params);
        if (!strides_match(analysis, params, feature.local_strides, strides.thread, feature) ||
            !strides_match(analysis, params, feature.group_strides, strides.block, feature))
            return false;
    }
    if (const auto& afr = feature.access_to_footprint) {
        // The access-to-footprint ratio of global and constant memory (Stevens & Klöckner
        // 6.1.1), as `kerncast count` reports it.
        const bool off_chip = access.space == kernel::MemorySpace::global ||
                              access.space == kernel::MemorySpace::constant;
        if (access.indirect || !off_chip)
            return false;
        const std::int64_t elements = access.footprint_elements.evaluate(params);
        if (elements <= 0)
            return false;
        const double ratio = static_cast<double>(access.count_per_work_item.evaluate(params)) /
                             static_cast<double>(elements);
        if (!satisfies(ratio, afr->comparison, afr->value))
            return false;
    }
    return true;
}

double feature_value(const analysis::KernelAnalysis& analysis,
                     const std::vector<std::int64_t>& params, const FeatureSpec& feature) {
    switch (feature.kind) {
    case FeatureKind::operation: {
        std::int64_t total = 0;
        for (const auto& op : analysis.operations)
            if (op.dtype == feature.dtype && op.operation == feature.operation)
                total += op.count.evaluate(params);
        return static_cast<double>(total);
    }
    case FeatureKind::memory: {
        std::int64_t total = 0;
        for (const auto& access : analysis.accesses)
            if (access_matches(analysis, access, params, feature))
                total += access.count.evaluate(params);
        return static_cast<double>(total);
    }
    case FeatureKind::barrier: {
        std::int64_t total = 0;
        for (const auto& barrier : analysis.barriers)
            total += barrier.per_work_item.evaluate(params);
        return static_cast<double>(total);
    }
    case FeatureKind::launch:
        return 1.0;
    case FeatureKind::thread_group:
        return static_cast<double>(analysis.thread_blocks.evaluate(params));
    case FeatureKind::time:
        break;
    }
    throw Error(ErrorKind::internal,
                "feature '" + feature.name + "' is measured, not computed from a kernel");
}

} // namespace kerncast::models::calibrated
