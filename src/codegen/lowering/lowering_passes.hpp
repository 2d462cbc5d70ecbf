// Private: lower_kernel's passes, in pipeline order. Each takes the LoweringState the earlier
// passes filled and adds its part; lowering_pipeline() lists them by name.
#pragma once

#include "lowering_state.hpp"

#include <string_view>
#include <vector>

namespace kerncast::codegen::lowering {

// parameters.cpp
// Parameter values (overrides, defaults, assumptions checked), the launch actually used, and the
// domain at those values.
void bind_parameters(LoweringState& state);
// Every declared array at the parameter values: extents, offset, buffer size, written or not.
void lay_out_arrays(LoweringState& state);

// thread_mapping.cpp
// Thread-mapped indices (global, block, local) as affine forms of the thread coordinates, and the
// grid that covers the domain.
void map_threads(LoweringState& state);
// Every other index becomes a sequential loop over its bounding box in the domain.
void bound_sequential_loops(LoweringState& state);

// statement_pieces.cpp
// Statements -> pieces: a barrier, a plain statement, or init / update / store pieces with one
// accumulator per reduction (nested ones included).
void split_statements(LoweringState& state);
// Inits move before, stores after, the neighbouring pieces that share a reduction loop; each
// accumulator learns its pieces.
void order_reduction_pieces(LoweringState& state);

// loop_fusion.cpp
// Each piece keeps the open loops it can legally share and opens the rest in domain order.
void fuse_loops(LoweringState& state);

// accumulators.cpp
// Accumulators become private scalars, or private arrays when fusion split their loops.
void place_accumulators(LoweringState& state);

// loop_tree.cpp
// The schedule's loop tree: loops from the fused order, steps with their guards.
void build_loop_tree(LoweringState& state);

struct LoweringPass {
    std::string_view name;
    void (*run)(LoweringState&);
};

// The passes of lower_kernel, in order.
const std::vector<LoweringPass>& lowering_pipeline();

} // namespace kerncast::codegen::lowering
