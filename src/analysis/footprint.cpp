#include "kerncast/analysis/footprint.hpp"

#include "../support/isl_support.hpp"

namespace kerncast::analysis {

namespace {

std::string join(const std::vector<std::string>& items, const char* separator = ", ") {
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : separator) + item;
    return text;
}

// The access's domain at fixed parameters, restricted to the group.
isl::Set group_domain(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                      const std::vector<std::int64_t>& params, const ThreadGroup& group) {
    isl::Set domain = isl::read_set(ctx, access.domain);
    const auto names = isl::dim_names(domain.get(), isl_dim_param);
    for (size_t k = 0; k < names.size(); ++k) {
        auto at = std::find(analysis.parameters.begin(), analysis.parameters.end(), names[k]);
        KERNCAST_CHECK(at != analysis.parameters.end(), "unknown parameter " + names[k]);
        isl_val* value =
            isl_val_int_from_si(isl_set_get_ctx(domain.get()),
                                params[static_cast<size_t>(at - analysis.parameters.begin())]);
        domain.reset(
            isl_set_fix_val(domain.release(), isl_dim_param, static_cast<unsigned>(k), value));
    }
    std::vector<std::string> constraints;
    const auto& block = analysis.launch.block;
    std::string linear;
    for (const auto& v : access.domain_variables) {
        for (const auto& lv : analysis.variables) {
            if (lv.name != v)
                continue;
            if (lv.kind == LaunchVariable::Kind::block)
                constraints.push_back(v + " = " +
                                      std::to_string(group.block[static_cast<size_t>(lv.axis)]));
            if (lv.kind == LaunchVariable::Kind::thread) {
                std::int64_t scale = 1;
                for (int a = 0; a < lv.axis; ++a)
                    scale *= block[static_cast<size_t>(a)];
                linear += (linear.empty() ? "" : " + ") + std::to_string(scale) + "*" + v;
            }
            if (lv.kind == LaunchVariable::Kind::sequential ||
                lv.kind == LaunchVariable::Kind::fold) {
                auto fixed = group.fixed_indices.find(v);
                if (fixed != group.fixed_indices.end())
                    constraints.push_back(v + " = " + std::to_string(fixed->second));
            }
        }
    }
    if (linear.empty())
        linear = "0";
    constraints.push_back(std::to_string(group.first_thread) + " <= " + linear + " < " +
                          std::to_string(group.end_thread));
    const std::string text =
        "{ [" + join(access.domain_variables) + "] : " + join(constraints, " and ") + " }";
    isl::Set restriction = isl::read_set(ctx, text);
    domain.reset(isl_set_project_out(domain.release(), isl_dim_param, 0,
                                     static_cast<unsigned>(names.size())));
    domain.reset(isl_set_intersect(domain.release(), restriction.release()));
    ctx.check(domain.get(), "restricting a domain to a thread group");
    return domain;
}

} // namespace

ThreadGroup first_iteration_warp(const KernelAnalysis& analysis, const AccessInfo& access,
                                 const std::vector<std::int64_t>& params, std::int64_t warp_size,
                                 std::int64_t warp) {
    ThreadGroup group;
    group.first_thread = warp * warp_size;
    group.end_thread = (warp + 1) * warp_size;
    // First iteration of the sequential loops: the lexicographic minimum over block 0.
    isl::Context ctx;
    ThreadGroup block = whole_block(analysis);
    isl::Set domain = group_domain(ctx, analysis, access, params, block);
    if (isl_set_is_empty(domain.get()) == isl_bool_true)
        return group;
    isl::Set minimum(isl_set_lexmin(domain.release()));
    isl_point* point = isl_set_sample_point(minimum.release());
    if (!point)
        return group;
    for (size_t k = 0; k < access.domain_variables.size(); ++k) {
        const std::string& name = access.domain_variables[k];
        for (const auto& lv : analysis.variables)
            if (lv.name == name && (lv.kind == LaunchVariable::Kind::sequential ||
                                    lv.kind == LaunchVariable::Kind::fold)) {
                isl::Val value(
                    isl_point_get_coordinate_val(point, isl_dim_set, static_cast<int>(k)));
                group.fixed_indices[name] = isl::to_int64(value.get());
            }
    }
    isl_point_free(point);
    return group;
}

ThreadGroup whole_block(const KernelAnalysis& analysis) {
    ThreadGroup group;
    group.first_thread = 0;
    group.end_thread = analysis.threads_per_block;
    return group;
}

// The element byte addresses `access` touches for `group`, and how often it executes.
static isl::Set address_set(isl::Context& ctx, const KernelAnalysis& analysis,
                            const AccessInfo& access, const std::vector<std::int64_t>& params,
                            const ThreadGroup& group, std::int64_t& executions) {
    if (access.indirect)
        throw_input_error("'" + access.text + "' has a data-dependent address: no footprint");
    isl::Set domain = group_domain(ctx, analysis, access, params, group);
    executions += isl::count_points(ctx, domain.get());
    const ByteAddress address = byte_address(analysis, access, params);
    std::string expression = std::to_string(address.constant);
    for (const auto& [name, c] : address.coefficients)
        expression += " + " + std::to_string(c) + "*" + name;
    isl::Map map =
        isl::read_map(ctx, "{ [" + join(access.domain_variables) + "] -> [" + expression + "] }");
    isl::Set addresses(isl_set_apply(domain.release(), map.release()));
    ctx.check(addresses.get(), "computing addresses");
    return addresses;
}

static Footprint measure(isl::Context& ctx, isl::Set addresses, std::int64_t executions,
                         const std::vector<std::int64_t>& granule_bytes) {
    Footprint result;
    result.accesses = executions;
    addresses.reset(isl_set_coalesce(addresses.release()));
    result.elements = isl::count_points(ctx, addresses.get());
    result.element_set = isl::to_string(addresses.get());
    for (const std::int64_t bytes : granule_bytes) {
        KERNCAST_CHECK(bytes > 0, "granule size must be positive");
        isl::Map granule =
            isl::read_map(ctx, "{ [a] -> [floor(a / " + std::to_string(bytes) + ")] }");
        isl::Set granules(isl_set_apply(isl_set_copy(addresses.get()), granule.release()));
        ctx.check(granules.get(), "computing granules");
        granules.reset(isl_set_coalesce(granules.release()));
        result.granules.push_back(GranuleFootprint{bytes, isl::count_points(ctx, granules.get()),
                                                   isl::to_string(granules.get())});
    }
    return result;
}

Footprint footprint(const KernelAnalysis& analysis, const AccessInfo& access,
                    const std::vector<std::int64_t>& params, const ThreadGroup& group,
                    const std::vector<std::int64_t>& granule_bytes) {
    isl::Context ctx;
    std::int64_t executions = 0;
    isl::Set addresses = address_set(ctx, analysis, access, params, group, executions);
    return measure(ctx, std::move(addresses), executions, granule_bytes);
}

Footprint array_footprint(const KernelAnalysis& analysis, const std::string& array,
                          const std::vector<std::int64_t>& params, const ThreadGroup& group,
                          const std::vector<std::int64_t>& granule_bytes,
                          std::optional<Direction> direction) {
    isl::Context ctx;
    std::int64_t executions = 0;
    isl::Set all;
    for (const auto& access : analysis.accesses) {
        if (access.array != array || (direction && access.direction != *direction))
            continue;
        isl::Set addresses = address_set(ctx, analysis, access, params, group, executions);
        all.reset(all ? isl_set_union(all.release(), addresses.release()) : addresses.release());
        ctx.check(all.get(), "uniting footprints");
    }
    if (!all)
        throw_input_error("kernel '" + analysis.spec.name + "' has no such access to '" + array +
                          "'");
    return measure(ctx, std::move(all), executions, granule_bytes);
}

} // namespace kerncast::analysis
