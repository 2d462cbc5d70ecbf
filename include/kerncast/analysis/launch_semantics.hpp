// Whether a launch computes what the kernel file's own launch computes. A statement that names
// the launch (tx ty tz, bx by bz, fx fy fz) was written for the kernel file's block and fold:
// under another one the same name stands for other points (folded along y, thread ty runs the
// points that threads 2*ty and 2*ty + 1 ran), so the kernel may write other elements, read a
// shared tile another fold instance filled, or race. kerncast forecasts such a launch only where
// it can show that nothing changed, and refuses the others (docs/kernel-format.md, "Threads,
// blocks, folding").
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

namespace kerncast::analysis {

// Input error naming the kernel file, the access and the launch name, when the analysed launch
// differs from the kernel file's launch along an axis whose launch names a statement uses and
//   - a global or constant access that names them (in a subscript or the statement's `where`)
//     maps some point of the domain to another element than at the file's launch (isl: the
//     relation point -> element at both launches, at `bound`'s values), or
//   - the fold differs along that axis and a shared-array subscript names it (each fold
//     instance would reuse the elements the file's launch gave to other threads).
// Kernels that name no launch name are never refused: their points map to threads by the
// `threads:` formula, which every launch keeps.
void check_launch_semantics(const KernelAnalysis& analysis, const kernel::BoundKernel& bound);

} // namespace kerncast::analysis
