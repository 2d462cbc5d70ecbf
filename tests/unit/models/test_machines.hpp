// Machines built in the tests, so that the model tests do not depend on machine files.
#pragma once

#include "kerncast/machine/machine_model.hpp"

namespace kerncast::test {

template <class T> Known<T> known(T value) {
    return Sourced<T>{value, "test"};
}

// Compute capability 1.0 limits (CUDA Programming Guide 2.x, Appendix A; CUDA Occupancy
// Calculator): 8 blocks, 24 warps, 768 threads, 8192 registers allocated per block in units
// of 256 with warps rounded up to pairs, 16 KiB shared memory in units of 512 B.
inline void set_cc10_limits(MachineModel& m) {
    auto& c = m.compute;
    c.warp_size = known(32);
    c.max_threads_per_block = known(512);
    c.max_threads_per_sm = known(768);
    c.max_warps_per_sm = known(24);
    c.max_blocks_per_sm = known(8);
    c.registers_per_sm = known(8192);
    c.max_registers_per_thread = known(124);
    c.register_allocation_unit = known(256);
    c.register_allocation_granularity = known(std::string("block"));
    c.warp_allocation_granularity = known(2);
    c.shared_memory_per_sm_bytes = known(16384);
    c.shared_memory_per_block_bytes = known(16384);
    c.shared_memory_allocation_unit_bytes = known(512);
}

// The hypothetical GPU of Hong & Kim 2009, sec. 3.6 / Table 2, with CC 1.0 limits.
inline MachineModel hk_example() {
    MachineModel m;
    m.identity.id = "hk-example-test";
    m.sources["test"] = {SourceKind::paper, "Hong & Kim 2009, sec. 3.6, Tables 2 and 6", ""};
    set_cc10_limits(m);
    m.compute.sm_count = known(16);
    m.compute.base_clock_mhz = known(1000.0);
    MemoryLevel dram;
    dram.name = "dram";
    dram.shared_by = "gpu";
    dram.peak_bandwidth_gbs = known(80.0);
    m.memory.push_back(dram);
    m.mwp_cwp.mem_ld_cycles = known(420.0);
    m.mwp_cwp.departure_del_uncoal_cycles = known(10.0);
    m.mwp_cwp.departure_del_coal_cycles = known(4.0);
    m.mwp_cwp.issue_cycles = known(4.0);
    return m;
}

// Compute capability 8.0 limits (CUDA C++ Programming Guide, Table "Technical
// Specifications per Compute Capability"; CUDA Occupancy Calculator): 32 blocks, 64 warps,
// 65536 registers allocated per warp in units of 256, warps in groups of 4, 164 KiB shared
// memory per SM in units of 128 B plus 1 KiB reserved per block, 48 KiB per block by
// default and 163 KiB opt-in.
inline MachineModel cc80_like() {
    MachineModel m;
    m.identity.id = "cc80-test";
    m.sources["test"] = {SourceKind::datasheet, "CUDA C++ Programming Guide, CC 8.0", ""};
    auto& c = m.compute;
    c.warp_size = known(32);
    c.max_threads_per_block = known(1024);
    c.max_threads_per_sm = known(2048);
    c.max_warps_per_sm = known(64);
    c.max_blocks_per_sm = known(32);
    c.registers_per_sm = known(65536);
    c.max_registers_per_thread = known(255);
    c.max_registers_per_block = known(65536);
    c.register_allocation_unit = known(256);
    c.register_allocation_granularity = known(std::string("warp"));
    c.warp_allocation_granularity = known(4);
    c.shared_memory_per_sm_bytes = known(167936);
    c.shared_memory_per_block_bytes = known(49152);
    c.shared_memory_per_block_optin_bytes = known(166912);
    c.shared_memory_allocation_unit_bytes = known(128);
    c.reserved_shared_memory_per_block_bytes = known(1024);
    return m;
}

} // namespace kerncast::test
