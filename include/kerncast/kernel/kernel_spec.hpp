// KernelSpec: what a kernel computes and how threads map to it — the one kernel description
// every analysis and model reads (DESIGN.md, "Kernel file"; docs/kernel-format.md).
#pragma once

#include "kerncast/error.hpp"
#include "kerncast/kernel/dim3.hpp"
#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/launch_config.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kerncast::kernel {

enum class DataType { i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64 };

// "f32" / "float32" / ... -> DataType; nullopt when unknown.
std::optional<DataType> parse_data_type(const std::string& name);
const char* data_type_name(DataType type); // "f32"
int data_type_bytes(DataType type);
bool is_floating(DataType type);

enum class MemorySpace { global, shared, constant, private_ };
std::optional<MemorySpace> parse_memory_space(const std::string& name);
const char* memory_space_name(MemorySpace space); // "global", "shared", "constant", "private"

struct Parameter {
    std::string name;
    std::int64_t default_value = 0;
    // A representative value for a data-dependent quantity (a trip count, the number of
    // distinct colours of an image): counts depend on it but no launch fixes it.
    bool representative = false;
    std::string description;
};

struct ArrayDecl {
    std::string name;
    DataType dtype = DataType::f32;
    std::vector<ExprPtr> shape; // extents, outermost first (row-major); empty = scalar
    ExprPtr offset;             // alignment shift in elements (integer expression), may be null
    MemorySpace space = MemorySpace::global;
    // `stage: shared`: each block copies the elements of this (read-only, global) array that
    // it reads into a shared tile and reads them from there (analysis/shared_staging.hpp).
    bool stage_in_shared = false;
    SourceLocation where;
    SourceLocation stage_where; // the `stage` value, when stage_in_shared
};

const char* axis_name(int axis); // "x", "y", "z"

struct ThreadMapping {
    // Index mapped to the global thread index along each axis (LaunchConfig's placement):
    // index = lower_bound + (blockIdx*blockDim + threadIdx)*fold + fold_index, or strided
    // index = lower_bound + blockIdx*blockDim*fold + fold_index*blockDim + threadIdx.
    std::array<std::string, axis_count> global;
    // Indices that are blockIdx / threadIdx directly (explicit tiling, as in fd5pt).
    std::array<std::string, axis_count> block;
    std::array<std::string, axis_count> local;
};

enum class StatementKind { compute, barrier };

// One dimension of a staging statement's tile (analysis/shared_staging.hpp): block b's tile
// holds the array's elements start + sum_a moves[a] * b_a + [0, extent), clipped to [0, clip)
// where `clip` is set (b_a: blockIdx along axis a).
struct TileDimension {
    AffineForm start;                             // block 0's first element, in the parameters
    std::array<std::int64_t, axis_count> moves{}; // elements from one block to the next
    AffineForm extent;                            // in the parameters
    std::optional<AffineForm> clip;               // the array's extent, when clipped to it
};

struct StatementSpec {
    StatementKind kind = StatementKind::compute;
    std::string id;                  // optional label ("fetch_a"), "" when none
    std::string text;                // the statement as written
    Statement parsed;                // compute statements only
    std::vector<std::string> within; // extra sequential indices the statement sits in
    // Optional guard ("where: 1 <= li && li <= 14"): comparisons of affine expressions in the
    // indices, parameters and builtins joined by && and ||; null when absent.
    ExprPtr condition;
    std::string condition_text;
    SourceLocation where; // the statement text (column of its first character)
    // A staging statement's (analysis/shared_staging.hpp): the isl set of the elements its
    // load reaches over the launch (the union of the blocks' tiles), which the analysis counts
    // instead of imaging the statement's launch-wide domain; "" for every other statement.
    std::string staged_elements;
    // The same tile per dimension of the array, for counts of boxes of blocks (the footprints'
    // union of boxes); empty for every other statement.
    std::vector<TileDimension> staged_tile;
    // The condition is the upper bound of each thread-mapped index that a staging extended to
    // whole blocks (KernelSpec::points_domain) and nothing else: it keeps the statement to the
    // kernel file's points.
    bool guard_is_points_domain = false;
};

// The largest registers_per_thread a kernel file or --registers accepts: the most registers
// a thread can address on every compute capability since 3.5 (CUDA C++ Programming Guide,
// "Technical Specifications per Compute Capability"). A machine's own
// compute.max_registers_per_thread is checked by the occupancy calculation.
constexpr int max_registers_per_thread = 255;

struct KernelSpec {
    std::string name;
    std::string description;
    std::string file; // where it was read from ("" when built in code)
    std::vector<Parameter> params;
    std::vector<std::string> assumptions; // expressions over params that must hold
    std::vector<ExprPtr> parsed_assumptions;
    // Conditions on the parameters that kerncast adds (a staged array's whole blocks,
    // analysis/shared_staging.hpp): the binding checks them as it checks the assumptions,
    // giving the reason, and the analysis simplifies under them as under the assumptions.
    struct Requirement {
        std::string text;
        ExprPtr parsed;
        std::string reason;
    };
    std::vector<Requirement> requirements;
    std::vector<ArrayDecl> arrays;
    std::string domain; // isl set text over the loop indices
    // The kernel file's domain where staging extended `domain` to whole blocks
    // (analysis/shared_staging.hpp), "" otherwise: the points a launch computes, which every
    // per-point figure divides by, are this domain's, not the extension's.
    std::string points_domain;
    std::vector<std::string> indices; // the domain's indices, in isl tuple order
    ThreadMapping threads;
    LaunchConfig launch; // the file's default launch configuration
    // Registers per thread of the compiled kernel (1..255), when the file states it: the
    // occupancy calculation uses it unless the command line gives a count.
    std::optional<int> registers_per_thread;
    std::vector<StatementSpec> statements;

    const ArrayDecl* find_array(const std::string& name) const;
    const Parameter* find_param(const std::string& name) const;
    bool is_index(const std::string& name) const;
    // Default parameter values, overridden by `overrides` (name -> value); unknown names in
    // overrides are an input error.
    std::vector<std::pair<std::string, std::int64_t>>
    param_values(const std::vector<std::pair<std::string, std::int64_t>>& overrides = {}) const;
    // Input error (with the array's or the file's location) when the values make an array
    // extent negative or the domain empty; param_values calls it.
    void check_param_values(const std::vector<std::pair<std::string, std::int64_t>>& values) const;
};

// Names a statement may use that refer to the launch: threadIdx (tx, ty, tz), blockIdx
// (bx, by, bz) and the fold index (fx, fy, fz) along each axis. They are reserved.
bool is_builtin_name(const std::string& name);

// The launch names `expr` uses, added to `names`.
void collect_launch_names(const Expr& expr, std::set<std::string>& names);
// Whether a compute statement names the launch anywhere (target, value, compare, `where`):
// what it computes may then depend on the block and fold (analysis/launch_semantics.hpp).
bool names_launch(const StatementSpec& statement);

} // namespace kerncast::kernel
