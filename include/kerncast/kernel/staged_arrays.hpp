// Arrays a kernel file stages in shared memory (`stage: shared`, docs/kernel-format.md,
// "Staging in shared memory"): what a kernel must be for kerncast to stage them at every launch.
// The staged kernel of one launch is analysis/shared_staging.hpp's.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

namespace kerncast::kernel {

// Whether any array of `spec` is marked `stage: shared`.
bool has_staged_arrays(const KernelSpec& spec);

// Input error, at the statement or the `stage` value, unless every staged array of `spec` can
// be staged at any launch: the kernel maps its indices with `threads:` (not blocks:/locals:),
// names no launch index (tx, bx, fx, ...: it is written for every launch), never writes the
// array, and reads it only through subscripts affine in the indices and parameters.
void check_staged_arrays(const KernelSpec& spec);

} // namespace kerncast::kernel
