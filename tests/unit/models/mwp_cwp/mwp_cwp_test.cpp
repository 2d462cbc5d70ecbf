// Hong & Kim 2009: Table 2 (exact and as printed), each of the three cases of (22)-(24), the
// options, and the edge cases docs/mwp-cwp.md describes. Expected values are worked by hand
// in the comments.
#include "../test_machines.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

using test::hk_example;
using ::testing::HasSubstr;

// Table 2's inputs (sec. 3.6): <<<80, 128>>>, 5 active blocks per SM, 27 computation and 6
// uncoalesced memory instructions, 6 barriers, 32 transactions and 128 B per memory warp.
Workload table2() {
    Workload w;
    w.name = "table2";
    w.threads_per_block = 128;
    w.blocks = 80;
    w.comp_insts = 27;
    w.uncoal_mem_insts = 6;
    w.coal_mem_insts = 0;
    w.synch_insts = 6;
    w.uncoal_per_mw = 32;
    w.load_bytes_per_warp = 128;
    w.active_blocks_per_sm = 5;
    return w;
}

TEST(MwpCwpTable2, EveryIntermediateExact) {
    const auto r = predict_mwp_cwp(table2(), hk_example());
    EXPECT_EQ(r.warps_per_block, 4);
    EXPECT_EQ(r.active_sms, 16);
    EXPECT_EQ(r.active_blocks_per_sm, 5);
    EXPECT_EQ(r.active_warps_per_sm, 20);                    // N = 4 x 5
    EXPECT_DOUBLE_EQ(r.mem_l_uncoal_cycles, 730);            // (10) 420 + 31 x 10
    EXPECT_DOUBLE_EQ(r.mem_l_coal_cycles, 420);              // (11)
    EXPECT_DOUBLE_EQ(r.weight_uncoal, 1);                    // (13) 6 / 6
    EXPECT_DOUBLE_EQ(r.weight_coal, 0);                      // (14)
    EXPECT_DOUBLE_EQ(r.mem_l_cycles, 730);                   // (12)
    EXPECT_DOUBLE_EQ(r.departure_delay_cycles, 320);         // (15) 10 x 32
    EXPECT_DOUBLE_EQ(*r.mwp_without_bw_full, 2.28125);       // (16) 730 / 320
    EXPECT_DOUBLE_EQ(*r.mwp_without_bw, 2.28125);            // (17) min(2.28125, 20)
    EXPECT_DOUBLE_EQ(*r.bw_per_warp_gbs, 128.0 / 730.0);     // (7) 1 GHz x 128 B / 730
    EXPECT_DOUBLE_EQ(*r.mwp_peak_bw, 80.0 * 730.0 / 2048.0); // (6) 80 / (0.17534 x 16) = 28.5156
    EXPECT_DOUBLE_EQ(*r.mwp, 2.28125);                       // (5)
    EXPECT_DOUBLE_EQ(*r.mwp_used, 2.28125);
    EXPECT_DOUBLE_EQ(r.comp_cycles, 132);         // (19) 4 x 33
    EXPECT_DOUBLE_EQ(r.mem_cycles, 4380);         // (18) 730 x 6
    EXPECT_DOUBLE_EQ(r.cwp_full, 4512.0 / 132.0); // (8) 34.1818
    EXPECT_DOUBLE_EQ(r.cwp, 20);                  // (9)
    EXPECT_DOUBLE_EQ(r.rep, 1);                   // (21) 80 / (16 x 5)
    EXPECT_EQ(r.execution_case, ExecutionCase::memory_bound);
    EXPECT_THAT(r.case_reason, HasSubstr("CWP (20) >= MWP (2.28125)"));
    // (23): 4380 x 20 / 2.28125 + 132 / 6 x 1.28125 = 38400 + 28.1875 = 38428.1875
    EXPECT_NEAR(r.exec_cycles_app, 38428.1875, 1e-9);
    // (26): 320 x 1.28125 x 6 x 5 x 1 = 12300
    EXPECT_NEAR(r.synch_cost_cycles, 12300, 1e-9);
    // (27): 50728.1875 (Table 2 prints 50738 from MWP rounded to 2.28)
    EXPECT_NEAR(r.exec_cycles_with_synch, 50728.1875, 1e-9);
    EXPECT_NEAR(r.exec_cycles_with_synch, 50728.19, 1e-2);
    // (25): 38428.1875 / (33 x 128/32 x 80/16) = 38428.1875 / 660
    EXPECT_NEAR(r.cpi, 38428.1875 / 660.0, 1e-12);
    // 50728.1875 cycles at 1000 MHz
    EXPECT_NEAR(r.time_seconds, 50728.1875e-9, 1e-18);
    EXPECT_EQ(r.machine.clock_mhz.field, "compute.base_clock_mhz");
    EXPECT_EQ(r.machine.mem_bandwidth_gbs.field, "memory.dram.peak_bandwidth_gbs");
}

TEST(MwpCwpTable2, BuiltInHkExampleMachine) {
    // The shipped workload file on the built-in machine: the same exact total.
    const Workload w =
        load_workload_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/workloads/hk-table2.json");
    const auto r = predict_mwp_cwp(w, builtin_machine("hk-example"));
    EXPECT_NEAR(r.exec_cycles_with_synch, 50728.1875, 1e-9);
    EXPECT_EQ(r.machine.mem_ld_cycles.source, "hong-kim-3.6");
}

TEST(MwpCwpTable2, PaperRoundingReproducesThePrintedTotal) {
    MwpCwpOptions options;
    options.paper_rounding = true;
    const auto r = predict_mwp_cwp(table2(), hk_example(), options);
    EXPECT_DOUBLE_EQ(*r.mwp, 2.28125); // the exact value stays in the result
    EXPECT_DOUBLE_EQ(*r.mwp_used, 2.28);
    // (23): 87600 / 2.28 + 22 x 1.28 = 38421.0526 + 28.16 = 38449.2126 (printed 38450)
    EXPECT_NEAR(r.exec_cycles_app, 87600.0 / 2.28 + 22 * 1.28, 1e-9);
    // (26): 320 x 1.28 x 6 x 5 = 12288, as printed
    EXPECT_NEAR(r.synch_cost_cycles, 12288, 1e-9);
    // 50737.2 (printed 50738) within 0.1 %
    EXPECT_NEAR(r.exec_cycles_with_synch, 50737.2, 50737.2 * 1e-3);
    EXPECT_NEAR(r.exec_cycles_with_synch, 50737.2126, 1e-3);
}

TEST(MwpCwpTable2, BoundedSynchronisationChangesNothingHere) {
    // MWP 2.28 is below the 4 warps of a block.
    MwpCwpOptions options;
    options.synch_bounded_by_block_warps = true;
    const auto r = predict_mwp_cwp(table2(), hk_example(), options);
    EXPECT_DOUBLE_EQ(r.mwp_in_synch, 2.28125);
    EXPECT_NEAR(r.exec_cycles_with_synch, 50728.1875, 1e-9);
}

TEST(MwpCwpCases, NotEnoughWarpsUsesEquation22) {
    // One block of 64 threads per SM: N = 2. MWP = min(2.28125, 28.5156, 2) = 2 = N,
    // CWP = min(34.18, 2) = 2 = N -> (22): (4380 + 132 + 132/6 x (2 - 1)) x 1 = 4534.
    // (26): 320 x (2 - 1) x 6 x 1 x 1 = 1920. (25): 4534 / (33 x 2 x 1).
    Workload w = table2();
    w.threads_per_block = 64;
    w.blocks = 16;
    w.active_blocks_per_sm = 1;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_EQ(r.active_warps_per_sm, 2);
    EXPECT_DOUBLE_EQ(*r.mwp, 2);
    EXPECT_DOUBLE_EQ(r.cwp, 2);
    EXPECT_EQ(r.execution_case, ExecutionCase::not_enough_warps);
    EXPECT_EQ(equation_number(r.execution_case), "22");
    EXPECT_NEAR(r.exec_cycles_app, 4534, 1e-9);
    EXPECT_NEAR(r.synch_cost_cycles, 1920, 1e-9);
    EXPECT_NEAR(r.exec_cycles_with_synch, 6454, 1e-9);
    EXPECT_NEAR(r.cpi, 4534.0 / 66.0, 1e-12);
}

// Coalesced loads with much computation: MWP > CWP.
Workload compute_heavy() {
    Workload w = table2();
    w.comp_insts = 104;
    w.uncoal_mem_insts = 0;
    w.coal_mem_insts = 1;
    w.synch_insts = 0;
    w.uncoal_per_mw = 1;
    return w;
}

TEST(MwpCwpCases, ComputeBoundUsesEquation24) {
    // Mem_L = 420, Departure_delay = 4, MWP_Without_BW_full = 105, MWP_Without_BW = 20,
    // BW_per_warp = 128 / 420 GB/s, MWP_peak_BW = 80 x 420 / (128 x 16) = 16.40625 = MWP.
    // Comp_cycles = 4 x 105 = 420 = Mem_cycles -> CWP_full = 2 = CWP < MWP, and Comp_cycles
    // is not > Mem_cycles -> (24): (420 + 420 x 20) x 1 = 8820.
    const auto r = predict_mwp_cwp(compute_heavy(), hk_example());
    EXPECT_DOUBLE_EQ(r.weight_coal, 1);
    EXPECT_DOUBLE_EQ(r.weight_uncoal, 0);
    EXPECT_DOUBLE_EQ(r.mem_l_cycles, 420);
    EXPECT_DOUBLE_EQ(r.departure_delay_cycles, 4);
    EXPECT_DOUBLE_EQ(*r.mwp_without_bw_full, 105);
    EXPECT_DOUBLE_EQ(*r.mwp_without_bw, 20);
    EXPECT_DOUBLE_EQ(*r.mwp_peak_bw, 16.40625);
    EXPECT_DOUBLE_EQ(*r.mwp, 16.40625);
    EXPECT_DOUBLE_EQ(r.comp_cycles, 420);
    EXPECT_DOUBLE_EQ(r.mem_cycles, 420);
    EXPECT_DOUBLE_EQ(r.cwp, 2);
    EXPECT_EQ(r.execution_case, ExecutionCase::compute_bound);
    EXPECT_THAT(r.case_reason, HasSubstr("MWP (16.4062) > CWP (2)"));
    EXPECT_NEAR(r.exec_cycles_app, 8820, 1e-9);
    EXPECT_NEAR(r.synch_cost_cycles, 0, 1e-12);
}

TEST(MwpCwpCases, ComputationLongerThanMemoryUsesEquation23) {
    // The paper's condition for (23) includes Comp_cycles > Mem_cycles even when MWP > CWP.
    // comp_insts 200: Comp_cycles = 4 x 201 = 804 > Mem_cycles = 420; CWP = 1224 / 804;
    // MWP = 16.40625 -> (23): 420 x 20 / 16.40625 + 804 x 15.40625 = 512 + 12386.625.
    Workload w = compute_heavy();
    w.comp_insts = 200;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_DOUBLE_EQ(r.cwp, 1224.0 / 804.0);
    EXPECT_EQ(r.execution_case, ExecutionCase::memory_bound);
    EXPECT_THAT(r.case_reason, HasSubstr("Comp_cycles (804) > Mem_cycles (420)"));
    EXPECT_NEAR(r.exec_cycles_app, 12898.625, 1e-9);
}

TEST(MwpCwpOptions, SynchronisationBoundedByBlockWarps) {
    // compute_heavy with 2 barriers: (26) 4 x (16.40625 - 1) x 2 x 5 x 1 = 616.25; bounded by
    // the 4 warps of a block: 4 x (4 - 1) x 2 x 5 = 120.
    Workload w = compute_heavy();
    w.synch_insts = 2;
    EXPECT_NEAR(predict_mwp_cwp(w, hk_example()).synch_cost_cycles, 616.25, 1e-9);
    MwpCwpOptions options;
    options.synch_bounded_by_block_warps = true;
    const auto r = predict_mwp_cwp(w, hk_example(), options);
    EXPECT_DOUBLE_EQ(r.mwp_in_synch, 4);
    EXPECT_NEAR(r.synch_cost_cycles, 120, 1e-9);
    EXPECT_NEAR(r.exec_cycles_with_synch, 8940, 1e-9);
}

TEST(MwpCwpOptions, RepCeiling) {
    // 100 blocks on 16 SMs x 5: #Rep = 1.25 (ceil: 2). Exec_cycles_app and Synch_cost scale
    // with #Rep: 38428.1875 x 1.25 and 12300 x 1.25, or x 2.
    Workload w = table2();
    w.blocks = 100;
    const auto exact = predict_mwp_cwp(w, hk_example());
    EXPECT_EQ(exact.active_blocks_per_sm, 5);
    EXPECT_DOUBLE_EQ(exact.rep, 1.25);
    EXPECT_NEAR(exact.exec_cycles_app, 48035.234375, 1e-9);
    EXPECT_NEAR(exact.synch_cost_cycles, 15375, 1e-9);
    MwpCwpOptions options;
    options.rep_ceiling = true;
    const auto ceiled = predict_mwp_cwp(w, hk_example(), options);
    EXPECT_DOUBLE_EQ(ceiled.rep, 2);
    EXPECT_NEAR(ceiled.exec_cycles_app, 76856.375, 1e-9);
    EXPECT_NEAR(ceiled.exec_cycles_with_synch, 76856.375 + 24600, 1e-9);
}

TEST(MwpCwpEdges, NoMemoryInstructions) {
    // Computation only: (24) with Mem_L = 0: 4 x 10 x 20 warps = 800 cycles; no MWP.
    Workload w = table2();
    w.comp_insts = 10;
    w.uncoal_mem_insts = 0;
    w.synch_insts = 3;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_DOUBLE_EQ(r.weight_uncoal, 0);
    EXPECT_DOUBLE_EQ(r.weight_coal, 0);
    EXPECT_DOUBLE_EQ(r.mem_l_cycles, 0);
    EXPECT_DOUBLE_EQ(r.departure_delay_cycles, 0);
    EXPECT_FALSE(r.mwp.has_value());
    EXPECT_FALSE(r.bw_per_warp_gbs.has_value());
    EXPECT_DOUBLE_EQ(r.cwp_full, 1);
    EXPECT_DOUBLE_EQ(r.cwp, 1);
    EXPECT_EQ(r.execution_case, ExecutionCase::compute_bound);
    EXPECT_THAT(r.case_reason, HasSubstr("no memory instructions"));
    EXPECT_NEAR(r.exec_cycles_app, 800, 1e-12);
    EXPECT_NEAR(r.synch_cost_cycles, 0, 1e-12);
    EXPECT_NEAR(r.cpi, 800.0 / (10 * 4 * 5), 1e-12);
}

TEST(MwpCwpEdges, FewerBlocksThanSms) {
    // 8 blocks on 16 SMs: 8 active SMs with one block each (N = 4), #Rep = 1.
    // MWP_peak_BW = 80 / (128/730 x 8) = 57.03; MWP = 2.28125; CWP = min(34.18, 4) = 4
    // -> (23): 4380 x 4 / 2.28125 + 22 x 1.28125 = 7680 + 28.1875.
    Workload w = table2();
    w.blocks = 8;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_EQ(r.active_sms, 8);
    EXPECT_EQ(r.active_blocks_per_sm_limit, 5);
    EXPECT_EQ(r.active_blocks_per_sm, 1);
    EXPECT_EQ(r.active_warps_per_sm, 4);
    EXPECT_DOUBLE_EQ(r.rep, 1);
    EXPECT_DOUBLE_EQ(*r.mwp_peak_bw, 80.0 * 730.0 / (128.0 * 8.0));
    EXPECT_NEAR(r.exec_cycles_app, 7708.1875, 1e-9);
}

TEST(MwpCwpEdges, BandwidthStarvedLaunchIsFlagged) {
    // 1 MB per memory warp: BW_per_warp = 1e6 / 730 GB/s, MWP_peak_BW = 80 x 730 / (1e6 x 16)
    // = 0.00365 -> (MWP - 1) < 0 makes Synch_cost negative, as the equations say.
    Workload w = table2();
    w.load_bytes_per_warp = 1e6;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_DOUBLE_EQ(*r.mwp, 80.0 * 730.0 / 16e6);
    EXPECT_LT(r.synch_cost_cycles, 0);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_THAT(r.warnings[0], HasSubstr("MWP = 0.00365 < 1"));
    EXPECT_TRUE(predict_mwp_cwp(table2(), hk_example()).warnings.empty());
}

TEST(MwpCwpEdges, OverflowIsAnInputError) {
    Workload w = table2();
    w.comp_insts = 1e308;
    w.uncoal_mem_insts = 1e308;
    w.uncoal_per_mw = 1e308;
    EXPECT_THROW(predict_mwp_cwp(w, hk_example()), Error);
}

TEST(MwpCwpEdges, MixedCoalescedAndUncoalesced) {
    // 3 uncoalesced + 1 coalesced: weights 3/4, 1/4; Mem_L = 730 x 0.75 + 420 x 0.25 = 652.5;
    // Departure_delay = 320 x 0.75 + 4 x 0.25 = 241; Mem_cycles = 730 x 3 + 420 = 2610.
    Workload w = table2();
    w.uncoal_mem_insts = 3;
    w.coal_mem_insts = 1;
    const auto r = predict_mwp_cwp(w, hk_example());
    EXPECT_DOUBLE_EQ(r.weight_uncoal, 0.75);
    EXPECT_DOUBLE_EQ(r.weight_coal, 0.25);
    EXPECT_DOUBLE_EQ(r.mem_l_cycles, 652.5);
    EXPECT_DOUBLE_EQ(r.departure_delay_cycles, 241);
    EXPECT_DOUBLE_EQ(r.mem_cycles, 2610);
    EXPECT_DOUBLE_EQ(*r.mwp_without_bw_full, 652.5 / 241);
    EXPECT_DOUBLE_EQ(r.comp_cycles, 4 * 31);
}

TEST(MwpCwpMachine, OccupancyGivesActiveBlocksWithoutOverride) {
    // 128 threads, 10 registers: 4 x 32 x 10 = 1280 -> 6 blocks; warps 24 / 4 = 6 (binds,
    // the earlier limit on a tie); 2000 B -> 2048 B -> 8. 200 blocks: ceil(200/16) = 13 >= 6.
    Workload w = table2();
    w.active_blocks_per_sm.reset();
    w.registers_per_thread = 10;
    w.shared_memory_per_block_bytes = 2000;
    w.blocks = 200;
    const auto r = predict_mwp_cwp(w, hk_example());
    ASSERT_TRUE(r.occupancy.has_value());
    EXPECT_EQ(r.occupancy->binding_limit, OccupancyLimit::warps);
    EXPECT_FALSE(r.active_blocks_per_sm_from_workload);
    EXPECT_EQ(r.active_blocks_per_sm, 6);
    EXPECT_EQ(r.active_warps_per_sm, 24);
    EXPECT_DOUBLE_EQ(r.rep, 200.0 / 96.0);
}

TEST(MwpCwpMachine, BoostClockAndSustainedBandwidthWin) {
    auto machine = hk_example();
    machine.compute.boost_clock_mhz = test::known(2000.0);
    machine.memory[0].sustained_bandwidth_gbs = test::known(40.0);
    const auto r = predict_mwp_cwp(table2(), machine);
    EXPECT_EQ(r.machine.clock_mhz.field, "compute.boost_clock_mhz");
    EXPECT_DOUBLE_EQ(r.machine.clock_mhz.value, 2000);
    EXPECT_EQ(r.machine.mem_bandwidth_gbs.field, "memory.dram.sustained_bandwidth_gbs");
    // BW_per_warp doubles and the bandwidth halves: MWP_peak_BW = 28.5156 / 4.
    EXPECT_DOUBLE_EQ(*r.mwp_peak_bw, 80.0 * 730.0 / 2048.0 / 4.0);
    EXPECT_NEAR(r.time_seconds, 50728.1875 / 2e9, 1e-18);
}

TEST(MwpCwpMachine, MissingParameterNamesMachineAndField) {
    auto machine = hk_example();
    machine.mwp_cwp.departure_del_coal_cycles.reset();
    try {
        predict_mwp_cwp(table2(), machine);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "machine 'hk-example-test' lacks "
                               "mwp_cwp.departure_del_coal_cycles, which the MWP-CWP model needs");
    }
    machine = hk_example();
    machine.memory.clear();
    EXPECT_THROW(predict_mwp_cwp(table2(), machine), Error);
    machine = hk_example();
    machine.compute.base_clock_mhz.reset();
    try {
        predict_mwp_cwp(table2(), machine);
        FAIL();
    } catch (const Error& e) {
        EXPECT_THAT(e.message(), HasSubstr("compute.base_clock_mhz"));
    }
}

TEST(MwpCwpMachine, OverridesCheckedAgainstTheMachine) {
    auto expect_error = [](const Workload& w, const std::string& text, const std::string& path) {
        try {
            predict_mwp_cwp(w, hk_example());
            ADD_FAILURE() << "expected an error: " << text;
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::input);
            EXPECT_THAT(e.message(), HasSubstr(text));
            EXPECT_EQ(e.where().json_path, path);
        }
    };
    Workload w = table2();
    w.blocks = 1000;
    w.active_blocks_per_sm = 9; // CC 1.0: at most 8 blocks
    expect_error(w, "9 active blocks per SM exceed the maximum of 8", "/active_blocks_per_sm");
    w.active_blocks_per_sm = 7; // 7 x 4 = 28 warps > 24
    expect_error(w, "7 active blocks per SM of 4 warps are 28 warps, more than the 24",
                 "/active_blocks_per_sm");
    w = table2();
    w.threads_per_block = 1024;
    expect_error(w, "1024 threads per block exceed the maximum of 512", "/threads_per_block");
}

TEST(MwpCwpMachine, ActiveSmsOverride) {
    Workload w = table2();
    w.active_sms = 8; // 80 / (5 x 8) = 2 waves
    EXPECT_DOUBLE_EQ(predict_mwp_cwp(w, hk_example()).rep, 2);
    w.active_sms = 17;
    try {
        predict_mwp_cwp(w, hk_example());
        FAIL();
    } catch (const Error& e) {
        EXPECT_THAT(e.message(), HasSubstr("active_sms (17) exceeds the 16 SMs"));
        EXPECT_EQ(e.where().json_path, "/active_sms");
    }
}

} // namespace
} // namespace kerncast::models
