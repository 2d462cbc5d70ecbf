// Private: the state that lower_kernel's passes (lowering_passes.hpp) read and fill, one pass
// after the other, the way llvm-mca's Context::createDefaultPipeline chains its stages. Each
// pass owns one job; the state holds what one pass hands to the next.
#pragma once

#include "domain_guards.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/kernel/bound_kernel.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::codegen::lowering {

// What a piece of a statement does in the loop tree.
enum class PieceKind { plain, init, update, store, barrier };

// One step of the loop tree before it is built: a whole statement, a barrier, or one part of a
// statement with reductions (init / update of an accumulator, the final store).
struct Piece {
    PieceKind kind = PieceKind::plain;
    int statement = -1;
    int accumulator = -1; // init / update
    const kernel::Expr* reduction = nullptr;
    std::set<std::string> loops; // sequential indices the piece runs over
    std::vector<std::string> order;
    size_t shared = 0;                     // leading loops of `order` it shares with the last piece
    std::map<std::string, int> loop_nodes; // index -> loop node id
};

// The accumulator of one reduction (Stevens & Klöckner 8.4's privatised accumulators).
struct Accumulator {
    std::string name;
    int statement = -1;
    const kernel::Expr* reduction = nullptr;
    int parent = -1; // the accumulator of the enclosing reduction (nested ones); -1: none
    // The sequential indices around the accumulator, domain order: the statement's own, plus
    // the reduction indices of enclosing reductions.
    std::vector<std::string> outer;
    std::vector<int> pieces; // init, updates, and the piece that reads it (store or parent update)
    bool privatised = false;
};

// One array access of a piece, for the fusion legality check.
struct Access {
    std::string array;
    std::vector<kernel::ExprPtr> subscripts;
    bool write = false;
};

using IndexRange = std::pair<std::int64_t, std::int64_t>; // [lower, upper], inclusive

struct LoweringState {
    // The kernel as bound, analysed at its launch; when the analysis resolves another launch (a
    // local index fixes the block size along its axis), bound again at that launch.
    explicit LoweringState(const kernel::BoundKernel& bound);
    // Analyses `spec` under `launch` and binds it at the launch the analysis resolved.
    LoweringState(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                  const kernel::ParameterOverrides& overrides);
    LoweringState(const LoweringState&) = delete;
    LoweringState& operator=(const LoweringState&) = delete;

    // Inputs: the bound kernel (parameter values, array extents) and its analysis.
    analysis::KernelAnalysis analysis;
    kernel::BoundKernel bound;
    const kernel::KernelSpec& spec; // bound.spec()

    // bind_parameters
    std::map<std::string, std::int64_t> param_value;
    std::unique_ptr<DomainGuards> domain;
    // map_threads
    std::set<std::string> thread_mapped;
    // bound_sequential_loops
    std::map<std::string, IndexRange> loop_range;
    // split_statements, order_reduction_pieces, fuse_loops
    std::vector<Piece> pieces;
    std::vector<Accumulator> accumulators;
    // place_accumulators: each reduction's (and accumulator id's) reference
    std::map<const kernel::Expr*, kernel::ExprPtr> accumulator_refs;
    std::map<int, kernel::ExprPtr> accumulator_target;

    // The result every pass adds to.
    Schedule schedule;

    // `names` sorted by their position in the kernel's index list.
    std::vector<std::string> in_domain_order(const std::set<std::string>& names) const;
};

// Input error for a kernel the generator cannot express, at `where` (the kernel file when
// empty).
[[noreturn]] void unsupported(const kernel::KernelSpec& spec, const std::string& message,
                              const SourceLocation& where = {});

} // namespace kerncast::codegen::lowering
