// Limiter model (Ernst et al. 2023, sec. 2) on hand-computed numbers.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/limiter.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

TEST(Limiter, MachineNumbersComeFromTheA100File) {
    const LimiterMachine m = limiter_machine(resolve_machine("a100-sxm4-40gb"));
    EXPECT_DOUBLE_EQ(m.dram_bandwidth_bytes_per_s, 1400e9); // sustained, Ernst et al. Table 1
    EXPECT_DOUBLE_EQ(m.l2_bandwidth_bytes_per_s, 5000e9);
    EXPECT_DOUBLE_EQ(m.sm_cycles_per_s, 108 * 1410e6);
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
    }
}
