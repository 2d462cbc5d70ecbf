// Cache-aware MWP-CWP: the average latency and the per-level bandwidth bound worked by hand
// (docs/mwp-cwp.md, "Cache-aware MWP-CWP").
#include "../test_machines.hpp"
#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/cache_aware.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

using test::known;

MachineModel cached_machine() {
    MachineModel m = test::hk_example(); // CC 1.0 limits, 16 SMs, 1 GHz, Hong & Kim's delays
    m.identity.id = "cached";
    MemoryLevel l1;
    l1.name = "l1";
    l1.latency_cycles = known(30.0);
    MemoryLevel l2;
    l2.name = "l2";
    l2.latency_near_cycles = known(180.0);
    l2.latency_far_cycles = known(220.0);
    l2.sustained_bandwidth_gbs = known(160.0);
    m.memory.insert(m.memory.begin(), {l1, l2});
    return m;
}

DerivedWorkload coalesced_workload() {
    DerivedWorkload d;
    Workload& w = d.workload;
    w.threads_per_block = 128;
    w.blocks = 80;
    w.comp_insts = 20;
    w.coal_mem_insts = 4;
    w.uncoal_per_mw = 1;
    w.load_bytes_per_warp = 128;
    w.active_blocks_per_sm = 5;
    d.mix.global_loads = 4;
    d.points_per_thread = 1;
    return d;
}

TEST(CacheAware, AverageLatencyAndBandwidthBound) {
    const MachineModel machine = cached_machine();
    VolumePrediction v;
    v.l1.load_request_bytes_per_point = 16; // 4 loads of 4 B
    v.l2_load_bytes = 8;                    // half of it misses L1
    v.dram_load_bytes = 2;                  // an eighth misses L2
    v.dram_store_bytes = 0;
    const CacheAwareResult r = predict_cache_aware(coalesced_workload(), v, machine);
    ASSERT_EQ(r.levels.size(), 3u);
    EXPECT_DOUBLE_EQ(r.levels[0].load_fraction, 0.5);   // L1
    EXPECT_DOUBLE_EQ(r.levels[1].load_fraction, 0.375); // L2: (8 - 2) / 16
    EXPECT_DOUBLE_EQ(r.levels[2].load_fraction, 0.125); // DRAM
    EXPECT_DOUBLE_EQ(r.levels[1].latency_cycles, 200);  // near/far mean
    // 0.5 x 30 + 0.375 x 200 + 0.125 x 420 = 142.5 cycles.
    EXPECT_DOUBLE_EQ(r.average_latency_cycles, 142.5);
    EXPECT_DOUBLE_EQ(r.model.machine.mem_ld_cycles.value, 142.5);
    // Bytes per warp memory instruction: L2 8 B/point x 32 / 4 = 64 B, DRAM 16 B. Equivalent
    // bandwidths at 128 B per warp: L2 160 x 128 / 64 = 320 GB/s, DRAM 80 x 128 / 16 = 640.
    EXPECT_DOUBLE_EQ(r.levels[1].bytes_per_warp_inst, 64);
    EXPECT_DOUBLE_EQ(r.levels[1].equivalent_bandwidth_gbs, 320);
    EXPECT_DOUBLE_EQ(r.levels[2].equivalent_bandwidth_gbs, 640);
    EXPECT_EQ(r.binding_level, "l2");
    EXPECT_DOUBLE_EQ(r.model.machine.mem_bandwidth_gbs.value, 320);
    // Half of the loads miss L1: the departure delays are halved, 4 -> 2 cycles.
    EXPECT_DOUBLE_EQ(r.departure_scale, 0.5);
    EXPECT_DOUBLE_EQ(r.model.departure_delay_cycles, 2);
    EXPECT_DOUBLE_EQ(*r.model.mwp_without_bw_full, 142.5 / 2);
}

TEST(CacheAware, EverythingFromDramIsTheClassicLatency) {
    VolumePrediction v;
    v.l1.load_request_bytes_per_point = 16;
    v.l2_load_bytes = 16;
    v.dram_load_bytes = 16;
    const CacheAwareResult r = predict_cache_aware(coalesced_workload(), v, cached_machine());
    EXPECT_DOUBLE_EQ(r.average_latency_cycles, 420);
}

TEST(CacheAware, MachineWithoutLevelsIsAnInputError) {
    VolumePrediction v;
    v.l1.load_request_bytes_per_point = 16;
    v.l2_load_bytes = 8;
    EXPECT_THROW(predict_cache_aware(coalesced_workload(), v, test::hk_example()), Error);
    EXPECT_EQ(parse_variant("cache-aware", "--mwp-model"), Variant::cache_aware);
    EXPECT_THROW(parse_variant("cached", "--mwp-model"), Error);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
