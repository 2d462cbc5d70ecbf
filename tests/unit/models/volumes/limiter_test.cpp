// Limiter model (Ernst et al. 2023, sec. 2) on hand-computed numbers.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/limiter.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

TEST(Limiter, MachineNumbersComeFromTheA100File) {
    const LimiterMachine m = limiter_machine(resolve_machine("a100-sxm4-40gb"));
    EXPECT_DOUBLE_EQ(m.dram_bandwidth_bytes_per_s, 1400e9); // sustained, Ernst et al. Table 1
    EXPECT_DOUBLE_EQ(m.l2_bandwidth_bytes_per_s, 5000e9);
    EXPECT_DOUBLE_EQ(m.sm_cycles_per_s, 108 * 1410e6);
}

TEST(Limiter, EveryBuiltInWithCachesHasItsPublishedRates) {
    // The rates the limiter model divides by (docs/machine-format.md, "Bandwidths and L2 sizes
    // from published figures"): the sustained value where one is recorded, else the datasheet
    // peak (RTX A6000 and H200 DRAM).
    struct Expected {
        const char* id;
        double dram_gbs, l2_gbs, sms, clock_mhz;
    };
    for (const Expected& e : {Expected{"v100-pcie-32gb", 800, 2500, 80, 1380},
                              Expected{"v100-sxm2-32gb", 800, 2500, 80, 1530},
                              Expected{"a100-sxm4-40gb", 1400, 5000, 108, 1410},
                              Expected{"a100-sxm4-80gb", 1732, 5000, 108, 1410},
                              Expected{"rtx-a6000", 768, 2440.1, 84, 1800},
                              Expected{"h100-sxm5-80gb", 3004.5, 6415.0, 132, 1980},
                              Expected{"h100-pcie-80gb", 1704, 6892.2, 114, 1755},
                              Expected{"h200-sxm-141gb", 4102.2, 7292.6, 132, 1980}}) {
        SCOPED_TRACE(e.id);
        const LimiterMachine m = limiter_machine(resolve_machine(e.id));
        EXPECT_DOUBLE_EQ(m.dram_bandwidth_bytes_per_s, e.dram_gbs * 1e9);
        EXPECT_DOUBLE_EQ(m.l2_bandwidth_bytes_per_s, e.l2_gbs * 1e9);
        EXPECT_DOUBLE_EQ(m.sm_cycles_per_s, e.sms * e.clock_mhz * 1e6);
    }
}

TEST(Limiter, SlowestResourceBinds) {
    LimiterMachine m{1000e9, 4000e9, 100e9};
    LimiterInputs in;
    in.dram_bytes_per_point = 16; // 16 ps
    in.l2_bytes_per_point = 80;   // 20 ps
    in.l1_cycles_per_point = 1.5; // 15 ps
    in.fp_cycles_per_point = 0.5; // 5 ps
    const LimiterResult r = evaluate_limiters(in, m, 1000);
    EXPECT_EQ(r.binding, Limiter::l2);
    EXPECT_DOUBLE_EQ(r.dram_seconds_per_point, 16e-12);
    EXPECT_DOUBLE_EQ(r.l2_seconds_per_point, 20e-12);
    EXPECT_DOUBLE_EQ(r.l1_seconds_per_point, 15e-12);
    EXPECT_DOUBLE_EQ(r.fp_seconds_per_point, 5e-12);
    EXPECT_DOUBLE_EQ(r.seconds_per_point, 20e-12);
    EXPECT_DOUBLE_EQ(r.points_per_second, 5e10);
    EXPECT_DOUBLE_EQ(r.seconds_per_launch, 20e-9);
    in.l1_cycles_per_point = 3; // 30 ps
    EXPECT_EQ(evaluate_limiters(in, m, 1).binding, Limiter::l1);
    EXPECT_STREQ(limiter_name(Limiter::l1), "L1");
}

TEST(Limiter, BlockLaunchRateComesFromTheV100FilesOnly) {
    // 0.5 blocks per cycle (the Warpspeed execution model's Tblocksched) at the boost clock.
    EXPECT_DOUBLE_EQ(limiter_machine(resolve_machine("v100-pcie-32gb")).block_launches_per_s,
                     0.5 * 1380e6);
    EXPECT_DOUBLE_EQ(limiter_machine(resolve_machine("v100-sxm2-32gb")).block_launches_per_s,
                     0.5 * 1530e6);
    // No other file gives a rate: starting blocks does not limit there.
    EXPECT_DOUBLE_EQ(limiter_machine(resolve_machine("a100-sxm4-40gb")).block_launches_per_s, 0);
}

TEST(Limiter, SmallBlocksAreLimitedByStartingThem) {
    // 690 M blocks/s (0.5 per cycle at 1.38 GHz): blocks of 32 points need 45.3 ps per point,
    // more than the 30 ps of L1; blocks of 128 points need 11.3 ps and L1 binds again.
    LimiterMachine m{1000e9, 4000e9, 100e9, 690e6};
    LimiterInputs in;
    in.dram_bytes_per_point = 16; // 16 ps
    in.l2_bytes_per_point = 80;   // 20 ps
    in.l1_cycles_per_point = 3;   // 30 ps
    in.blocks_per_point = 1.0 / 32;
    LimiterResult r = evaluate_limiters(in, m, 3200);
    EXPECT_EQ(r.binding, Limiter::launch);
    EXPECT_DOUBLE_EQ(r.launch_seconds_per_point, 1.0 / (32 * 690e6));
    EXPECT_DOUBLE_EQ(r.seconds_per_launch, 100 / 690e6); // 100 blocks
    EXPECT_STREQ(limiter_name(Limiter::launch), "launch");
    in.blocks_per_point = 1.0 / 128;
    r = evaluate_limiters(in, m, 3200);
    EXPECT_EQ(r.binding, Limiter::l1);
    EXPECT_DOUBLE_EQ(r.launch_seconds_per_point, 1.0 / (128 * 690e6));
    // Without a rate the launch limiter is 0 and never binds, whatever the block size.
    m.block_launches_per_s = 0;
    in.blocks_per_point = 1;
    r = evaluate_limiters(in, m, 3200);
    EXPECT_EQ(r.binding, Limiter::l1);
    EXPECT_DOUBLE_EQ(r.launch_seconds_per_point, 0);
}

TEST(Limiter, MissingBandwidthIsAnInputErrorNamingTheLevel) {
    MachineModel machine = resolve_machine("a100-sxm4-40gb");
    for (auto& level : machine.memory)
        if (level.name == "l2") {
            level.sustained_bandwidth_gbs.reset();
            level.peak_bandwidth_gbs.reset();
        }
    try {
        limiter_machine(machine);
        FAIL() << "expected an input error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("memory level l2"), std::string::npos) << error.message();
        EXPECT_NE(error.message().find("extends this one"), std::string::npos) << error.message();
    }
}
