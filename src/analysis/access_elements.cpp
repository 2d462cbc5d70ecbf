#include "access_elements.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

namespace kerncast::analysis::detail {

::isl::set launch_iterations(isl::Context& ctx, const KernelAnalysis& analysis,
                             const AccessInfo& access, const std::vector<std::int64_t>& params) {
    ::isl::set domain = isl::parse_set(ctx, access.domain);
    const auto names = isl::dim_names(domain, isl_dim_param);
    for (size_t k = 0; k < names.size(); ++k) {
        auto at = std::find(analysis.parameters.begin(), analysis.parameters.end(), names[k]);
        KERNCAST_CHECK(at != analysis.parameters.end(), "unknown parameter " + names[k]);
        domain = isl::fix_param(domain, static_cast<int>(k),
                                params[static_cast<size_t>(at - analysis.parameters.begin())]);
    }
    return isl::checked("fixing the parameters of an access's domain", [&] {
        return isl::project_out(domain, isl_dim_param, 0, static_cast<int>(names.size()));
    });
}

// The access's domain at fixed parameters, restricted to the group.
::isl::set group_domain(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                        const std::vector<std::int64_t>& params, const ThreadGroup& group) {
    const ::isl::set domain = launch_iterations(ctx, analysis, access, params);
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

std::string affine_text(const kernel::AffineForm& form, const kernel::BoundKernel& bound,
                        const std::string& prefix) {
    kernel::AffineForm with_values;
    with_values.constant = form.constant;
    for (const auto& [name, c] : form.coefficients) {
        if (const auto value = bound.find_value(name))
            with_values.constant += c * *value;
        else
            with_values.add_term(prefix + name, c);
    }
    return with_values.to_string();
}

::isl::map element_map(isl::Context& ctx, const AccessInfo& access,
                       const kernel::BoundKernel& bound) {
    KERNCAST_CHECK(!access.indirect, "an indirect access has no element map");
    std::vector<std::string> subscripts;
    for (const kernel::AffineForm& s : access.subscripts)
        subscripts.push_back(affine_text(s, bound));
    return isl::parse_map(ctx, fmt::format("{{ [{}] -> [{}] }}",
                                           fmt::join(access.domain_variables, ", "),
                                           fmt::join(subscripts, ", ")));
}

::isl::set touched_elements(const ::isl::set& iterations, isl::Context& ctx,
                            const AccessInfo& access, const kernel::BoundKernel& bound) {
    const ::isl::map map = element_map(ctx, access, bound);
    return isl::checked("array elements", [&] { return iterations.apply(map); });
}

::isl::set extents_box(isl::Context& ctx, const std::vector<std::int64_t>& extents) {
    std::vector<std::string> names, inside;
    for (size_t d = 0; d < extents.size(); ++d) {
        names.push_back(fmt::format("e{}", d));
        inside.push_back(fmt::format("0 <= e{} < {}", d, extents[d]));
    }
    return isl::parse_set(
        ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "), fmt::join(inside, " and ")));
}

std::string first_point(const ::isl::set& set) {
    const ::isl::point point = set.lexmin().sample_point();
    std::vector<std::string> coordinates;
    for (int k = 0; k < isl::dim_count(set, isl_dim_set); ++k)
        coordinates.push_back(std::to_string(isl::to_int64(isl::coordinate(point, k))));
    return fmt::format("{}", fmt::join(coordinates, ", "));
}

std::string iteration_text(const KernelAnalysis& analysis, const AccessInfo& access,
                           const kernel::BoundKernel& bound, const ::isl::point& point) {
    std::map<std::string, std::int64_t> variables;
    for (size_t k = 0; k < access.domain_variables.size(); ++k)
        variables[access.domain_variables[k]] =
            isl::to_int64(isl::coordinate(point, static_cast<int>(k)));
    std::vector<std::string> parts;
    for (const std::string& index : analysis.spec.indices) {
        const auto form = analysis.index_forms.find(index);
        if (form == analysis.index_forms.end())
            continue;
        std::int64_t value = form->second.constant;
        bool known = true;
        for (const auto& [name, c] : form->second.coefficients) {
            const auto v = variables.find(name);
            const auto parameter = bound.find_value(name);
            if (v != variables.end())
                value += c * v->second;
            else if (parameter)
                value += c * *parameter;
            else
                known = false;
        }
        if (known)
            parts.push_back(fmt::format("{} = {}", index, value));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

} // namespace kerncast::analysis::detail
