#include "kerncast/kernel/bound_kernel.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/kernel/launch_text.hpp"

#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <isl/cpp.h>
#include <map>

namespace kerncast::kernel {

namespace {

std::string values_text(const ParameterOverrides& values) {
    std::vector<std::string> items;
    for (const auto& [name, value] : values)
        items.push_back(name + "=" + std::to_string(value));
    return fmt::format("{}", fmt::join(items, ", "));
}

// The domain at fixed parameter values, in the C++ binding; nullopt when isl rejects the
// text (it was rejected with its position when the file was read).
std::optional<::isl::set> fixed_domain(::isl::ctx ctx, const KernelSpec& spec,
                                       const ParameterOverrides& values) {
    if (spec.domain.empty())
        return std::nullopt;
    std::vector<std::string> names, fixed;
    for (const auto& [name, value] : values) {
        names.push_back(name);
        fixed.push_back(name + " = " + std::to_string(value));
    }
    try {
        const ::isl::set params(
            ctx, fmt::format("[{}] -> {{ : {} }}", fmt::join(names, ", "),
                             fixed.empty() ? std::string("true")
                                           : fmt::format("{}", fmt::join(fixed, " and "))));
        return ::isl::set(ctx, spec.domain).intersect_params(params);
    } catch (const ::isl::exception&) {
        return std::nullopt;
    }
}

// Smallest and largest value of `index` over `domain`; nullopt when unbounded or empty.
std::optional<std::pair<std::int64_t, std::int64_t>>
index_range(const ::isl::set& domain, const std::vector<std::string>& indices,
            const std::string& index) {
    const auto at = std::find(indices.begin(), indices.end(), index);
    if (at == indices.end())
        return std::nullopt;
    const int position = static_cast<int>(at - indices.begin());
    try {
        if (domain.is_empty())
            return std::nullopt;
        const ::isl::val low = domain.dim_min_val(position);
        const ::isl::val high = domain.dim_max_val(position);
        if (!low.is_int() || !high.is_int())
            return std::nullopt;
        return std::pair{static_cast<std::int64_t>(low.get_num_si()),
                         static_cast<std::int64_t>(high.get_num_si())};
    } catch (const ::isl::exception&) {
        return std::nullopt; // isl gives up (e.g. an overflow): no range to cover
    }
}

// The range of the index each axis maps (threads: or blocks:) over the domain at `values`:
// nullopt for an axis that maps none, an empty optional range for an unbounded or empty one.
struct AxisRange {
    bool mapped = false;
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
};
using AxisRanges = std::array<AxisRange, axis_count>;

AxisRanges compute_axis_ranges(const KernelSpec& spec, const ParameterOverrides& values) {
    AxisRanges ranges{};
    isl::Context context; // sets ISL_ON_ERROR_CONTINUE, as the C++ binding needs
    const auto domain = fixed_domain(::isl::ctx(context.get()), spec, values);
    if (!domain)
        return ranges;
    for (size_t a = 0; a < static_cast<size_t>(axis_count); ++a) {
        const std::string& global = spec.threads.global[a];
        const std::string& index = !global.empty() ? global : spec.threads.block[a];
        if (index.empty())
            continue;
        ranges[a].mapped = true;
        ranges[a].range = index_range(*domain, spec.indices, index);
    }
    return ranges;
}

// The ranges do not depend on the launch: explore binds one kernel at one set of values for
// every configuration, so each thread keeps the last few (isl's lexmin and lexmax of the
// domain were a tenth of a sweep's time).
const AxisRanges& axis_ranges(const KernelSpec& spec, const ParameterOverrides& values) {
    thread_local std::map<std::string, AxisRanges> cache;
    std::string key = spec.domain;
    for (size_t a = 0; a < static_cast<size_t>(axis_count); ++a)
        key += "|" + spec.threads.global[a] + "|" + spec.threads.block[a];
    for (const auto& index : spec.indices)
        key += "|" + index;
    for (const auto& [name, value] : values)
        key += "|" + name + "=" + std::to_string(value);
    if (const auto at = cache.find(key); at != cache.end())
        return at->second;
    if (cache.size() >= 64)
        cache.clear();
    return cache.emplace(key, compute_axis_ranges(spec, values)).first->second;
}

Dim3 covering_grid(const KernelSpec& spec, const LaunchConfig& launch,
                   const ParameterOverrides& values) {
    Dim3 grid{1, 1, 1};
    const AxisRanges& ranges = axis_ranges(spec, values);
    for (size_t a = 0; a < static_cast<size_t>(axis_count); ++a) {
        if (!ranges[a].mapped)
            continue;
        const auto& range = ranges[a].range;
        if (!range) {
            grid[a] = 0;
            continue;
        }
        if (!spec.threads.global[a].empty()) {
            const std::int64_t per_block = launch.block[a] * launch.fold[a];
            grid[a] = (range->second - range->first + per_block) / per_block;
        } else {
            grid[a] = range->second + 1;
        }
    }
    return grid;
}

} // namespace

void check_assumptions(const KernelSpec& spec, const ParameterOverrides& values) {
    auto lookup = [&](const std::string& name) -> std::optional<std::int64_t> {
        for (const auto& [n, v] : values)
            if (n == name)
                return v;
        return std::nullopt;
    };
    for (size_t k = 0; k < spec.parsed_assumptions.size(); ++k) {
        std::int64_t holds = 0;
        try {
            holds = evaluate_integer(*spec.parsed_assumptions[k], lookup);
        } catch (const ExpressionError& e) {
            throw_input_error("kernel '" + spec.name + "': cannot evaluate assumption " +
                              spec.assumptions[k] + ": " + e.what());
        }
        if (holds == 0)
            throw_input_error("kernel '" + spec.name + "' assumes " + spec.assumptions[k] +
                                  ", which does not hold for " + values_text(values),
                              SourceLocation{spec.file, 0, 0, {}, {}});
    }
    for (const KernelSpec::Requirement& requirement : spec.requirements)
        if (evaluate_integer(*requirement.parsed, lookup) == 0)
            throw_input_error("kernel '" + spec.name + "' needs " + requirement.text +
                                  ", which does not hold for " + values_text(values) + ": " +
                                  requirement.reason,
                              SourceLocation{spec.file, 0, 0, {}, {}});
}

BoundKernel BoundKernel::bind(const KernelSpec& spec, const LaunchConfig& launch,
                              const ParameterOverrides& overrides) {
    BoundKernel bound;
    bound.spec_ = spec;
    bound.launch_ = launch;
    bound.named_ = spec.param_values(overrides); // checks extents and the domain
    check_assumptions(spec, bound.named_);
    for (const auto& [name, value] : bound.named_)
        bound.values_.push_back(value);
    const IntegerLookup lookup = bound.lookup();
    for (const auto& decl : spec.arrays) {
        ArrayExtents extents;
        for (const auto& extent : decl.shape) {
            extents.extents.push_back(evaluate_integer(*extent, lookup));
            if (__builtin_mul_overflow(extents.elements, extents.extents.back(), &extents.elements))
                extents.elements_overflow = true;
        }
        extents.offset = decl.offset ? evaluate_integer(*decl.offset, lookup) : 0;
        bound.arrays_.emplace(decl.name, std::move(extents));
    }
    bound.grid_ = covering_grid(spec, launch, bound.named_);
    return bound;
}

void check_grid_limits(const BoundKernel& bound) {
    check_grid_limits(bound, bound.grid());
}

void check_grid_limits(const BoundKernel& bound, const Dim3& grid) {
    const std::string violation = grid_limit_violation(grid);
    if (violation.empty())
        return;
    const Dim3& block = bound.launch().block;
    const Dim3& fold = bound.launch().fold;
    throw_input_error(
        fmt::format("kernel '{}': block {}x{}x{} with fold {}x{}x{} covers the domain at {} "
                    "with a {}x{}x{} grid; {}: a larger block or fold, or a smaller domain, fits",
                    bound.spec().name, block[0], block[1], block[2], fold[0], fold[1], fold[2],
                    values_text(bound.named_values()), grid[0], grid[1], grid[2], violation),
        SourceLocation{bound.spec().file, 0, 0, {}, {}});
}

std::optional<std::int64_t> BoundKernel::find_value(const std::string& name) const {
    for (const auto& [n, v] : named_)
        if (n == name)
            return v;
    return std::nullopt;
}

std::int64_t BoundKernel::value(const std::string& name) const {
    const auto found = find_value(name);
    KERNCAST_CHECK(found.has_value(), "kernel '" + spec_.name + "' has no parameter " + name);
    return *found;
}

IntegerLookup BoundKernel::lookup() const {
    return [this](const std::string& name) { return find_value(name); };
}

const BoundKernel::ArrayExtents& BoundKernel::array(const std::string& name) const {
    const auto found = arrays_.find(name);
    KERNCAST_CHECK(found != arrays_.end(), "kernel '" + spec_.name + "' has no array " + name);
    return found->second;
}

const std::vector<std::int64_t>& BoundKernel::extents(const std::string& name) const {
    return array(name).extents;
}

std::int64_t BoundKernel::offset(const std::string& name) const {
    return array(name).offset;
}

std::int64_t BoundKernel::elements(const std::string& name) const {
    const ArrayExtents& extents = array(name);
    if (extents.elements_overflow)
        throw_input_error("kernel '" + spec_.name + "': the element count of array '" + name +
                              "' exceeds the 64-bit integer range (over 9.2e18); the parameters "
                              "are too large",
                          SourceLocation{spec_.file, 0, 0, {}, {}},
                          {"parameters: " + parameters_note(named_)});
    return extents.elements;
}

std::string parameters_note(const ParameterOverrides& values) {
    std::vector<std::string> items;
    for (const auto& [name, value] : values)
        items.push_back(name + " = " + std::to_string(value));
    return fmt::format("{}", fmt::join(items, ", "));
}

void rethrow_naming_kernel(const BoundKernel& bound) {
    try {
        throw;
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::input || !e.where().file.empty() || bound.spec().file.empty())
            throw;
        std::vector<std::string> notes = e.notes();
        notes.push_back("parameters: " + parameters_note(bound.named_values()));
        throw_input_error(e.message(), SourceLocation{bound.spec().file, 0, 0, {}, {}}, notes);
    }
}

} // namespace kerncast::kernel
