#include "kerncast/analysis/footprint.hpp"

#include "../support/isl_support.hpp"
#include "access_elements.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kerncast::analysis {

namespace {

// The access's domain at fixed parameters, restricted to the group.
::isl::set group_domain(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                        const std::vector<std::int64_t>& params, const ThreadGroup& group) {
    const ::isl::set domain = detail::launch_iterations(ctx, analysis, access, params);
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
        fmt::format("{{ [{}] : {} }}", fmt::join(access.domain_variables, ", "),
                    fmt::join(constraints, " and "));
    const ::isl::set restriction = isl::parse_set(ctx, text);
    return isl::checked("restricting a domain to a thread group",
                        [&] { return domain.intersect(restriction); });
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
    const ::isl::set domain = group_domain(ctx, analysis, access, params, block);
    if (domain.is_empty())
        return group;
    const ::isl::point point = domain.lexmin().sample_point();
    for (size_t k = 0; k < access.domain_variables.size(); ++k) {
        const std::string& name = access.domain_variables[k];
        for (const auto& lv : analysis.variables)
            if (lv.name == name && (lv.kind == LaunchVariable::Kind::sequential ||
                                    lv.kind == LaunchVariable::Kind::fold)) {
                group.fixed_indices[name] =
                    isl::to_int64(isl::coordinate(point, static_cast<int>(k)));
            }
    }
    return group;
}

std::string group_iterations(const KernelAnalysis& analysis, const AccessInfo& access,
                             const std::vector<std::int64_t>& params, const ThreadGroup& group) {
    isl::Context ctx;
    return isl::to_string(group_domain(ctx, analysis, access, params, group));
}

ThreadGroup whole_block(const KernelAnalysis& analysis) {
    ThreadGroup group;
    group.first_thread = 0;
    group.end_thread = analysis.threads_per_block;
    return group;
}

// The element byte addresses `access` touches for `group`, and how often it executes.
static ::isl::set address_set(isl::Context& ctx, const KernelAnalysis& analysis,
                              const AccessInfo& access, const std::vector<std::int64_t>& params,
                              const ThreadGroup& group, std::int64_t& executions) {
    if (access.indirect)
        throw_input_error("'" + access.text + "' has a data-dependent address: no footprint");
    const ::isl::set domain = group_domain(ctx, analysis, access, params, group);
    executions += isl::count_points(ctx, domain);
    const ByteAddress address = byte_address(analysis, access, params);
    std::string expression = std::to_string(address.constant);
    for (const auto& [name, c] : address.coefficients)
        expression += " + " + std::to_string(c) + "*" + name;
    const ::isl::map map =
        isl::parse_map(ctx, fmt::format("{{ [{}] -> [{}] }}",
                                        fmt::join(access.domain_variables, ", "), expression));
    return isl::checked("computing addresses", [&] { return domain.apply(map); });
}

static Footprint measure(isl::Context& ctx, const ::isl::set& uncoalesced, std::int64_t executions,
                         const std::vector<std::int64_t>& granule_bytes) {
    Footprint result;
    result.accesses = executions;
    const ::isl::set addresses = uncoalesced.coalesce();
    result.elements = isl::count_points(ctx, addresses);
    result.element_set = isl::to_string(addresses);
    for (const std::int64_t bytes : granule_bytes) {
        KERNCAST_CHECK(bytes > 0, "granule size must be positive");
        const ::isl::map granule =
            isl::parse_map(ctx, "{ [a] -> [floor(a / " + std::to_string(bytes) + ")] }");
        const ::isl::set granules =
            isl::checked("computing granules", [&] { return addresses.apply(granule).coalesce(); });
        result.granules.push_back(
            GranuleFootprint{bytes, isl::count_points(ctx, granules), isl::to_string(granules)});
    }
    return result;
}

Footprint footprint(const KernelAnalysis& analysis, const AccessInfo& access,
                    const std::vector<std::int64_t>& params, const ThreadGroup& group,
                    const std::vector<std::int64_t>& granule_bytes) {
    isl::Context ctx;
    std::int64_t executions = 0;
    const ::isl::set addresses = address_set(ctx, analysis, access, params, group, executions);
    return measure(ctx, addresses, executions, granule_bytes);
}

Footprint array_footprint(const KernelAnalysis& analysis, const std::string& array,
                          const std::vector<std::int64_t>& params, const ThreadGroup& group,
                          const std::vector<std::int64_t>& granule_bytes,
                          std::optional<Direction> direction) {
    isl::Context ctx;
    std::int64_t executions = 0;
    std::optional<::isl::set> all;
    for (const auto& access : analysis.accesses) {
        if (access.array != array || (direction && access.direction != *direction))
            continue;
        const ::isl::set addresses = address_set(ctx, analysis, access, params, group, executions);
        all = all ? isl::checked("uniting footprints", [&] { return all->unite(addresses); })
                  : addresses;
    }
    if (!all)
        throw_input_error("kernel '" + analysis.spec.name + "' has no such access to '" + array +
                          "'");
    return measure(ctx, *all, executions, granule_bytes);
}

} // namespace kerncast::analysis
