// Occupancy following the CUDA Occupancy Calculator's allocation rules (docs/mwp-cwp.md).
#include "kerncast/models/occupancy/occupancy.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kerncast::models {

std::string to_string(OccupancyLimit limit) {
    switch (limit) {
    case OccupancyLimit::blocks:
        return "blocks";
    case OccupancyLimit::warps:
        return "warps";
    case OccupancyLimit::registers:
        return "registers";
    case OccupancyLimit::shared_memory:
        return "shared_memory";
    }
    return "?";
}

namespace {

std::string machine_label(const MachineModel& machine) {
    if (!machine.identity.id.empty())
        return machine.identity.id;
    if (!machine.identity.name.empty())
        return machine.identity.name;
    return "(unnamed)";
}

// The value of a machine field the calculation cannot do without.
template <class T>
T required(const MachineModel& machine, const Known<T>& field, const char* field_path,
           const char* why) {
    if (!field)
        throw_input_error(fmt::format("machine '{}' lacks {}, which the occupancy calculation "
                                      "needs ({})",
                                      machine_label(machine), field_path, why),
                          {}, {"add it to the machine file; kerncast never assumes a value"});
    return field->value;
}

int round_up(int value, int multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

int ceil_div(int value, int divisor) {
    return (value + divisor - 1) / divisor;
}

[[noreturn]] void no_block_fits(const MachineModel& machine, const std::string& why) {
    throw_input_error(fmt::format("no block of this launch fits on an SM of '{}': {}",
                                  machine_label(machine), why));
}

void require_positive(const MachineModel& machine, int value, const char* field_path) {
    if (value <= 0)
        throw_input_error(fmt::format("machine '{}' has {} = {}; it must be positive",
                                      machine_label(machine), field_path, value));
}

// Blocks per SM allowed by the register file. Sets registers_per_block_allocated.
int blocks_by_registers(const LaunchResources& launch, const MachineModel& machine, int warp_size,
                        int warps_per_block, OccupancyResult& result) {
    const auto& c = machine.compute;
    const char* why = "the launch uses registers";
    const int registers_per_sm =
        required(machine, c.registers_per_sm, "compute.registers_per_sm", why);
    const int unit =
        required(machine, c.register_allocation_unit, "compute.register_allocation_unit", why);
    const std::string granularity = required(machine, c.register_allocation_granularity,
                                             "compute.register_allocation_granularity", why);
    require_positive(machine, unit, "compute.register_allocation_unit");
    // A limit only: a machine that does not state it is not checked against it.
    if (c.max_registers_per_thread &&
        launch.registers_per_thread > c.max_registers_per_thread->value)
        no_block_fits(machine,
                      fmt::format("{} registers per thread exceed the maximum of {}",
                                  launch.registers_per_thread, c.max_registers_per_thread->value));

    int registers_per_block = 0;
    int registers_per_block_checked = 0; // what the per-block limit is checked against
    int blocks = 0;
    if (granularity == "block") {
        // CC 1.x: the block's warps are rounded up to the warp allocation granularity, and the
        // block's registers to the allocation unit.
        const int warp_granularity =
            required(machine, c.warp_allocation_granularity, "compute.warp_allocation_granularity",
                     "registers are allocated per block");
        require_positive(machine, warp_granularity, "compute.warp_allocation_granularity");
        registers_per_block = round_up(round_up(warps_per_block, warp_granularity) * warp_size *
                                           launch.registers_per_thread,
                                       unit);
        registers_per_block_checked = registers_per_block;
        blocks = registers_per_sm / registers_per_block;
    } else if (granularity == "warp") {
        // CC >= 2.0: each warp's registers are rounded up to the allocation unit. The register
        // file is split among the SM's sub-partitions (the warp allocation granularity, when
        // the machine states one): the warps it holds are rounded down to a multiple of it, and
        // the per-block limit is checked as if the block's warps were rounded up to one
        // (cuda_occupancy.h, cudaOccMaxBlocksPerSMRegsLimit).
        const int registers_per_warp = round_up(launch.registers_per_thread * warp_size, unit);
        registers_per_block = registers_per_warp * warps_per_block;
        registers_per_block_checked = registers_per_block;
        int warps = registers_per_sm / registers_per_warp;
        if (c.warp_allocation_granularity) {
            const int sub_partitions = c.warp_allocation_granularity->value;
            require_positive(machine, sub_partitions, "compute.warp_allocation_granularity");
            warps = warps / sub_partitions * sub_partitions;
            registers_per_block_checked =
                registers_per_warp * round_up(warps_per_block, sub_partitions);
        }
        blocks = warps / warps_per_block;
    } else {
        throw_input_error(fmt::format("machine '{}' has compute.register_allocation_granularity "
                                      "'{}'; expected \"warp\" or \"block\"",
                                      machine_label(machine), granularity));
    }
    result.registers_per_block_allocated = registers_per_block;
    if (c.max_registers_per_block && registers_per_block_checked > c.max_registers_per_block->value)
        no_block_fits(machine,
                      fmt::format("a block needs {} registers (allocated), more than "
                                  "the {} one block may have",
                                  registers_per_block_checked, c.max_registers_per_block->value));
    if (blocks == 0)
        no_block_fits(machine, fmt::format("a block needs {} registers (allocated), the SM "
                                           "has {}",
                                           registers_per_block, registers_per_sm));
    return blocks;
}

// Blocks per SM allowed by shared memory, or nullopt when a block takes none. Sets
// shared_memory_per_block_allocated_bytes.
std::optional<int> blocks_by_shared_memory(const LaunchResources& launch,
                                           const MachineModel& machine, OccupancyResult& result) {
    const auto& c = machine.compute;
    const int reserved = c.reserved_shared_memory_per_block_bytes
                             ? c.reserved_shared_memory_per_block_bytes->value
                             : 0;
    if (launch.shared_memory_per_block_bytes == 0 && reserved == 0)
        return std::nullopt;
    const char* why = "blocks use shared memory";
    if (launch.shared_memory_per_block_bytes > 0) {
        const auto& limit = c.shared_memory_per_block_optin_bytes
                                ? c.shared_memory_per_block_optin_bytes
                                : c.shared_memory_per_block_bytes;
        const int per_block_limit =
            required(machine, limit, "compute.shared_memory_per_block_bytes", why);
        if (launch.shared_memory_per_block_bytes > per_block_limit)
            no_block_fits(machine,
                          fmt::format("{} B of shared memory per block exceed the per-block "
                                      "limit of {} B",
                                      launch.shared_memory_per_block_bytes, per_block_limit));
    }
    const int per_sm =
        required(machine, c.shared_memory_per_sm_bytes, "compute.shared_memory_per_sm_bytes", why);
    const int unit = required(machine, c.shared_memory_allocation_unit_bytes,
                              "compute.shared_memory_allocation_unit_bytes", why);
    require_positive(machine, unit, "compute.shared_memory_allocation_unit_bytes");
    const int allocated = round_up(launch.shared_memory_per_block_bytes + reserved, unit);
    result.shared_memory_per_block_allocated_bytes = allocated;
    const int blocks = per_sm / allocated;
    if (blocks == 0)
        no_block_fits(machine, fmt::format("a block needs {} B of shared memory (allocated, "
                                           "with {} B reserved), the SM has {} B",
                                           allocated, reserved, per_sm));
    return blocks;
}

} // namespace

OccupancyResult compute_occupancy(const LaunchResources& launch, const MachineModel& machine) {
    const auto& c = machine.compute;
    if (launch.threads_per_block <= 0)
        throw_input_error(
            fmt::format("threads per block must be positive, got {}", launch.threads_per_block));
    if (launch.registers_per_thread < 0)
        throw_input_error(fmt::format("registers per thread must not be negative, got {}",
                                      launch.registers_per_thread));
    if (launch.shared_memory_per_block_bytes < 0)
        throw_input_error(fmt::format("shared memory per block must not be negative, got {}",
                                      launch.shared_memory_per_block_bytes));

    OccupancyResult result;
    const char* always = "every launch";
    const int warp_size = required(machine, c.warp_size, "compute.warp_size", always);
    require_positive(machine, warp_size, "compute.warp_size");
    const int max_threads_per_block =
        required(machine, c.max_threads_per_block, "compute.max_threads_per_block", always);
    const int max_blocks_per_sm =
        required(machine, c.max_blocks_per_sm, "compute.max_blocks_per_sm", always);
    if (!c.max_warps_per_sm && !c.max_threads_per_sm)
        required(machine, c.max_warps_per_sm, "compute.max_warps_per_sm (or max_threads_per_sm)",
                 always);
    int max_warps_per_sm =
        c.max_warps_per_sm ? c.max_warps_per_sm->value : c.max_threads_per_sm->value / warp_size;
    if (c.max_threads_per_sm)
        max_warps_per_sm = std::min(max_warps_per_sm, c.max_threads_per_sm->value / warp_size);
    result.max_warps_per_sm = max_warps_per_sm;

    if (launch.threads_per_block > max_threads_per_block)
        no_block_fits(machine, fmt::format("{} threads per block exceed the maximum of {}",
                                           launch.threads_per_block, max_threads_per_block));
    result.warps_per_block = ceil_div(launch.threads_per_block, warp_size);

    result.blocks_limited_by_blocks = max_blocks_per_sm;
    result.blocks_limited_by_warps = max_warps_per_sm / result.warps_per_block;
    if (result.blocks_limited_by_warps == 0)
        no_block_fits(machine, fmt::format("a block has {} warps, an SM holds at most {}",
                                           result.warps_per_block, max_warps_per_sm));
    if (launch.registers_per_thread > 0)
        result.blocks_limited_by_registers =
            blocks_by_registers(launch, machine, warp_size, result.warps_per_block, result);
    result.blocks_limited_by_shared_memory = blocks_by_shared_memory(launch, machine, result);

    // The smallest count binds; ties keep the earlier limit in the order of the enum.
    result.active_blocks_per_sm = result.blocks_limited_by_blocks;
    result.binding_limit = OccupancyLimit::blocks;
    auto consider = [&](std::optional<int> blocks, OccupancyLimit limit) {
        if (blocks && *blocks < result.active_blocks_per_sm) {
            result.active_blocks_per_sm = *blocks;
            result.binding_limit = limit;
        }
    };
    consider(result.blocks_limited_by_warps, OccupancyLimit::warps);
    consider(result.blocks_limited_by_registers, OccupancyLimit::registers);
    consider(result.blocks_limited_by_shared_memory, OccupancyLimit::shared_memory);
    KERNCAST_CHECK(result.active_blocks_per_sm > 0, "no-fit cases are reported above");

    result.active_warps_per_sm = result.active_blocks_per_sm * result.warps_per_block;
    result.occupancy = static_cast<double>(result.active_warps_per_sm) / max_warps_per_sm;
    return result;
}

} // namespace kerncast::models
