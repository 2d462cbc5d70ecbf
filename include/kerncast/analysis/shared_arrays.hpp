// Whether a launch can run a kernel's shared-memory arrays: a shared tile is written and read
// by the threads of one block, so a block size it was not written for leaves elements that no
// thread writes (read uninitialised, as on the first GPU run: 16 x 16 tiles at block 1 x 1 x 1
// gave NaN) or indexes past the tile.
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

namespace kerncast::analysis {

// Input error (naming the kernel file, the array, the access and one offending element) when,
// in block 0 of the analysed launch at `bound`'s parameter values:
//   - an access to a shared array reaches an index outside the array's extents, or
//   - a shared element is read (a load, or an atomic update) that no statement of the block
//     writes.
// Statement order is not considered (a read before the write that covers it passes), and
// arrays with data-dependent subscripts are skipped: both need more than footprints.
void check_shared_arrays(const KernelAnalysis& analysis, const kernel::BoundKernel& bound);

} // namespace kerncast::analysis
