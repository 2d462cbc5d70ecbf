// Private: register reuse of a folded thread's global loads (docs/codegen.md, "Folding").
//
// The volume model counts a load that a thread already issued in an earlier fold instance (or
// earlier in the same one) as a register read, not an L1 request: the L1 cycles of Ernst et
// al. 2023, sec. 4.2 and fig. 12, and kerncast's L1 simulation (l1_simulation.hpp) both do.
// Printed as a loop over the fold, nvcc keeps every load of every iteration in PTX, and ptxas
// merges them only for some block shapes (docs/accuracy.md, "The L1 on Hopper": on an H200, in
// 18 of 60 folded star configurations). So the generator makes the reuse explicit: when every
// fold instance of a thread lies in the domain, an unrolled fast path loads each distinct
// element of a read-only array once into a `const` local, in the order the model issues
// them; otherwise the thread takes the fold loop as before.
#pragma once

#include "kerncast/codegen/schedule.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kerncast::codegen::detail {

// A thread index on the fast path: fold-independent ones once under their own name, the
// others once per fold instance ("kc_z_1": z in instance 1).
struct FastPathIndex {
    std::string name;
    kernel::AffineForm form; // in bx by bz tx ty tz (fold indices substituted)
};

// One distinct element of a read-only array, loaded once into a local.
struct ReusedLoad {
    std::string name;  // "kc_src_3"
    std::string array; // "src"
    kernel::ExprPtr
        reference; // the element: an array_ref (or a scalar's variable), fast-path names
};

// A floating-point value that fold instances share: an operation whose operands do not
// depend on the fold index along some folded axis is computed once into a local for the
// instances that differ only along such axes (and the analysis counts it once for them:
// analysis/kernel_analysis.cpp, fold_dependence). Its nested values that more instances share
// are locals of their own.
struct SharedValue {
    std::string name; // "kc_v_2"
    kernel::DataType dtype = kernel::DataType::f32;
    kernel::ExprPtr value; // fast-path names, reused loads and shared values as their locals
};

struct FastPathStep {
    std::vector<size_t> first_loads;  // ReusedLoad indices first read here: loaded just before
    std::vector<size_t> first_values; // SharedValue indices first used here: computed after them
    Step step;                        // fast-path names, reused loads as their locals, unguarded
};

struct FastPathInstance {
    std::array<std::int64_t, kernel::axis_count> fold_index{0, 0, 0}; // fx, fy, fz
    std::vector<FastPathStep> steps;
};

// Around sequential loops the instances run interleaved (register tiling): the schedule's loop
// tree once, each compute step once per instance inside it, so that the instances share the
// loads of one iteration, as the L1 model counts them.
struct InterleavedNode {
    bool loop = false;
    std::string index; // loop: its index and bounds
    std::int64_t lower = 0, upper = -1;
    std::vector<InterleavedNode> body;   // loop
    std::vector<FastPathStep> instances; // compute: one step per instance, in instance order
};

// A private scalar copied for instances 1, 2, ... when the instances interleave ("kc_acc_y_1" of
// "acc_y"); instance 0 uses the scalar itself.
struct PrivateCopy {
    std::string name;
    std::string of;
};

struct FoldLoadReuse {
    std::vector<FastPathIndex> indices;      // in the order they are declared
    std::vector<kernel::ExprPtr> conditions; // the distinct conjuncts of every instance's guards
    std::vector<ReusedLoad> loads;           // in first-use order
    std::vector<SharedValue> values;         // in first-use order
    std::vector<FastPathInstance> instances; // fz outermost, fx innermost (the loops' order)
    // With sequential loops: the interleaved tree instead of `instances`, and the copies of the
    // private scalars it names.
    std::vector<InterleavedNode> interleaved;
    std::vector<PrivateCopy> private_copies;
    std::int64_t loop_loads = 0; // reads of the same elements the fold loop issues (>= loads)
    std::int64_t value_uses = 0; // computations of the shared values the fold loop does
};

// Fold instances beyond which no fast path is generated (code size).
inline constexpr std::int64_t fold_fast_path_instance_limit = 32;

// The fast path of `schedule`, or nullopt when it has none: no folding, more than
// fold_fast_path_instance_limit instances, a body with barriers, or no load or value that two
// fold instances (or one twice) share. Reused are the loads of global and constant arrays that no
// statement writes, whose subscripts are affine in the thread indices, the enclosing loops'
// indices and the parameters; a load first made inside a loop is reused within that loop's
// iteration. A body with sequential loops interleaves its instances (`interleaved`) only when
// that keeps what it computes: no atomics, no array both written and read (a compound
// assignment's own target aside), private arrays scalars only (one copy an instance), and
// guards free of loop indices and memory (they are tested once, before the loops).
// `used`: the names the body uses (thread indices among them).
std::optional<FoldLoadReuse> plan_fold_load_reuse(const Schedule& schedule,
                                                  const std::set<std::string>& used);

} // namespace kerncast::codegen::detail
