// The volume model's stage plan (volume_stages.hpp): which mechanisms run on each built-in
// machine, decided from the machine file alone, and the values each stage names.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volume_stages.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

std::vector<std::string> running(const VolumeStagePlan& plan) {
    std::vector<std::string> names;
    for (const VolumeStage& s : plan.stages)
        if (s.runs)
            names.push_back(s.name);
    return names;
}

const StageParameter* parameter(const VolumeStage& stage, const std::string& name) {
    for (const StageParameter& p : stage.parameters)
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace

TEST(VolumeStages, HopperRunsEveryMeasuredMechanism) {
    const VolumeStagePlan plan = plan_volume_stages(builtin_machine("h100-sxm5-80gb"));
    EXPECT_EQ(running(plan),
              (std::vector<std::string>{"l1_bank_rule", "l1_miss_pass", "l1_simulation", "waves",
                                        "layer_sets", "partial_stores", "dram_limit",
                                        "dram_mixed_bandwidth", "l2_limit", "l1_limit",
                                        "flops_limit", "launch_limit", "dram_in_flight_limit",
                                        "block_retirement", "load_window"}));
    EXPECT_TRUE(plan.simulated_l1 && plan.miss_pass && plan.dram_in_flight &&
                plan.block_retirement && plan.load_window && plan.dram_mixed_bandwidth);
    EXPECT_FALSE(plan.l2_redundant_loads || plan.l2_mixed_bandwidth);
    const StageParameter* ways = parameter(plan.stage("l1_simulation"), "memory.l1.ways");
    ASSERT_NE(ways, nullptr);
    EXPECT_EQ(ways->value, "4");
    EXPECT_EQ(ways->source, "h100-l1-sets-2026-11-26");
    const StageParameter* reserve =
        parameter(plan.stage("load_window"), "compute.load_window_reserved_registers");
    ASSERT_NE(reserve, nullptr);
    EXPECT_EQ(reserve->value, "8 registers");
    EXPECT_EQ(plan.stage("l1_capacity_fit").instead,
              "the simulated L1 (kernels without a static request order keep the fit)");
}

TEST(VolumeStages, AnAmpereFileKeepsThePapersCacheMechanisms) {
    const VolumeStagePlan plan = plan_volume_stages(builtin_machine("a100-sxm4-40gb"));
    EXPECT_FALSE(plan.simulated_l1 || plan.miss_pass || plan.launch_limit);
    EXPECT_TRUE(plan.stage("l1_capacity_fit").runs);
    EXPECT_EQ(plan.stage("l1_simulation").instead, "no memory.l1.ways: the l1_redundant_loads fit");
    EXPECT_EQ(plan.stage("l1_miss_pass").instead,
              "shared_memory_banks.miss_pass is not \"after_hits\": the bank rule alone");
    // Its DRAM tables are published gpu-stream rows (data/published/gpu-benches-stream): the
    // in-flight limit and the mixes run; retirement and the window, which refine the in-flight
    // limit with values no A100 run measured, do not.
    EXPECT_TRUE(plan.dram_in_flight && plan.dram_mixed_bandwidth);
    const StageParameter* table =
        parameter(plan.stage("dram_in_flight_limit"), "memory.dram.bandwidth_by_loads_in_flight");
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->source, "gpu-benches-stream-in-flight");
    EXPECT_EQ(plan.stage("block_retirement").instead,
              "no compute.warp_duration_cv: every resident thread counts");
    EXPECT_FALSE(plan.stage("load_window").runs);
    const StageParameter* l1_fit =
        parameter(plan.stage("l1_capacity_fit"), "capacity_fits.l1_redundant_loads");
    ASSERT_NE(l1_fit, nullptr);
    EXPECT_EQ(l1_fit->value, "a 1, b 0.02, c -1.3");
    EXPECT_EQ(l1_fit->source, "kerncast-capacity-defaults");
}

TEST(VolumeStages, TheV100SimulatesItsL1AndLimitsLaunches) {
    // The PCIe file carries the published gpu-stream table (the in-flight limit, no retirement
    // or window: nothing measured them on a V100); the SXM2 file has no table.
    const VolumeStagePlan plan = plan_volume_stages(builtin_machine("v100-pcie-32gb"));
    EXPECT_TRUE(plan.simulated_l1 && plan.launch_limit && plan.l2_redundant_loads);
    EXPECT_TRUE(plan.dram_in_flight && plan.dram_mixed_bandwidth);
    EXPECT_FALSE(plan.miss_pass || plan.block_retirement || plan.load_window);
    EXPECT_FALSE(plan_volume_stages(builtin_machine("v100-sxm2-32gb")).dram_in_flight);
    EXPECT_NE(parameter(plan.stage("launch_limit"), "compute.block_launches_per_cycle"), nullptr);
}

TEST(VolumeStages, EachDecisionFollowsItsMachineValue) {
    MachineModel h200 = builtin_machine("h200-sxm-141gb");
    h200.compute.warp_duration_cv.reset();
    h200.compute.load_window_reserved_registers.reset();
    const VolumeStagePlan plan = plan_volume_stages(h200);
    EXPECT_TRUE(plan.dram_in_flight);
    EXPECT_FALSE(plan.block_retirement || plan.load_window);
    EXPECT_EQ(plan.stage("block_retirement").instead,
              "no compute.warp_duration_cv: every resident thread counts");
    EXPECT_EQ(plan.stage("load_window").instead,
              "no compute.load_window_reserved_registers: every load of a point counts");
    // miss_pass "after_hits" needs the simulated L1.
    MachineModel no_ways = builtin_machine("h200-sxm-141gb");
    for (MemoryLevel& level : no_ways.memory)
        if (level.name == "l1")
            level.ways.reset();
    const VolumeStagePlan without = plan_volume_stages(no_ways);
    EXPECT_FALSE(without.simulated_l1 || without.miss_pass);
    EXPECT_EQ(without.stage("l1_miss_pass").instead,
              "needs the simulated L1 (memory.l1.ways): the bank rule alone");
}

TEST(VolumeStages, AMachineTheModelCannotUseIsAnInputError) {
    try {
        plan_volume_stages(builtin_machine("gtx280"));
        FAIL() << "a machine without L1 and L2 was planned";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
    }
}

TEST(VolumeStages, DecisionsAloneAreThePlansDecisions) {
    // predict_volumes reads volume_stage_decisions; --explain prints plan_volume_stages: they
    // must agree on every machine the model runs on.
    for (const char* id : {"h100-sxm5-80gb", "h200-sxm-141gb", "a100-sxm4-40gb", "v100-pcie-32gb",
                           "v100-sxm2-32gb", "rtx-a6000", "h100-pcie-80gb"}) {
        const MachineModel machine = builtin_machine(id);
        const VolumeStagePlan plan = plan_volume_stages(machine);
        const VolumeStagePlan decisions = volume_stage_decisions(machine);
        EXPECT_TRUE(decisions.stages.empty()) << id;
        const auto flags = [](const VolumeStagePlan& p) {
            return std::vector<bool>{p.simulated_l1,         p.miss_pass,
                                     p.l2_redundant_loads,   p.launch_limit,
                                     p.dram_mixed_bandwidth, p.l2_mixed_bandwidth,
                                     p.dram_in_flight,       p.block_retirement,
                                     p.load_window};
        };
        EXPECT_EQ(flags(decisions), flags(plan)) << id;
        EXPECT_EQ(plan.stage("l1_simulation").runs, plan.simulated_l1) << id;
        EXPECT_EQ(plan.stage("load_window").runs, plan.load_window) << id;
    }
}
