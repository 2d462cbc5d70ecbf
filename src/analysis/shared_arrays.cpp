#include "kerncast/analysis/shared_arrays.hpp"

#include "../support/isl_support.hpp"
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

namespace kerncast::analysis {

namespace {

// The elements (index tuples) `access` touches in block 0.
::isl::set touched_elements(isl::Context& ctx, const KernelAnalysis& analysis,
                            const AccessInfo& access, const kernel::BoundKernel& bound) {
    const ::isl::set iterations = isl::parse_set(
        ctx, group_iterations(analysis, access, bound.values(), whole_block(analysis)));
    std::vector<std::string> subscripts;
    for (const kernel::AffineForm& s : access.subscripts) {
        kernel::AffineForm with_values;
        with_values.constant = s.constant;
        for (const auto& [name, c] : s.coefficients) {
            if (const auto value = bound.find_value(name))
                with_values.constant += c * *value;
            else
                with_values.add_term(name, c);
        }
        subscripts.push_back(with_values.to_string());
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

void check_shared_array(const KernelAnalysis& analysis, const kernel::BoundKernel& bound,
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
    const std::vector<std::int64_t>& extents = bound.extents(array.name);
    std::vector<std::string> names, inside;
    for (size_t d = 0; d < extents.size(); ++d) {
        names.push_back(fmt::format("e{}", d));
        inside.push_back(fmt::format("0 <= e{} < {}", d, extents[d]));
    }
    const ::isl::set box = isl::parse_set(
        ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "), fmt::join(inside, " and ")));
    std::vector<::isl::set> elements; // of accesses[k]
    std::optional<::isl::set> written, read;
    for (const AccessInfo* access : accesses) {
        elements.push_back(touched_elements(ctx, analysis, *access, bound));
        const ::isl::set outside = elements.back().subtract(box);
        if (!outside.is_empty())
            refuse(analysis, fmt::format("'{}' reaches {}[{}] outside the shared array's extents "
                                         "[{}]",
                                         access->text, array.name, first_element(outside),
                                         fmt::join(extents, ", ")));
        if (access->direction != Direction::load) // stores and atomics write
            written = written ? written->unite(elements.back()) : elements.back();
        if (access->direction != Direction::store) // loads and atomics read
            read = read ? read->unite(elements.back()) : elements.back();
    }
    if (!read)
        return;
    const ::isl::set unwritten = written ? read->subtract(*written) : *read;
    if (unwritten.is_empty())
        return;
    const std::string element = first_element(unwritten);
    const ::isl::set single = isl::parse_set(ctx, "{ [" + element + "] }");
    for (size_t k = 0; k < accesses.size(); ++k)
        if (accesses[k]->direction != Direction::store && !elements[k].intersect(single).is_empty())
            refuse(analysis, fmt::format("'{}' reads {}[{}] of shared memory, which no statement "
                                         "of the block writes",
                                         accesses[k]->text, array.name, element));
}

} // namespace

void check_shared_arrays(const KernelAnalysis& analysis, const kernel::BoundKernel& bound) {
    for (const kernel::ArrayDecl& array : analysis.spec.arrays) {
        if (array.space != kernel::MemorySpace::shared || array.shape.empty())
            continue;
        try {
            check_shared_array(analysis, bound, array);
        } catch (const isl::IslError&) {
            // An array whose sets isl cannot form (the reader and the analysis reported what
            // they could) is not checked rather than stopping the command.
        } catch (const ::isl::exception&) {
            // The same, raised by the binding outside isl::checked.
        }
    }
}

} // namespace kerncast::analysis
