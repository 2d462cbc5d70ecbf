#include "kerncast/analysis/footprint.hpp"

#include "../support/isl_support.hpp"
#include "access_elements.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kerncast::analysis {

namespace {

// The first iteration's sequential and fold indices of `access` over block 0 (`domain`): its
// lexicographic minimum, fixed in the warp group.
ThreadGroup warp_at_first_iteration(const KernelAnalysis& analysis, const AccessInfo& access,
                                    const ::isl::set& domain, std::int64_t warp_size,
                                    std::int64_t warp) {
    ThreadGroup group;
    group.first_thread = warp * warp_size;
    group.end_thread = (warp + 1) * warp_size;
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

} // namespace

ThreadGroup first_iteration_warp(const KernelAnalysis& analysis, const AccessInfo& access,
                                 const std::vector<std::int64_t>& params, std::int64_t warp_size,
                                 std::int64_t warp) {
    return FootprintSession(analysis, params).first_iteration_warp(access, warp_size, warp);
}

std::string group_iterations(const KernelAnalysis& analysis, const AccessInfo& access,
                             const std::vector<std::int64_t>& params, const ThreadGroup& group) {
    isl::Context ctx;
    return isl::to_string(detail::group_domain(ctx, analysis, access, params, group));
}

ThreadGroup whole_block(const KernelAnalysis& analysis) {
    ThreadGroup group;
    group.first_thread = 0;
    group.end_thread = analysis.threads_per_block;
    return group;
}

// The byte address as isl affine text over the access's domain variables.
static std::string address_expression(const ByteAddress& address) {
    std::string expression = std::to_string(address.constant);
    for (const auto& [name, c] : address.coefficients)
        expression += " + " + std::to_string(c) + "*" + name;
    return expression;
}

// The element byte addresses `access` touches for `group`, and how often it executes.
static ::isl::set address_set(isl::Context& ctx, const KernelAnalysis& analysis,
                              const AccessInfo& access, const std::vector<std::int64_t>& params,
                              const ThreadGroup& group, std::int64_t& executions) {
    if (access.indirect)
        throw_input_error("'" + access.text + "' has a data-dependent address: no footprint");
    const ::isl::set domain = detail::group_domain(ctx, analysis, access, params, group);
    executions += isl::count_points(ctx, domain);
    const std::string expression = address_expression(byte_address(analysis, access, params));
    const ::isl::map map =
        isl::parse_map(ctx, fmt::format("{{ [{}] -> [{}] }}",
                                        fmt::join(access.domain_variables, ", "), expression));
    return isl::checked("computing addresses", [&] { return domain.apply(map); });
}

// The map from byte addresses to granule numbers of `bytes`.
static ::isl::map granule_map(isl::Context& ctx, std::int64_t bytes) {
    KERNCAST_CHECK(bytes > 0, "granule size must be positive");
    return isl::parse_map(ctx, "{ [a] -> [floor(a / " + std::to_string(bytes) + ")] }");
}

static Footprint measure(isl::Context& ctx, const ::isl::set& uncoalesced, std::int64_t executions,
                         const std::vector<::isl::map>& granule_maps,
                         const std::vector<std::int64_t>& granule_bytes) {
    Footprint result;
    result.accesses = executions;
    const ::isl::set addresses = uncoalesced.coalesce();
    result.elements = isl::count_points(ctx, addresses);
    result.element_set = isl::to_string(addresses);
    for (std::size_t k = 0; k < granule_bytes.size(); ++k) {
        const ::isl::set granules = isl::checked(
            "computing granules", [&] { return addresses.apply(granule_maps[k]).coalesce(); });
        result.granules.push_back(GranuleFootprint{
            granule_bytes[k], isl::count_points(ctx, granules), isl::to_string(granules)});
    }
    return result;
}

Footprint footprint(const KernelAnalysis& analysis, const AccessInfo& access,
                    const std::vector<std::int64_t>& params, const ThreadGroup& group,
                    const std::vector<std::int64_t>& granule_bytes) {
    return FootprintSession(analysis, params).footprint(access, group, granule_bytes);
}

namespace {

std::string group_key(const AccessInfo& access, const ThreadGroup& group) {
    std::string key =
        access.domain + "|" + fmt::format("{}", fmt::join(access.domain_variables, ","));
    key +=
        fmt::format("|{}|{}|{}", fmt::join(group.block, ","), group.first_thread, group.end_thread);
    for (const auto& [name, value] : group.fixed_indices)
        key += fmt::format("|{}={}", name, value);
    return key;
}

} // namespace

struct FootprintSession::State {
    const KernelAnalysis& analysis;
    std::vector<std::int64_t> params;
    isl::Context ctx; // before the sets that live in it
    std::map<std::string, ::isl::set> group_domains;
    std::map<std::string, ThreadGroup> first_warps;
    std::map<std::string, Footprint> footprints;
    std::map<std::int64_t, ::isl::map> granule_maps; // by granule bytes
    std::map<std::string, ::isl::map> address_maps;  // by their text

    const ::isl::set& domain(const AccessInfo& access, const ThreadGroup& group) {
        const std::string key = group_key(access, group);
        auto at = group_domains.find(key);
        if (at == group_domains.end())
            at = group_domains
                     .emplace(key, detail::group_domain(ctx, analysis, access, params, group))
                     .first;
        return at->second;
    }
};

FootprintSession::FootprintSession(const KernelAnalysis& analysis, std::vector<std::int64_t> params)
    : state_(new State{analysis, std::move(params), {}, {}, {}, {}, {}, {}}) {}

FootprintSession::~FootprintSession() = default;

ThreadGroup FootprintSession::first_iteration_warp(const AccessInfo& access, std::int64_t warp_size,
                                                   std::int64_t warp) {
    const ThreadGroup block = whole_block(state_->analysis);
    const std::string key =
        group_key(access, block) + fmt::format("|warp {} of {}", warp, warp_size);
    auto at = state_->first_warps.find(key);
    if (at == state_->first_warps.end())
        at = state_->first_warps
                 .emplace(key,
                          warp_at_first_iteration(state_->analysis, access,
                                                  state_->domain(access, block), warp_size, warp))
                 .first;
    return at->second;
}

Footprint FootprintSession::footprint(const AccessInfo& access, const ThreadGroup& group,
                                      const std::vector<std::int64_t>& granule_bytes) {
    if (access.indirect)
        throw_input_error("'" + access.text + "' has a data-dependent address: no footprint");
    const std::string expression =
        address_expression(byte_address(state_->analysis, access, state_->params));
    const std::string key = group_key(access, group) + "|" + expression + "|" +
                            fmt::format("{}", fmt::join(granule_bytes, ","));
    if (const auto at = state_->footprints.find(key); at != state_->footprints.end())
        return at->second;
    isl::Context& ctx = state_->ctx;
    const ::isl::set& domain = state_->domain(access, group);
    const std::int64_t executions = isl::count_points(ctx, domain);
    const std::string map_text =
        fmt::format("{{ [{}] -> [{}] }}", fmt::join(access.domain_variables, ", "), expression);
    auto map = state_->address_maps.find(map_text);
    if (map == state_->address_maps.end())
        map = state_->address_maps.emplace(map_text, isl::parse_map(ctx, map_text)).first;
    const ::isl::set addresses =
        isl::checked("computing addresses", [&] { return domain.apply(map->second); });
    std::vector<::isl::map> granule_maps;
    for (const std::int64_t bytes : granule_bytes) {
        auto at = state_->granule_maps.find(bytes);
        if (at == state_->granule_maps.end())
            at = state_->granule_maps.emplace(bytes, granule_map(ctx, bytes)).first;
        granule_maps.push_back(at->second);
    }
    return state_->footprints
        .emplace(key, measure(ctx, addresses, executions, granule_maps, granule_bytes))
        .first->second;
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
    std::vector<::isl::map> granule_maps;
    for (const std::int64_t bytes : granule_bytes)
        granule_maps.push_back(granule_map(ctx, bytes));
    return measure(ctx, *all, executions, granule_maps, granule_bytes);
}

} // namespace kerncast::analysis
