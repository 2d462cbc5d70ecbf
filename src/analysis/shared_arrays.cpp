#include "kerncast/analysis/shared_arrays.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

namespace kerncast::analysis {

namespace {

// The value of `name` among the parameters, if it is one.
std::optional<std::int64_t> parameter(const KernelAnalysis& analysis,
                                      const std::vector<std::int64_t>& params,
                                      const std::string& name) {
    for (size_t k = 0; k < analysis.parameters.size(); ++k)
        if (analysis.parameters[k] == name)
            return params[k];
    return std::nullopt;
}

// The elements (index tuples) `access` touches in block 0.
::isl::set touched_elements(isl::Context& ctx, const KernelAnalysis& analysis,
                            const AccessInfo& access, const std::vector<std::int64_t>& params) {
    const ::isl::set iterations =
        isl::parse_set(ctx, group_iterations(analysis, access, params, whole_block(analysis)));
    std::vector<std::string> subscripts;
    for (const kernel::AffineForm& s : access.subscripts) {
        kernel::AffineForm bound;
        bound.constant = s.constant;
        for (const auto& [name, c] : s.coefficients) {
            if (const auto value = parameter(analysis, params, name))
                bound.constant += c * *value;
            else
                bound.add_term(name, c);
        }
        subscripts.push_back(bound.to_string());
    }
    const ::isl::map map = isl::parse_map(ctx, fmt::format("{{ [{}] -> [{}] }}",
                                                           fmt::join(access.domain_variables, ", "),
                                                           fmt::join(subscripts, ", ")));
    return isl::checked("shared-array elements", [&] { return iterations.apply(map); });
}

// The lexicographically first element of a non-empty set: "0, 16".
std::string first_element(const ::isl::set& set) {
    const ::isl::point point = set.lexmin().sample_point();
    std::vector<std::string> coordinates;
    for (int k = 0; k < isl::dim_count(set, isl_dim_set); ++k)
        coordinates.push_back(std::to_string(isl::to_int64(isl::coordinate(point, k))));
    return fmt::format("{}", fmt::join(coordinates, ", "));
}

// "launch block 1x1x1 cannot run kernel 'k': in block 0, " + what + " (a tile written ...)".
[[noreturn]] void refuse(const KernelAnalysis& analysis, const std::string& what) {
    const kernel::KernelSpec& spec = analysis.spec;
    const auto& block = analysis.launch.block;
    const auto& file_block = spec.launch.block;
    throw_input_error(fmt::format("launch block {}x{}x{} cannot run kernel '{}': in block 0, {} "
                                  "(a tile written for another block size? the kernel file's "
                                  "launch is block {}x{}x{})",
                                  block[0], block[1], block[2], spec.name, what, file_block[0],
                                  file_block[1], file_block[2]),
                      SourceLocation{spec.file, 0, 0, {}, {}});
}

void check_shared_array(const KernelAnalysis& analysis, const std::vector<std::int64_t>& params,
                        const kernel::ArrayDecl& array) {
    std::vector<const AccessInfo*> accesses;
    for (const AccessInfo& access : analysis.accesses) {
        if (access.array != array.name)
            continue;
        if (access.indirect)
            return; // a data-dependent subscript: no footprint to check
        accesses.push_back(&access);
    }
    if (accesses.empty())
        return;
    isl::Context ctx;
    std::vector<std::string> extents, names, inside;
    for (size_t d = 0; d < array.shape.size(); ++d) {
        const std::int64_t extent =
            kernel::evaluate_integer(*array.shape[d], [&](const std::string& name) {
                return parameter(analysis, params, name);
            });
        extents.push_back(std::to_string(extent));
        names.push_back(fmt::format("e{}", d));
        inside.push_back(fmt::format("0 <= e{} < {}", d, extent));
    }
    const ::isl::set box = isl::parse_set(
        ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "), fmt::join(inside, " and ")));
    std::optional<::isl::set> written, read;
    for (const AccessInfo* access : accesses) {
        const ::isl::set elements = touched_elements(ctx, analysis, *access, params);
        const ::isl::set outside = elements.subtract(box);
        if (!outside.is_empty())
            refuse(analysis, fmt::format("'{}' reaches {}[{}] outside the shared array's extents "
                                         "[{}]",
                                         access->text, array.name, first_element(outside),
                                         fmt::join(extents, ", ")));
        if (access->direction != Direction::load) // stores and atomics write
            written = written ? written->unite(elements) : elements;
        if (access->direction != Direction::store) // loads and atomics read
            read = read ? read->unite(elements) : elements;
    }
    if (!read)
        return;
    const ::isl::set unwritten = written ? read->subtract(*written) : *read;
    if (unwritten.is_empty())
        return;
    const std::string element = first_element(unwritten);
    const ::isl::set single = isl::parse_set(ctx, "{ [" + element + "] }");
    for (const AccessInfo* access : accesses)
        if (access->direction != Direction::store &&
            !touched_elements(ctx, analysis, *access, params).intersect(single).is_empty())
            refuse(analysis, fmt::format("'{}' reads {}[{}] of shared memory, which no statement "
                                         "of the block writes",
                                         access->text, array.name, element));
}

} // namespace

void check_shared_arrays(const KernelAnalysis& analysis, const std::vector<std::int64_t>& params) {
    for (const kernel::ArrayDecl& array : analysis.spec.arrays) {
        if (array.space != kernel::MemorySpace::shared || array.shape.empty())
            continue;
        try {
            check_shared_array(analysis, params, array);
        } catch (const isl::IslError&) {
            // An array whose sets isl cannot form (the reader and the analysis reported what
            // they could) is not checked rather than stopping the command.
        } catch (const ::isl::exception&) {
            // The same, raised by the binding outside isl::checked.
        } catch (const kernel::ExpressionError&) {
            // Likewise an extent that does not evaluate: the models report it where they use it.
        }
    }
}

} // namespace kerncast::analysis
