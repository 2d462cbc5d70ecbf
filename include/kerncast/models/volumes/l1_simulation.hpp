// L2 -> L1 volume by simulating one SM's L1: the resident blocks' warps issue their load and
// store requests in program order, the L1 keeps 128 B lines with a valid bit per 32 B sector
// in sets of `ways` lines, evicts the least recently used line of a set, and places a line in
// a set by a hash of its address. It replaces the L1 capacity fit of Ernst et al. 2023 (sec.
// 4.5, eq. (5)) for machines whose L1 gives its associativity (`memory.l1.ways`).
//
// Why: the fit multiplies every redundant request by one hit rate at the oversubscription of
// all lines the resident blocks allocate over their life. Those lines are not live at once
// (a 2D box stencil's rows die when the last warp has passed them), and a set-associative
// cache also misses before it is full (conflicts); neither depends on the total allocation
// alone. lab/research/l1_lru_sim.cpp explored this on the published V100 rows
// (lab/notes/accuracy); this is the model's version of it.
//
// Assumptions, each stated in docs/volume-model.md: the warps of the SM issue in lockstep
// (one request each in turn); the resident blocks start staggered by an equal share of a
// block's run and each finished block is replaced by one at another place of the grid (its
// data shares nothing with the others on the SM, sec. 4.3), modelled as a copy of the
// representative block on its own addresses; stores allocate a line (as O_L1 counts them);
// loads of a fold instance whose address a thread already loaded come from registers (fig. 12).
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/volumes/l1_wavefronts.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models {

// One warp-wide request: the distinct sectors (address / sector bytes) of one array.
struct WarpRequest {
    int array = 0; // index into BlockPrograms::arrays
    bool store = false;
    std::vector<std::int64_t> sectors;
    std::vector<std::int64_t> lane_addresses; // each active lane's byte address, lane order
    int access_bytes = 0;                     // bytes each lane accesses
    // Requests of one class >= 0 have the same lane addresses less their first lane's (one
    // access pattern of one warp); -1: not known, the simulation compares the addresses.
    int lane_class = -1;
};

// The requests of every warp of one block, in program order.
struct BlockPrograms {
    std::vector<std::string> arrays;
    std::vector<std::vector<WarpRequest>> warps;
    std::int64_t points = 0; // points the block computes (threads x fold)
};

// Warp requests per block (warps x fold instances x global accesses) beyond which a block is not
// simulated: the simulation would take seconds (typical stencils issue a few thousand).
inline constexpr std::int64_t l1_simulation_request_limit = std::int64_t{1} << 18;

// The global accesses of one block at `block_index`, each warp's requests in program order:
// fold instances in turn (x fastest), within one the statements in turn, a statement's loads
// before its stores. Empty (with the reason in `why_not`) when the program order is not known
// statically (an indirect global access or one inside a sequential loop) or the block issues
// more than l1_simulation_request_limit requests.
std::optional<BlockPrograms> block_programs(const analysis::KernelAnalysis& analysis,
                                            const std::vector<std::int64_t>& params,
                                            const L1BankLayout& layout,
                                            const kernel::Dim3& block_index, std::string& why_not);

struct L1Geometry {
    std::int64_t lines = 0; // capacity / line bytes
    std::int64_t ways = 0;  // lines per set; lines must be a multiple
    std::int64_t line_bytes = 0;
    std::int64_t sector_bytes = 0;
};

// The wavefronts of the simulated loads, when the L1 serves a load's missing lanes in a pass
// of their own (L1MissPasses): the pass rule and how long a line's fill is in flight.
struct L1MissPasses {
    L1BankLayout layout;
    // Cycles from a line's miss until its sectors are in L1 (the L2 latency); until then a
    // load of the line waits for it as one that misses. The simulated SM's clock advances by
    // the wavefronts of each request (the L1-bound case).
    double fill_latency_cycles = 0;
};

struct L1Simulation {
    std::vector<std::string> arrays; // BlockPrograms::arrays
    // Per array, bytes per point.
    std::vector<double> load_miss_bytes;   // load sectors L1 requested from L2
    std::vector<double> first_touch_bytes; // load sectors the block touched for the first time
    // With L1MissPasses: the global loads' wavefronts (L1 cycles of one SM) per point, each
    // request served in two passes (two_pass_wavefronts).
    std::optional<double> load_wavefronts_per_point;
};

// Generations of blocks each slot of the SM runs: the first warms the cache up, the last
// drains it, the ones between are measured, at least l1_simulation_measured_blocks blocks over
// all slots and at most four generations a slot (1 and 2 slots: 4, 3: 3, 4 to 7: 2, 8 and
// more: 1). A block's misses vary with the cache's random placement; measuring as many block
// lives on an SM of many small blocks as on one of two large ones keeps their sampling error
// alike (docs/volume-model.md, Schedule).
inline constexpr std::int64_t l1_simulation_measured_blocks = 8;
inline constexpr int l1_simulation_most_measured_generations = 4;
constexpr int l1_simulation_generations(std::int64_t blocks_per_sm) {
    const std::int64_t measured =
        (l1_simulation_measured_blocks + blocks_per_sm - 1) / blocks_per_sm;
    return 2 + static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(measured, 1),
                                                       l1_simulation_most_measured_generations));
}

// `blocks_per_sm` copies of `block` share one L1. Deterministic.
L1Simulation simulate_l1(const BlockPrograms& block, std::int64_t blocks_per_sm,
                         const L1Geometry& geometry,
                         const std::optional<L1MissPasses>& passes = std::nullopt);

} // namespace kerncast::models
