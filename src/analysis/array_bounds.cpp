#include "kerncast/analysis/array_bounds.hpp"

#include "access_elements.hpp"
#include "kerncast/error.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kerncast::analysis {

namespace {

void check_access(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                  const kernel::BoundKernel& bound) {
    const std::vector<std::int64_t>& extents = bound.extents(access.array);
    const ::isl::set iterations = detail::launch_iterations(ctx, analysis, access, bound.values());
    const ::isl::map elements = detail::element_map(ctx, access, bound);
    const ::isl::set outside = isl::checked("array elements outside the extents", [&] {
        return iterations.apply(elements).subtract(detail::extents_box(ctx, extents));
    });
    if (outside.is_empty())
        return;
    const std::string element = detail::first_point(outside);
    const ::isl::set reaching = isl::checked("iterations reaching outside", [&] {
        return iterations.intersect(
            elements.intersect_range(isl::parse_set(ctx, "{ [" + element + "] }")).domain());
    });
    const std::string iteration =
        detail::iteration_text(analysis, access, bound, reaching.lexmin().sample_point());
    const char* verb = access.direction == Direction::load    ? "reads"
                       : access.direction == Direction::store ? "writes"
                                                              : "updates";
    const kernel::StatementSpec& statement =
        analysis.spec.statements[static_cast<size_t>(access.statement)];
    throw_input_error(
        fmt::format("kernel '{}': '{}' {} {}[{}], outside the array's extents [{}]{}{}; "
                    "kerncast forecasts only kernels whose accesses stay inside their arrays "
                    "(a domain without the halo? extents too small?)",
                    analysis.spec.name, access.text, verb, access.array, element,
                    fmt::join(extents, ", "), iteration.empty() ? "" : " at ", iteration),
        statement.where);
}

} // namespace

void check_global_bounds(const KernelAnalysis& analysis, const kernel::BoundKernel& bound) {
    isl::Context ctx;
    for (const AccessInfo& access : analysis.accesses) {
        if (access.indirect || access.subscripts.empty() ||
            (access.space != kernel::MemorySpace::global &&
             access.space != kernel::MemorySpace::constant))
            continue;
        try {
            check_access(ctx, analysis, access, bound);
        } catch (const isl::IslError&) {
            // A set isl cannot form: not checked rather than stopping the command (as the
            // shared-array check).
        } catch (const ::isl::exception&) {
        }
    }
}

} // namespace kerncast::analysis
