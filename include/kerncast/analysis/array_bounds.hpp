// Whether a kernel's global and constant array accesses stay inside their arrays: a subscript
// that reaches past an extent reads or writes memory the kernel does not own (on a GPU, other
// data or a fault), so no count or forecast of it means anything.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

namespace kerncast::analysis {

// Input error naming the statement (file:line:column), the access, the first element outside
// the array's extents and the iteration that reaches it, when an access to a global or
// constant array reaches outside the array at `bound`'s values, over every block of the
// launch (isl: the access's domain through its subscripts, less the box of the extents).
// Accesses with data-dependent subscripts and scalars are not checked (no affine subscript).
void check_global_bounds(const KernelAnalysis& analysis, const kernel::BoundKernel& bound);

} // namespace kerncast::analysis
