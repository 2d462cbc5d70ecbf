// Static analysis of a kernel: exact symbolic operation / memory-access / barrier counts with
// the loopy statistics conventions that PERFLEX builds on (Stevens & Klöckner sec. 5-6), and
// per-access affine byte addresses in threadIdx/blockIdx/fold/sequential indices (what the
// Warpspeed volume estimator consumes, Ernst et al. sec. 1.2-1.3, 4). Pure; no GPU.
#pragma once

#include "kerncast/analysis/symbolic_count.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::analysis {

struct CountOptions {
    // Sub-group (warp) size of loopy's per-sub-group counting convention.
    std::int64_t subgroup_size = 32;
    // Count integer index arithmetic inside subscripts (as i32 add/mul).
    bool count_index_arithmetic = false;
};

// Unit of a count (counting-cases.md): executions by every work-item (thread), once per
// sub-group (warp) of a work-group, or once per work-group (thread block).
enum class Granularity { work_item, subgroup, work_group };
const char* granularity_name(Granularity granularity); // "work-item", "sub-group", ...

enum class Direction { load, store, atomic };
const char* direction_name(Direction direction);

// One arithmetic operation class: "add", "mul", "div", "madd" (a multiply feeding an add:
// counted in addition to its add and mul, see docs/kernel-format.md), "cmp", "min", "max",
// "func:<name>" (special functions), "atomic:<kind>".
struct OperationCount {
    kernel::DataType dtype = kernel::DataType::f32;
    std::string operation;
    Granularity granularity = Granularity::subgroup;
    SymbolicCount count; // total over the launch, in units of `granularity`
    // The same operations counted per work-item (thread) that executes them: the useful work,
    // without the idle lanes of partly filled sub-groups that `count` (sub-group granularity,
    // Stevens & Klöckner sec. 5) includes. Flops per point come from this; issue cycles from
    // `count`.
    SymbolicCount work_items;
    // `count` as if every fold instance did its own (docs/kernel-format.md, "What is counted"),
    // and whether the instances share some of them (else it is `count`).
    SymbolicCount instance_count;
    bool shared_by_fold_instances = false;
};

// The analysis space: the variables a thread's work is indexed by. Per mapped axis the block
// index (bx..), the thread index (tx..) and the fold index (fx..); then sequential indices.
struct LaunchVariable {
    std::string name; // "bx", "tx", "fx", or a sequential index
    enum class Kind { block, thread, fold, sequential } kind = Kind::sequential;
    int axis = -1; // 0..2 for block/thread/fold
};

struct AccessInfo {
    int statement = 0; // index into KernelSpec::statements
    std::string array;
    std::string tag; // PERFLEX access tag ("aLD"), "" when untagged
    kernel::MemorySpace space = kernel::MemorySpace::global;
    kernel::DataType dtype = kernel::DataType::f32;
    Direction direction = Direction::load;
    std::optional<kernel::AtomicKind> atomic;
    bool indirect = false; // a subscript reads an array: data-dependent address
    std::string text;      // the reference as written
    // Subscripts as affine forms in launch variables (bx, tx, fx, sequential indices) and
    // parameters; empty for indirect accesses.
    std::vector<kernel::AffineForm> subscripts;
    Granularity granularity = Granularity::work_item;
    SymbolicCount count;               // in units of `granularity`
    SymbolicCount count_per_work_item; // every execution by every thread
    // Distinct elements of a global or constant array touched over the whole launch (the
    // access-to-footprint ratio, a global atomic's addresses); zero for indirect accesses and
    // shared arrays (each block's own).
    SymbolicCount footprint_elements;
    std::vector<std::string> domain_variables; // launch variables the access runs over
    std::string domain;                        // isl set over domain_variables (parametric)
};

struct BarrierInfo {
    int statement = 0;
    SymbolicCount per_work_item; // product of the enclosing sequential loops' trip counts
};

struct KernelAnalysis {
    kernel::KernelSpec spec;
    kernel::LaunchConfig launch; // block / fold actually used
    CountOptions options;
    std::vector<std::string> parameters; // parameter order of every evaluate()
    std::vector<LaunchVariable> variables;
    // Each domain index in launch variables: index = lower + sum(coefficient * variable).
    std::map<std::string, kernel::AffineForm> index_forms;
    std::int64_t threads_per_block = 1;
    std::int64_t subgroups_per_block = 1;
    SymbolicCount thread_blocks;
    std::vector<OperationCount> operations;
    std::vector<AccessInfo> accesses;
    std::vector<BarrierInfo> barriers;
};

// Analyses `spec` under `launch` (the file's default launch when not given). Throws input
// Errors for launches the kernel cannot take (e.g. a fixed tile size that differs).
KernelAnalysis analyze(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                       const CountOptions& options = {});
KernelAnalysis analyze(const kernel::KernelSpec& spec, const CountOptions& options = {});

// Analyses the bound kernel at its launch.
KernelAnalysis analyze(const kernel::BoundKernel& bound, const CountOptions& options = {});

// The analysed kernel bound to the launch the analysis resolved (a local index fixes the block
// size along its axis) at its defaults with `overrides`: values checked once, including the
// kernel's assumptions (input Error naming the violated one) and whether the launch can run
// the kernel's shared-memory arrays (check_shared_arrays, shared_arrays.hpp).
kernel::BoundKernel bind(const KernelAnalysis& analysis,
                         const kernel::ParameterOverrides& overrides = {});

// Input error (naming the kernel file) when the launch's fold along an axis is larger than
// the number of values the index mapped to that axis takes at the bound values: every thread
// but one would idle, and the per-thread work of the models grows with the fold. The commands
// (count, predict, codegen, validate) check it before any such work; the models accept it.
void check_fold_within_domain(const kernel::BoundKernel& bound);

// A byte address that is affine in the launch variables at fixed parameter values:
// address = constant + sum(coefficients[v] * v), relative to the array's (aligned) base.
struct ByteAddress {
    std::map<std::string, std::int64_t> coefficients;
    std::int64_t constant = 0;
};
ByteAddress byte_address(const KernelAnalysis& analysis, const AccessInfo& access,
                         const std::vector<std::int64_t>& params);

// Strides in elements of the flattened (row-major) subscript along each thread axis, block
// axis and fold axis (counting-cases.md, "Strides").
struct AccessStrides {
    std::array<std::int64_t, kernel::axis_count> thread{0, 0, 0};
    std::array<std::int64_t, kernel::axis_count> block{0, 0, 0};
    std::array<std::int64_t, kernel::axis_count> fold{0, 0, 0};
    std::map<std::string, std::int64_t> sequential;
};
AccessStrides access_strides(const KernelAnalysis& analysis, const AccessInfo& access,
                             const std::vector<std::int64_t>& params);

// The threads that execute `access` at least once at these parameter values: the distinct
// (block index, thread index) tuples of its domain (sequential and fold indices projected out).
std::int64_t access_threads(const KernelAnalysis& analysis, const AccessInfo& access,
                            const std::vector<std::int64_t>& params);

} // namespace kerncast::analysis
