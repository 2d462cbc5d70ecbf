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

std::string element_text(const ::isl::set& set) {
    const ::isl::point point = set.lexmin().sample_point();
    std::vector<std::string> coordinates;
    for (int k = 0; k < isl::dim_count(set, isl_dim_set); ++k)
        coordinates.push_back(std::to_string(isl::to_int64(isl::coordinate(point, k))));
    return "[" + fmt::format("{}", fmt::join(coordinates, ", ")) + "]";
}

std::string launch_text(const KernelAnalysis& analysis) {
    const auto& b = analysis.launch.block;
    return fmt::format("{}x{}x{}", b[0], b[1], b[2]);
}

} // namespace

namespace {

void check_shared_array(const KernelAnalysis& analysis, const std::vector<std::int64_t>& params,
                        const kernel::ArrayDecl& array);

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

namespace {

void check_shared_array(const KernelAnalysis& analysis, const std::vector<std::int64_t>& params,
                        const kernel::ArrayDecl& array) {
    const kernel::KernelSpec& spec = analysis.spec;
    const SourceLocation where{spec.file, 0, 0, {}, {}};
    {
        std::vector<const AccessInfo*> accesses;
        bool indirect = false;
        for (const AccessInfo& access : analysis.accesses)
            if (access.array == array.name) {
                accesses.push_back(&access);
                indirect = indirect || access.indirect;
            }
        if (accesses.empty() || indirect)
            return;
        isl::Context ctx;
        std::vector<std::string> extents, inside;
        for (size_t d = 0; d < array.shape.size(); ++d) {
            const std::int64_t extent =
                kernel::evaluate_integer(*array.shape[d], [&](const std::string& name) {
                    return parameter(analysis, params, name);
                });
            extents.push_back(std::to_string(extent));
            inside.push_back(fmt::format("0 <= e{} < {}", d, extent));
        }
        std::vector<std::string> names;
        for (size_t d = 0; d < array.shape.size(); ++d)
            names.push_back(fmt::format("e{}", d));
        const ::isl::set box =
            isl::parse_set(ctx, fmt::format("{{ [{}] : {} }}", fmt::join(names, ", "),
                                            fmt::join(inside, " and ")));
        std::optional<::isl::set> written, read;
        std::optional<std::pair<::isl::set, const AccessInfo*>> first_read;
        for (const AccessInfo* access : accesses) {
            const ::isl::set elements = touched_elements(ctx, analysis, *access, params);
            const ::isl::set outside = elements.subtract(box);
            if (!outside.is_empty())
                throw_input_error(
                    fmt::format(
                        "launch block {} cannot run kernel '{}': in block 0, '{}' reaches "
                        "{}[{}] outside the shared array's extents [{}] (a tile written for "
                        "another block size? the kernel file's launch is block {}x{}x{})",
                        launch_text(analysis), spec.name, access->text, array.name,
                        element_text(outside).substr(1, element_text(outside).size() - 2),
                        fmt::join(extents, ", "), spec.launch.block[0], spec.launch.block[1],
                        spec.launch.block[2]),
                    where);
            if (access->direction != Direction::load)
                written = written ? written->unite(elements) : elements;
            if (access->direction != Direction::store)
                read = read ? read->unite(elements) : elements;
        }
        if (!read)
            return;
        const ::isl::set unwritten = written ? read->subtract(*written) : *read;
        if (unwritten.is_empty())
            return;
        const std::string element = element_text(unwritten);
        std::string reader;
        for (const AccessInfo* access : accesses)
            if (access->direction != Direction::store &&
                !touched_elements(ctx, analysis, *access, params)
                     .intersect(isl::parse_set(ctx, "{ " + element + " }"))
                     .is_empty()) {
                reader = access->text;
                break;
            }
        throw_input_error(
            fmt::format("launch block {} cannot run kernel '{}': in block 0, '{}' reads "
                        "{}{} of shared memory, which no statement of the block writes (a "
                        "tile written for another block size? the kernel file's launch is "
                        "block {}x{}x{})",
                        launch_text(analysis), spec.name, reader, array.name, element,
                        spec.launch.block[0], spec.launch.block[1], spec.launch.block[2]),
            where);
    }
}

} // namespace

} // namespace kerncast::analysis
