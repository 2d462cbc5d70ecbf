// Lowering a kernel file to an executable schedule: the loop tree one thread runs, with every
// statement's guard, at fixed parameter values and one launch configuration. The CUDA code
// generator (cuda_codegen.hpp) prints it; the CPU reference interpreter
// (reference_interpreter.hpp) executes it. docs/codegen.md describes the rules.
#pragma once

#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::codegen {

// How one array is stored at the chosen parameter values. Global and constant arrays become device
// buffers of `buffer_elements` = offset + product(extents) elements; element (s0, s1, ...) lives at
// offset + row-major(s0, s1, ...).
struct ArrayStorage {
    kernel::ArrayDecl decl;
    std::vector<std::int64_t> extents; // empty for a scalar
    std::int64_t offset = 0;           // elements
    std::int64_t elements = 1;         // product(extents)
    std::int64_t buffer_elements = 1;  // offset + elements
    bool written = false;              // some statement stores to it
    // Accumulators the lowering introduces for reductions are private arrays too; they are
    // initialised by their own statements, every other private array by the deterministic
    // hash of (name, element) (runtime/deterministic_init.hpp).
    bool accumulator = false;
};

enum class StepKind { loop, compute, barrier };

// A node of the loop tree. Loops run over [lower, upper] (inclusive, the bounding box of the
// index over the domain at the chosen parameters), the same for every thread, so barriers
// inside them are reached uniformly; statements are guarded instead.
struct Step {
    StepKind kind = StepKind::compute;
    // loop
    std::string index;
    std::int64_t lower = 0;
    std::int64_t upper = -1;
    std::vector<Step> body;
    // compute
    int source_statement = -1; // index into KernelSpec::statements
    std::string role;          // "", "init <acc>", "update <acc>": what the piece does
    kernel::Statement statement;
    kernel::ExprPtr guard; // null: always executed (domain and `where` conditions)
};

// A thread-mapped index: value = form(bx, tx, fx, ...) at the chosen parameters.
struct ThreadIndex {
    std::string index;
    int axis = 0;
    bool explicit_block = false; // blocks: {x: bj}: the index is blockIdx
    bool explicit_local = false; // locals: {x: lj}: the index is threadIdx
    kernel::AffineForm form;     // in bx by bz tx ty tz fx fy fz, constant folded
};

struct Schedule {
    kernel::KernelSpec spec;
    kernel::LaunchConfig launch; // the launch actually used (fixed tiles applied)
    std::array<std::int64_t, kernel::axis_count> grid{1, 1, 1};
    std::vector<std::pair<std::string, std::int64_t>> parameters; // declaration order
    std::vector<ThreadIndex> thread_indices;
    std::vector<ArrayStorage> arrays; // declaration order, then accumulators
    std::vector<Step> body;           // run once per fold point of every thread

    const ArrayStorage* find_array(const std::string& name) const;
    std::int64_t threads_per_block() const {
        return launch.block[0] * launch.block[1] * launch.block[2];
    }
};

// Lowers the bound kernel (at the launch its analysis resolves: a local index fixes the block
// size along its axis). Statements that share sequential loops are fused in file order; a reduction
// becomes an accumulator (a private scalar, or a private array over the statement's own
// sequential indices when its loops end up split by a shared loop) with init / update / store
// pieces; a nested reduction's accumulator is initialised inside the enclosing reduction's
// loops and read by its update. Input Errors for kernels the generator cannot express (a
// reduction over a thread index, over an index used outside it or bound by an enclosing
// reduction; bitwise atomics on reals).
Schedule lower_kernel(const kernel::BoundKernel& bound);
// Convenience: `spec` analysed under `launch` and bound, at the launch the analysis resolved,
// with parameter `overrides` (defaults otherwise).
Schedule lower_kernel(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                      const kernel::ParameterOverrides& overrides = {});

} // namespace kerncast::codegen
