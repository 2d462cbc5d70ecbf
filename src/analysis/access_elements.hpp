// The array elements an access touches, as isl sets at a bound kernel's parameter values: what
// the checks on shared arrays (shared_arrays.hpp), global arrays (array_bounds.hpp) and a
// launch's semantics (launch_semantics.hpp) compare. Internal to the analysis.
#pragma once

#include "../support/isl_support.hpp"
#include "kerncast/analysis/footprint.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kerncast::analysis::detail {

// The access's domain (every iteration of every block) at `params`, parameters projected out:
// a set over access.domain_variables.
::isl::set launch_iterations(isl::Context& ctx, const KernelAnalysis& analysis,
                             const AccessInfo& access, const std::vector<std::int64_t>& params);

// launch_iterations restricted to `group` (its block, threads and fixed indices).
::isl::set group_domain(isl::Context& ctx, const KernelAnalysis& analysis, const AccessInfo& access,
                        const std::vector<std::int64_t>& params, const ThreadGroup& group);

// `form` at `bound`'s parameter values, as isl text whose variables carry `prefix`.
std::string affine_text(const kernel::AffineForm& form, const kernel::BoundKernel& bound,
                        const std::string& prefix = "");

// { [domain variables] -> [subscripts] } of a non-indirect access at `bound`'s values.
::isl::map element_map(isl::Context& ctx, const AccessInfo& access,
                       const kernel::BoundKernel& bound);

// The elements `access` touches over `iterations` (a set over its domain variables).
::isl::set touched_elements(const ::isl::set& iterations, isl::Context& ctx,
                            const AccessInfo& access, const kernel::BoundKernel& bound);

// { [e0, e1, ...] : 0 <= e_d < extents[d] }.
::isl::set extents_box(isl::Context& ctx, const std::vector<std::int64_t>& extents);

// The lexicographically first point of a non-empty set, its coordinates joined: "0, 16".
std::string first_point(const ::isl::set& set);

// The kernel's indices at one iteration of `access` (a point of a set over its domain
// variables): "i = 0, k = 3", in the kernel's index order; indices the access does not run
// over are left out.
std::string iteration_text(const KernelAnalysis& analysis, const AccessInfo& access,
                           const kernel::BoundKernel& bound, const ::isl::point& point);

} // namespace kerncast::analysis::detail
