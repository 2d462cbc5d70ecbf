// Occupancy: how many blocks and warps of one launch are resident on an SM at once, following
// the rules of NVIDIA's CUDA Occupancy Calculator (see docs/mwp-cwp.md, "Occupancy").
// Hong & Kim 2009, Table 1 rows 10-12 take #Active_blocks_per_SM from this calculation.
#pragma once

#include "kerncast/machine/machine_model.hpp"

#include <optional>
#include <string>

namespace kerncast::models {

// What one block of a launch asks of an SM.
struct LaunchResources {
    int threads_per_block = 0;
    int registers_per_thread = 0;          // 0: registers do not limit
    int shared_memory_per_block_bytes = 0; // static + dynamic, without the system reservation
};

// The resource that limits the number of resident blocks.
enum class OccupancyLimit {
    blocks,        // max_blocks_per_sm
    warps,         // max_warps_per_sm / max_threads_per_sm
    registers,     // registers_per_sm
    shared_memory, // shared_memory_per_sm_bytes
};

// "blocks", "warps", "registers", "shared_memory".
std::string to_string(OccupancyLimit limit);

struct OccupancyResult {
    int warps_per_block = 0;
    int active_blocks_per_sm = 0; // min of the per-limit block counts below
    int active_warps_per_sm = 0;  // active_blocks_per_sm * warps_per_block
    int max_warps_per_sm = 0;     // the machine's limit (from warps or threads per SM)
    double occupancy = 0;         // active_warps_per_sm / max_warps_per_sm
    // The limit that binds; on a tie the first in the order blocks, warps, registers,
    // shared_memory.
    OccupancyLimit binding_limit = OccupancyLimit::blocks;

    // Resident blocks each resource alone would allow. nullopt: the launch does not use the
    // resource (no registers; no shared memory and no reservation), so it does not limit.
    int blocks_limited_by_blocks = 0;
    int blocks_limited_by_warps = 0;
    std::optional<int> blocks_limited_by_registers;
    std::optional<int> blocks_limited_by_shared_memory;

    // What the allocation rules charge one block.
    int registers_per_block_allocated = 0;
    int shared_memory_per_block_allocated_bytes = 0;
};

// Pure function of the launch and the machine. Throws an input Error when the machine lacks a
// value the calculation needs (naming the machine and the field) or when no block fits (block
// larger than max_threads_per_block, registers per thread above the maximum, shared memory or
// registers per block above what one SM or one block may have).
OccupancyResult compute_occupancy(const LaunchResources& launch, const MachineModel& machine);

} // namespace kerncast::models
