// Launch configurations and parameter values as users write them on a command line: one
// grammar for every subcommand (count, predict, explore, codegen, run, validate).
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::kernel {

// "32x4x4", "32,4,4", "32" (missing y, z are 1); for folds also "z=2", "2z" and "none".
// Every value must be a positive integer. Usage Error (exit 2) naming `option` otherwise.
Dim3 parse_launch_triple(const std::string& text, const std::string& option);

// Comma-separated triples in the "x" form or the fold words: "32x4x4,64x2x8", "none,2y,2z".
std::vector<Dim3> parse_launch_triple_list(const std::string& text, const std::string& option);

// A fold as --fold, explore's --folds and sweep files write it: a triple as above with an
// optional placement, "4y:strided" or "2x2:consecutive"; without one, the kernel file's
// placement applies (nullopt). Usage Error naming `option` for another placement word.
struct FoldChoice {
    Dim3 fold{1, 1, 1};
    std::optional<FoldPlacement> placement;
};
FoldChoice parse_fold_text(const std::string& text, const std::string& option);

// Comma-separated folds: "none,4y,4y:strided".
std::vector<FoldChoice> parse_fold_list(const std::string& text, const std::string& option);

// `launch` with `choice` applied: its fold, and its placement or the launch's own. A fold of
// one point per thread has no placement: it is always consecutive.
LaunchConfig with_fold(LaunchConfig launch, const FoldChoice& choice);

// -D name=value arguments; each value an integer. Usage Error (exit 2) otherwise.
std::vector<std::pair<std::string, std::int64_t>>
parse_parameter_defines(const std::vector<std::string>& defines);

// CUDA's limits on a thread block, the same for every compute capability from 2.0 on (CUDA
// C++ Programming Guide, "Technical Specifications per Compute Capability": maximum x- or
// y-dimension of a block 1024, z-dimension 64, threads per block 1024).
inline constexpr std::int64_t max_block_x = 1024;
inline constexpr std::int64_t max_block_y = 1024;
inline constexpr std::int64_t max_block_z = 64;
inline constexpr std::int64_t max_threads_per_block = 1024;

// Empty when `block` fits CUDA's limits, else what is wrong ("block z 128 exceeds 64").
std::string block_limit_violation(const Dim3& block);

// CUDA's limits on a grid, in blocks (the same table, compute capability 3.0 on): x 2^31 - 1,
// y and z 65535. Every GPU a machine file describes (Volta on) has them.
inline constexpr std::int64_t max_grid_x = 2147483647;
inline constexpr std::int64_t max_grid_y = 65535;
inline constexpr std::int64_t max_grid_z = 65535;

// Empty when `grid` fits CUDA's limits, else what is wrong ("grid y 249999 exceeds CUDA's
// limit of 65535").
std::string grid_limit_violation(const Dim3& grid);

// Usage Error when a block exceeds CUDA's limits or a block x fold product (points per block)
// overflows 64 bits; `option` names where the launch came from.
void check_launch_limits(const LaunchConfig& launch, const std::string& option);

// `base` (the kernel file's launch) with the --block / --fold texts applied where non-empty.
LaunchConfig override_launch(const LaunchConfig& base, const std::string& block_text,
                             const std::string& fold_text);

} // namespace kerncast::kernel
