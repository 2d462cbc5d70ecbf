// Limiter model (Ernst et al. 2023, sec. 2) on hand-computed numbers.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/limiter.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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
                              Expected{"h100-sxm5-80gb", 3115.4, 6415.0, 132, 1980},
                              Expected{"h100-pcie-80gb", 1704, 6892.2, 114, 1755},
                              Expected{"h200-sxm-141gb", 4656.3, 7292.6, 132, 1980}}) {
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

TEST(Limiter, DramBandwidthFollowsTheLoadStoreMix) {
    // Measured mixes at store fractions 0.2, 0.5 and 1: linear between them, the nearest one
    // outside them; the sustained (loads alone) bandwidth without any.
    LimiterMachine m{1000e9, 4000e9, 100e9};
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.5), 1000e9);
    m.dram_bandwidth_by_store_fraction = {{0.2, 950e9}, {0.5, 800e9}, {1.0, 1000e9}};
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.0), 950e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.2), 950e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.3), 900e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.5), 800e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.75), 900e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 1.0), 1000e9);

    // 16 B a point, 8 of them stored: 16 B / 800 GB/s = 20 ps, where loads alone would take 16.
    LimiterInputs in;
    in.dram_bytes_per_point = 16;
    in.dram_store_bytes_per_point = 8;
    in.l2_bytes_per_point = 40; // 10 ps
    const LimiterResult r = evaluate_limiters(in, m, 1000);
    EXPECT_DOUBLE_EQ(r.dram_store_fraction, 0.5);
    EXPECT_DOUBLE_EQ(r.dram_bandwidth_bytes_per_s, 800e9);
    EXPECT_DOUBLE_EQ(r.dram_seconds_per_point, 20e-12);
    EXPECT_EQ(r.binding, Limiter::dram);
    // No DRAM traffic: store fraction 0, nothing to divide.
    in.dram_bytes_per_point = in.dram_store_bytes_per_point = 0;
    EXPECT_DOUBLE_EQ(evaluate_limiters(in, m, 1000).dram_seconds_per_point, 0);
}

TEST(Limiter, L2BandwidthFollowsTheLoadStoreMix) {
    // An L2 that serves a few stores among many loads faster (in loads plus stores) than loads
    // alone, and stores alone slowest: linear between the mixes, the nearest one outside them;
    // the sustained (loads alone) bandwidth without any; the DRAM limiter keeps its own.
    LimiterMachine m{1000e9, 4000e9, 100e9};
    EXPECT_DOUBLE_EQ(l2_bandwidth_bytes_per_s(m, 0.25), 4000e9);
    m.l2_bandwidth_by_store_fraction = {{0.0, 4000e9}, {0.2, 4800e9}, {1.0, 2000e9}};
    EXPECT_DOUBLE_EQ(l2_bandwidth_bytes_per_s(m, 0.1), 4400e9);
    EXPECT_DOUBLE_EQ(l2_bandwidth_bytes_per_s(m, 0.6), 3400e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(m, 0.1), 1000e9);

    // 48 B a point between L2 and L1, 8 of them stores (1/6): 4000 + 800 x (1/6) / 0.2 =
    // 4666.7 GB/s, so 48 B take 10.29 ps where the loads' bandwidth alone would give 12 ps.
    LimiterInputs in;
    in.dram_bytes_per_point = 8; // 8 ps
    in.l2_bytes_per_point = 48;
    in.l2_store_bytes_per_point = 8;
    const LimiterResult r = evaluate_limiters(in, m, 1000);
    EXPECT_DOUBLE_EQ(r.l2_store_fraction, 8.0 / 48.0);
    EXPECT_NEAR(r.l2_bandwidth_bytes_per_s, 4000e9 + 800e9 * (8.0 / 48.0) / 0.2, 1e3);
    EXPECT_NEAR(r.l2_seconds_per_point, 48 / (4000e9 + 800e9 * (8.0 / 48.0) / 0.2), 1e-24);
    EXPECT_EQ(r.binding, Limiter::l2);
    EXPECT_DOUBLE_EQ(r.dram_seconds_per_point, 8e-12);
    // No L2 traffic: store fraction 0, nothing to divide.
    in.l2_bytes_per_point = in.l2_store_bytes_per_point = 0;
    EXPECT_DOUBLE_EQ(evaluate_limiters(in, m, 1000).l2_seconds_per_point, 0);
}

TEST(Limiter, InFlightLimitIsLittlesLawOnTheLatencyUnderLoad) {
    // 100 SMs, 500 ns unloaded. Loads alone: 1000 GB/s at 10000 B in flight an SM (latency
    // 10000 x 100 / 1000e9 = 1000 ns) and 1500 GB/s at 20000 B (1333.3 ns). A 1:1 mix: 1200 GB/s
    // at 10000 B of loads (600 GB/s of loads: 1666.7 ns).
    LimiterMachine m{1000e9, 4000e9, 100e9};
    EXPECT_DOUBLE_EQ(dram_in_flight_bytes_per_s(m, 10000, 0), 0); // no curves: no limit
    m.sm_count = 100;
    m.dram_unloaded_latency_s = 500e-9;
    m.dram_in_flight_curves = {
        {0.0, {{10000, 1000e9, 1000e-9}, {20000, 1500e9, 20000 * 100 / 1500e9}}},
        {0.5, {{10000, 1200e9, 10000 * 100 / 600e9}}}};
    // At a measured point its bandwidth; between points the latency is linear in the bytes in
    // flight, from the unloaded latency at none; past the last point the most the mix reached.
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 10000, 0), 1000e9, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 5000, 0), 5000 * 100 / 750e-9, 1e3); // 666.7 GB/s
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 15000, 0),
                15000 * 100 / (1000e-9 + 0.5 * 1000e-9 / 3),
                1e3); // 1285.7 GB/s
    EXPECT_DOUBLE_EQ(dram_in_flight_bytes_per_s(m, 40000, 0), 1500e9);
    // A mix: the loads' Little's law, all bytes over 1 - store fraction (500 + 0.5 x 1166.7 ns
    // at 5000 B: 461.5 GB/s of loads, 923.1 of all bytes); between mixes linear in the store
    // fraction, the nearest mix outside them.
    const double mix_at_5000 = 5000 * 100 / (500e-9 + 0.5 * (10000 * 100 / 600e9 - 500e-9)) / 0.5;
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 5000, 0.5), mix_at_5000, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 10000, 0.25), 1100e9, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 10000, 0.6), 1200e9, 1e3);
    // No loads in flight: no limit.
    EXPECT_DOUBLE_EQ(dram_in_flight_bytes_per_s(m, 0, 0.5), 0);

    // 16 B a point, 8 of them stores, 5000 B of loads in flight an SM: 16 B / 923.1 GB/s =
    // 17.33 ps, over the DRAM's 16 ps: the in-flight limit binds.
    LimiterInputs in;
    in.dram_bytes_per_point = 16;
    in.dram_store_bytes_per_point = 8;
    in.dram_in_flight_phases = {{1.0, 5000}};
    LimiterResult r = evaluate_limiters(in, m, 1000);
    EXPECT_NEAR(r.dram_in_flight_bandwidth_bytes_per_s, mix_at_5000, 1e3);
    EXPECT_NEAR(r.dram_in_flight_seconds_per_point, 16 / mix_at_5000, 1e-24);
    EXPECT_DOUBLE_EQ(r.dram_seconds_per_point, 16e-12);
    EXPECT_EQ(r.binding, Limiter::dram_in_flight);
    EXPECT_STREQ(limiter_name(r.binding), "DRAM in flight");
    // Enough in flight: the mix's most (1200 GB/s, 13.3 ps) is under the DRAM limit.
    in.dram_in_flight_phases = {{1.0, 50000}};
    r = evaluate_limiters(in, m, 1000);
    EXPECT_NEAR(r.dram_in_flight_seconds_per_point, 16 / 1200e9, 1e-24);
    EXPECT_EQ(r.binding, Limiter::dram);
    // The same loads in two barrier phases of 3/4 and 1/4 of the bytes, each phase's in flight
    // alone (3750 and 1250 B): each share of the 16 B moves at its own phase's bandwidth, one
    // after the other, and the kernel's bandwidth is the 16 B over their sum.
    const double at_3750 = dram_in_flight_bytes_per_s(m, 3750, 0.5);
    const double at_1250 = dram_in_flight_bytes_per_s(m, 1250, 0.5);
    in.dram_in_flight_phases = {{0.75, 3750}, {0.25, 1250}};
    r = evaluate_limiters(in, m, 1000);
    ASSERT_EQ(r.dram_in_flight_phase_bytes_per_s.size(), 2u);
    EXPECT_DOUBLE_EQ(r.dram_in_flight_phase_bytes_per_s[0], at_3750);
    EXPECT_DOUBLE_EQ(r.dram_in_flight_phase_bytes_per_s[1], at_1250);
    const double phased_seconds = 12 / at_3750 + 4 / at_1250;
    EXPECT_NEAR(r.dram_in_flight_seconds_per_point, phased_seconds, 1e-24);
    EXPECT_NEAR(r.dram_in_flight_bandwidth_bytes_per_s, 16 / phased_seconds, 1e3);
    // Each phase waits for a latency of its own (937.5 and 645.8 ns, shorter under its smaller
    // load than 5000 B's 1083.3 ns): 25.3 ps a point, 1.46 times 5000 B at once.
    EXPECT_NEAR(phased_seconds, 25.33e-12, 0.01e-12);
    EXPECT_GT(r.dram_in_flight_seconds_per_point, 1.45 * 16 / mix_at_5000);
    EXPECT_EQ(r.binding, Limiter::dram_in_flight);
    // Without the unloaded latency the first point's latency holds below it: 500 GB/s of loads
    // alone at 5000 B.
    m.dram_unloaded_latency_s = 0;
    EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 5000, 0), 500e9, 1e3);
}

TEST(Limiter, HopperFilesCarryTheirInFlightCurves) {
    // lab/measured/{h100,h200}-2026-11-27b/probe-bandwidth-region/run1, replayed: loads alone
    // at 256 threads an SM (16 KiB of loads in flight) reach 2607.2 GB/s on the H100 and 3262.8
    // on the H200; the curves start from the probed unloaded latencies (673.7 and 656.2 cycles).
    for (const auto& [id, gbs, cycles] : {std::tuple{"h100-sxm5-80gb", 2607.2, 673.7},
                                          std::tuple{"h200-sxm-141gb", 3262.8, 656.2}}) {
        SCOPED_TRACE(id);
        const LimiterMachine m = limiter_machine(resolve_machine(id));
        ASSERT_EQ(m.dram_in_flight_curves.size(), 7u); // every mix with loads
        EXPECT_EQ(m.sm_count, 132);
        EXPECT_DOUBLE_EQ(m.dram_unloaded_latency_s, cycles / 1980e6);
        const InFlightPoint& first = m.dram_in_flight_curves.front().points.front();
        EXPECT_DOUBLE_EQ(first.loads_in_flight_bytes_per_sm, 16384);
        EXPECT_DOUBLE_EQ(first.bytes_per_s, gbs * 1e9);
        EXPECT_DOUBLE_EQ(first.latency_s, 16384.0 * 132 / (gbs * 1e9));
        EXPECT_NEAR(dram_in_flight_bytes_per_s(m, 16384, 0), gbs * 1e9, 1e3);
    }
}

TEST(Limiter, HopperFilesCarryTheirMeasuredMixes) {
    // lab/measured/{h100,h200}-2026-11-27/dram-mix/machine-table.txt: 2 loads to 2 stores move
    // 2817.5 GB/s on the H100 and 3920.6 on the H200, where loads alone move 3032.8 and 4515.5.
    const LimiterMachine h100 = limiter_machine(resolve_machine("h100-sxm5-80gb"));
    const LimiterMachine h200 = limiter_machine(resolve_machine("h200-sxm-141gb"));
    EXPECT_EQ(h100.dram_bandwidth_by_store_fraction.size(), 8u);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(h100, 0.5), 2817.5e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(h100, 0.0), 3032.8e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(h200, 0.5), 3920.6e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(h200, 0.0), 4515.5e9);
    // Between 0.4 (2856.6) and 0.5 (2817.5): a star's 8 stored of 19.3 B a point.
    EXPECT_NEAR(dram_bandwidth_bytes_per_s(h100, 0.45), 2837.05e9, 1e3);
    // Files without measured mixes keep the sustained bandwidth as their DRAM limit.
    for (const char* id : {"v100-sxm2-32gb", "h100-pcie-80gb"})
        EXPECT_TRUE(limiter_machine(resolve_machine(id)).dram_bandwidth_by_store_fraction.empty())
            << id;
}

TEST(Limiter, A100AndV100FilesCarryThePublishedGpuStreamTables) {
    // data/published/gpu-benches-stream/a100_40.txt, the row of block size 1024: read 1490,
    // triad 1360, scale 1381 GB/s, init (stores only) 1503; and the row of block size 256 as
    // in-flight points: 2 blocks x 256 threads x 8 B = 4 KiB for read (579 GB/s) and scale
    // (954), x 16 B = 8 KiB for triad (1231).
    const LimiterMachine a100 = limiter_machine(resolve_machine("a100-sxm4-40gb"));
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(a100, 0.0), 1490e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(a100, 0.3333), 1360e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(a100, 0.5), 1381e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(a100, 1.0), 1503e9);
    ASSERT_EQ(a100.dram_in_flight_curves.size(), 3u);
    EXPECT_EQ(a100.dram_in_flight_curves[0].points.size(), 32u);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(a100, 4096, 0.0), 579e9, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(a100, 4096, 0.5), 954e9, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(a100, 8192, 0.3333), 1231e9, 1e3);
    // The 80 GB file's from a100_80.txt: scale 1732 at block size 1024, 1026 at 256.
    const LimiterMachine a100_80 = limiter_machine(resolve_machine("a100-sxm4-80gb"));
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(a100_80, 0.5), 1732e9);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(a100_80, 4096, 0.5), 1026e9, 1e3);
    // The V100 PCIe's from v100.txt (80 SMs): read 866, triad 814, scale 802, init 895 at block
    // size 1024; at 256, 4 KiB of loads in flight reach 490 (read) and 673 GB/s (scale).
    const LimiterMachine v100 = limiter_machine(resolve_machine("v100-pcie-32gb"));
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(v100, 0.0), 866e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(v100, 0.3333), 814e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(v100, 0.5), 802e9);
    EXPECT_DOUBLE_EQ(dram_bandwidth_bytes_per_s(v100, 1.0), 895e9);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(v100, 4096, 0.0), 490e9, 1e3);
    EXPECT_NEAR(dram_in_flight_bytes_per_s(v100, 4096, 0.5), 673e9, 1e3);
}

TEST(Limiter, HopperMixesReplayTheirCommittedMeasurements) {
    // Each entry of the two files' mixed_bandwidth_by_store_fraction is the committed run's
    // best configuration of that store fraction: the unrolled kernel on the largest slices,
    // (load + store bytes) / median of the 5 launch times, rounded to 0.1 GB/s
    // (lab/research/dram_mix.py --machine-table).
    for (const auto& [id, run] :
         {std::pair{"h100-sxm5-80gb", "lab/measured/h100-2026-11-27/dram-mix/run4.jsonl"},
          std::pair{"h200-sxm-141gb", "lab/measured/h200-2026-11-27/dram-mix/run5.jsonl"}}) {
        SCOPED_TRACE(id);
        std::ifstream in(std::string(KERNCAST_SOURCE_DIR) + "/" + run);
        ASSERT_TRUE(in) << run;
        std::vector<nlohmann::json> lines;
        std::int64_t largest_points = 0;
        for (std::string line; std::getline(in, line);) {
            const nlohmann::json row = nlohmann::json::parse(line);
            if (row.contains("kernel") && row.at("kernel") == "unrolled") {
                largest_points = std::max(largest_points, row.at("points").get<std::int64_t>());
                lines.push_back(row);
            }
        }
        std::map<double, double> best_gbs; // store fraction -> GB/s
        for (const auto& row : lines) {
            if (row.at("points") != largest_points)
                continue;
            std::vector<double> ms = row.at("times_ms").get<std::vector<double>>();
            std::sort(ms.begin(), ms.end());
            const double loads = row.at("load_bytes_per_launch"),
                         stores = row.at("store_bytes_per_launch");
            const double fraction = std::round(stores / (loads + stores) * 1e4) / 1e4;
            const double gbs = (loads + stores) / (ms[ms.size() / 2] * 1e-3) / 1e9;
            best_gbs[fraction] = std::max(best_gbs[fraction], gbs);
        }
        const LimiterMachine m = limiter_machine(resolve_machine(id));
        ASSERT_EQ(m.dram_bandwidth_by_store_fraction.size(), best_gbs.size());
        auto measured = best_gbs.begin();
        for (const auto& entry : m.dram_bandwidth_by_store_fraction) {
            EXPECT_DOUBLE_EQ(entry.store_fraction, measured->first);
            EXPECT_NEAR(entry.bytes_per_s / 1e9, measured->second, 0.05 + 1e-9);
            ++measured;
        }
    }
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
