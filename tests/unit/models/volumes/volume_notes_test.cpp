// The words of a volume forecast's notes: each assumption the model records is said once, in the
// order predict prints them, and a forecast with no assumption says only its register count.
#include "kerncast/models/volumes/volume_notes.hpp"

#include <gtest/gtest.h>

using namespace kerncast::models;

namespace {

VolumePrediction plain() {
    VolumePrediction p;
    p.placement.waves = 3;
    p.placement.registers.source = RegisterSource::command_line;
    p.placement.registers.per_thread = 32;
    return p;
}

} // namespace

TEST(VolumeNotes, NoAssumptionLeavesOnlyTheRegisterCount) {
    EXPECT_EQ(volume_notes(plain(), "m"),
              std::vector<std::string>{"Registers per thread: 32 (command line)."});
}

TEST(VolumeNotes, EachAssumptionInPredictsOrder) {
    VolumePrediction p = plain();
    p.placement.waves = 1;
    p.unmodelled_share = 0.5;
    p.unmodelled.push_back({"hist[b]", "global atomic", 1, 8, "its updates' serialization"});
    p.assumptions.l1.source = L1MissSource::simulation;
    p.assumptions.l1.lines = 1920;
    p.assumptions.l1.line_bytes = 128;
    p.assumptions.l1.ways = 4;
    p.assumptions.l1.miss_pass_fill_cycles = 262.4;
    p.assumptions.l2_redundant_loads_assumed_hit = true;
    p.assumptions.block_launch_rate_unknown = true;
    p.assumptions.dram_in_flight_unknown = true;
    p.assumptions.mixed_bandwidths.push_back({"DRAM", "dram", "DRAM bytes", 3.0e12, 0.25, 3.3e12});
    const std::vector<std::string> notes = volume_notes(p, "m");
    ASSERT_EQ(notes.size(), 10u);
    EXPECT_EQ(notes[0].rfind("Unmodelled: 50 % of the kernel's global accesses", 0), 0u);
    EXPECT_EQ(notes[1], "L1 capacity misses come from a simulation of one SM's L1 (1920 lines of "
                        "128 B in sets of 4, LRU; docs/volume-model.md), not the "
                        "l1_redundant_loads fit.");
    EXPECT_NE(notes[2].find("a fill takes the L2 latency, 262 cycles"), std::string::npos);
    EXPECT_EQ(notes[3], "'hist[b]' (global atomic, 1 executions a point): its updates' "
                        "serialization");
    EXPECT_EQ(notes[4], "Registers per thread: 32 (command line).");
    EXPECT_EQ(notes[5].rfind("The machine has no capacity_fits.l2_redundant_loads", 0), 0u);
    EXPECT_EQ(notes[6], "The launch fits in one wave: no reuse from earlier blocks is possible.");
    EXPECT_EQ(notes[7], "DRAM bandwidth 3000 GB/s for this kernel's mix (0.25 of its DRAM bytes "
                        "are stores), interpolated in the dram level's "
                        "mixed_bandwidth_by_store_fraction (without the list the limit "
                        "divides by sustained_bandwidth_gbs, 3300 GB/s).");
    EXPECT_EQ(notes[8].rfind("The machine gives no block launch rate", 0), 0u);
    EXPECT_EQ(notes[9].rfind("The machine's dram level gives no bandwidth_by_loads_in_flight", 0),
              0u);
}

TEST(VolumeNotes, TheL1FitSaysWhyTheSimulationDidNotRun) {
    VolumePrediction p = plain();
    p.assumptions.l1.source = L1MissSource::capacity_fit_instead;
    p.assumptions.l1.simulation_refused = "the kernel's program order is data-dependent";
    p.assumptions.l1.miss_pass_requested = true;
    EXPECT_EQ(volume_notes(p, "m")[0],
              "L1 capacity misses come from the l1_redundant_loads fit (eq. 5), not the "
              "simulated L1: the kernel's program order is data-dependent. Nor do the loads' L1 "
              "cycles (shared_memory_banks.miss_pass): the bank rule alone counts them.");
    p.assumptions.l1.source = L1MissSource::capacity_fit; // a machine without L1 ways
    EXPECT_EQ(volume_notes(p, "m")[0], "shared_memory_banks.miss_pass \"after_hits\" is not "
                                       "applied: it needs the simulated L1 (memory level l1, "
                                       "ways).");
    p.assumptions.l1.miss_pass_requested = false;
    EXPECT_EQ(volume_notes(p, "m").size(), 1u);
}

// The loads in flight an SM keeps, factor by factor, only when the in-flight limiter ran.
TEST(VolumeNotes, LoadsInFlightAreSaidFactorByFactor) {
    VolumePrediction p = plain();
    DramLoadsInFlight& f = p.assumptions.dram_in_flight;
    f.resident_threads = 2048;
    f.warp_duration_cv = 0.05;
    f.running_fraction = 0.9;
    f.warps_per_block = 8;
    f.points_per_thread = 2;
    f.window = 6;
    f.registers_per_thread = 40;
    f.reserved_registers = 8;
    f.value_bytes = 8;
    f.registers_per_value = 2;
    DramLoadPhase phase;
    phase.arrays = {"a"};
    phase.window_fraction = 0.5;
    phase.loads_per_thread = 12;
    phase.dram_load_bytes_per_point = 16;
    phase.bytes_per_sm = 2048 * 0.9 * 2 * 0.5 * 16;
    f.phases = {phase};
    EXPECT_EQ(volume_notes(p, "m").size(), 1u); // the limiter did not run
    p.limiter.dram_in_flight_bandwidth_bytes_per_s = 2.5e12;
    EXPECT_EQ(volume_notes(p, "m")[1],
              "DRAM in flight: 2048 resident threads an SM x 0.900 of them running (a block's 8 "
              "warps end apart, durations varying by 5.0 %, and its slots free when the last "
              "ends: compute.warp_duration_cv) x 2 point(s) x 0.500 of the 12 loads a thread at "
              "once (its 40 registers hold a window of 6 8-byte values: (40 - 8) / 2) x 16.00 B "
              "of DRAM loads a point = 28.8 KiB of loads in flight an SM reach 2500 GB/s at the "
              "latency under that load (interpolated in the dram level's "
              "bandwidth_by_loads_in_flight).");
    // The table's source, where the machine names one: A100 points include block starts.
    f.table_source = "gpu-benches-stream-in-flight";
    EXPECT_NE(volume_notes(p, "m")[1].find(
                  "bandwidth_by_loads_in_flight, source gpu-benches-stream-in-flight, which "
                  "`kerncast machine show` cites with how it was measured)."),
              std::string::npos);
    f.table_source.clear();
    f.warp_duration_cv.reset();
    f.no_window = NoLoadWindow::sequential_loop;
    const std::string loop = volume_notes(p, "m")[1];
    EXPECT_NE(loop.find("all of them running (the machine gives no compute.warp_duration_cv)"),
              std::string::npos);
    EXPECT_NE(loop.find("(its loads run in a sequential loop: no window)"), std::string::npos);
}

// A staged kernel's loads in two barrier phases: each phase's loads, bytes in flight and
// bandwidth, then the kernel's; a barrier in a loop adds that its phases are counted at once.
TEST(VolumeNotes, BarrierPhasesAreSaidPhaseByPhase) {
    VolumePrediction p = plain();
    DramLoadsInFlight& f = p.assumptions.dram_in_flight;
    f.resident_threads = 1024;
    f.no_window = NoLoadWindow::sequential_loop;
    f.phases = {{{"temp"}, 1.1, 1, 4, 4096}, {{"power"}, 1, 1, 4, 4096}};
    p.limiter.dram_in_flight_bandwidth_bytes_per_s = 900e9;
    p.limiter.dram_in_flight_phase_bytes_per_s = {900e9, 900e9};
    const std::string note = volume_notes(p, "m")[1];
    EXPECT_EQ(note,
              "DRAM in flight, in 2 barrier phases (a thread issues no load after a barrier "
              "before its block has reached it, so each phase's loads are in flight on their own, "
              "and its DRAM bytes move at the bandwidth they reach): 1024 resident threads an SM "
              "x all of them running (the machine gives no compute.warp_duration_cv) x 1 "
              "point(s) x the phase's loads, phase 1 (temp): all the loads a thread at once (its "
              "loads run in a "
              "sequential loop: no window) x 4.00 B of DRAM loads a point = 4.0 KiB, 900 GB/s; "
              "phase 2 (power): all the loads a thread at once (its loads run in a sequential "
              "loop: no window) x 4.00 B of DRAM loads a point = 4.0 KiB, 900 GB/s. Over the "
              "kernel 900 GB/s at the latencies under those loads (interpolated in the dram "
              "level's bandwidth_by_loads_in_flight).");
    f.barrier_in_loop = true;
    EXPECT_NE(volume_notes(p, "m")[1].find("A barrier in a sequential loop repeats its phases "
                                           "every iteration; a phase's loads are counted over "
                                           "all the iterations at once, so where this limit "
                                           "binds the forecast may be too fast."),
              std::string::npos);
}

TEST(VolumeNotes, OperationsTheFoldInstancesShareAreSaidWithTheCyclesTheySave) {
    VolumePrediction p = plain();
    p.launch.fold = {4, 1, 1};
    p.fp.cycles_per_point = 21.09375;
    p.fp.instance_cycles_per_point = 56.25;
    const std::vector<std::string> notes = volume_notes(p, "m");
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[1], "The fold's 4 instances do the floating-point operations whose operands "
                        "do not depend on their fold index once for all of them, as "
                        "register-tiled code does (and kerncast's generated code where its fold "
                        "fast path runs): 21.094 issue cycles a point instead of 56.250 "
                        "(docs/kernel-format.md, What is counted).");
    // Nothing shared (or within 0.5 %): no note.
    p.fp.instance_cycles_per_point = 21.1;
    EXPECT_EQ(volume_notes(p, "m").size(), 1u);
}
