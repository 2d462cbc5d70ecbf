// A kernel's staged arrays (`stage: shared`, kernel/staged_arrays.hpp) written out for one
// launch: each block copies the box of elements its threads read into a shared tile, waits at a
// barrier and reads the tile instead (the published kernels' `sh_input`, Kernel Tuner's
// convolution.cu; docs/kernel-format.md, "Staging in shared memory"). analyze() stages a kernel
// before it analyses it, so every model, the code generator and the reference interpreter see
// the staged kernel.
#pragma once

#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

namespace kerncast::analysis {

// `spec` at `launch` with every staged array staged: per staged array A of rank D,
//   - a shared array A_shared whose extents are the box of A's elements one block reads
//     (along each dimension: the read subscripts' range over the block's points and the
//     sequential indices' ranges);
//   - a first statement A_shared[e] = A[origin(block) + e] over the box, the block's threads
//     spread over it (threadIdx.x along the innermost dimension, y the next, z the next; the
//     outermost takes what is left), looping where the box is larger than the block, in the
//     first fold instance only; then one barrier;
//   - every read A[s] replaced by A_shared[s - origin(block)].
// Along an axis whose blocks do not tile the domain, the result's domain takes the thread-
// mapped index over whole blocks, the kernel file's statements keep the index's bound as a
// guard, and the staging is clipped to the array's extents (as it is where a `where` guards a
// read). The result's launch is `launch`. Input error (at the array's `stage`) when the tile
// cannot be formed: an index range that is not one affine expression in the parameters, reads
// of A that move differently with the block, a domain whose thread-mapped indices do not span
// a box, or, where the blocks do not tile it, whose thread-mapped indices bound its other
// indices. A parametric extent is judged at the parameters' defaults; one the blocks tile there
// is a requirement the binding checks.
kernel::KernelSpec stage_in_shared_memory(const kernel::KernelSpec& spec,
                                          const kernel::LaunchConfig& launch);

// `spec` with `values` (a binding's parameter values, -D) as its parameters' defaults when it
// stages an array, so that its staging is judged at the values it will be bound to (a 64-wide
// block tiles 4096 columns, not 4100: staged for whole blocks at image_width=4100); `spec` as
// it is otherwise. Names that are no parameter are left to the binding, which refuses them.
kernel::KernelSpec staging_judged_at(const kernel::KernelSpec& spec,
                                     const kernel::ParameterOverrides& values);

} // namespace kerncast::analysis
