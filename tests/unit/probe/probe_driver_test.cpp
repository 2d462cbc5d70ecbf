#include "kerncast/machine/validate.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/runner.hpp"
#include "simulated_probe_device.hpp"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <utility>

namespace kerncast::probe {
namespace {

std::vector<std::string> names_of(const ProbeRecord& record) {
    std::vector<std::string> names;
    for (const auto& b : record.benchmarks)
        names.push_back(b.name);
    return names;
}

// The mixed bandwidths the analysis found for `memory`, by store fraction.
std::map<double, double> mixed_bandwidths(const ProbeAnalysis& a, const std::string& memory) {
    std::map<double, double> found;
    for (const auto& v : a.values)
        if (v.memory == memory && v.quantity == "mixed_bandwidth_gbs")
            found[v.store_fraction] = v.estimate.value;
    return found;
}

ProbeOptions options_for(std::vector<std::string> groups) {
    ProbeOptions options;
    options.groups = std::move(groups);
    options.repetitions = 1;
    options.command = "kerncast probe";
    return options;
}

TEST(ProbeDriver, GroupsRecordTheirBenchmarksInDocumentedOrder) {
    testing::SimulatedProbeDevice device;
    const ProbeRecord record =
        run_probe_on(device, options_for({"l1", "constant", "shared", "sharing", "mwp"}));
    EXPECT_EQ(names_of(record), (std::vector<std::string>{"clock",
                                                          "overhead",
                                                          "l1.caching",
                                                          "l1.size",
                                                          "l1.line",
                                                          "l1.latency",
                                                          "l1.tag_line",
                                                          "constant_l1.size",
                                                          "constant_l15.size",
                                                          "constant_l1.latency",
                                                          "constant_l15.latency",
                                                          "constant_l1.line",
                                                          "shared.latency",
                                                          "shared.overhead",
                                                          "sharing.l1.texture",
                                                          "sharing.l1.readonly",
                                                          "sharing.texture.readonly",
                                                          "texture.count_per_sm",
                                                          "dram.departure.coalesced",
                                                          "dram.departure.uncoalesced",
                                                          "sm.issue_rate",
                                                          "dram.latency"}));
    EXPECT_EQ(record.device.name, "Simulated GPU");
    EXPECT_EQ(record.command, "kerncast probe");
    EXPECT_EQ(device.carveout_percent, 0);
}

TEST(ProbeDriver, AnalysisOfTheRecordRecoversTheSimulatedCaches) {
    testing::SimulatedProbeDevice device;
    const ProbeRecord record = run_probe_on(device, options_for({"l1", "constant", "shared"}));
    const ProbeAnalysis a = analyse_probe_record(record);
    ASSERT_NE(a.find("l1", "size_bytes"), nullptr);
    EXPECT_EQ(a.find("l1", "size_bytes")->estimate.value, device.l1.capacity_bytes);
    ASSERT_NE(a.find("l1", "line_bytes"), nullptr);
    EXPECT_EQ(a.find("l1", "line_bytes")->estimate.value, device.l1.sector_bytes);
    ASSERT_NE(a.find("l1", "tag_line_bytes"), nullptr);
    EXPECT_EQ(a.find("l1", "tag_line_bytes")->estimate.value, device.l1.line_bytes);
    ASSERT_NE(a.find("constant_l1", "size_bytes"), nullptr);
    EXPECT_EQ(a.find("constant_l1", "size_bytes")->estimate.value,
              device.constant_l1.capacity_bytes);
    ASSERT_NE(a.find("", "sm_clock_mhz"), nullptr);
    EXPECT_NEAR(a.find("", "sm_clock_mhz")->estimate.value, 1755, 1e-6);
    ASSERT_NE(a.find("l1", "latency_cycles"), nullptr);
    EXPECT_DOUBLE_EQ(a.find("l1", "latency_cycles")->estimate.value, 41 - 8);
}

TEST(ProbeDriver, RecordRoundTripsThroughRawJson) {
    testing::SimulatedProbeDevice device;
    const ProbeRecord record = run_probe_on(device, options_for({"bandwidth", "mwp"}));
    const std::string text = format_probe_record(record);
    EXPECT_EQ(format_probe_record(parse_probe_record(text, "raw.json")), text);
    const ProbeAnalysis a = analyse_probe_record(record);
    ASSERT_NE(a.find("", "departure_del_coal_cycles"), nullptr);
    EXPECT_NEAR(a.find("", "departure_del_coal_cycles")->estimate.value, 4, 1e-9);
    EXPECT_NEAR(a.find("", "departure_del_uncoal_cycles")->estimate.value, 10, 1e-9);
    // The simulated device allows 64 threads a block: two warps, one instruction a cycle each,
    // which the analysis says is not saturated.
    ASSERT_NE(a.find("", "issue_cycles"), nullptr);
    EXPECT_NEAR(a.find("", "issue_cycles")->estimate.value, 0.5, 1e-9);
    EXPECT_EQ(a.find("", "issue_cycles")->estimate.confidence, Confidence::low);
    EXPECT_NE(a.find("", "issue_cycles")->estimate.note.find("not saturated"), std::string::npos);
    ASSERT_NE(a.find("dram", "load_bandwidth_gbs"), nullptr);
}

// The bandwidth group's DRAM streams run in a region of their own (half the free memory over 5
// slices, at most 1 GiB each), which it releases: loads and stores alone over the whole region,
// every load/store mix over slices of it; the analysis finds each mix's bandwidth at its store
// fraction.
TEST(ProbeDriver, DramStreamsRunOverTheirOwnRegion) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = std::int64_t{4} << 30; // slices of 4 GiB / 2 / 5 = 409 MiB
    device.mix_gbs = {{0.0, 3000}, {0.5, 2800}, {1.0, 3100}};
    const ProbeRecord record = run_probe_on(device, options_for({"bandwidth"}));
    EXPECT_EQ(device.stream_regions, 2);      // the DRAM streams', then the L2 mixes'
    EXPECT_EQ(device.stream_region_bytes, 0); // released
    const std::int64_t slice_count = std::int64_t{409} * 1024 * 1024 / 16;
    // 8 mixes x 14 launch shapes (12, and one block an SM of 64 and 128 threads) x (a warm-up
    // and 5 timed launches), then the L2's.
    ASSERT_GE(device.mix_launches.size(), 8u * 14u * 6u);
    std::set<std::pair<int, int>> mixes;
    for (std::size_t i = 0; i < 8u * 14u * 6u; ++i) {
        const StreamLaunch& launch = device.mix_launches[i];
        EXPECT_EQ(static_cast<std::int64_t>(launch.count), slice_count);
        EXPECT_EQ(launch.passes, 1);
        mixes.insert({launch.loads, launch.stores});
    }
    EXPECT_EQ(mixes, (std::set<std::pair<int, int>>{
                         {1, 0}, {4, 1}, {3, 1}, {2, 1}, {3, 2}, {1, 1}, {1, 2}, {0, 1}}));
    const RawBenchmark* b = record.benchmark("dram.mixed_bandwidth");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->series.front().label, "1:0");
    EXPECT_EQ(b->series.front().bytes, slice_count * 16);
    EXPECT_EQ(b->series.back().label, "0:1");
    // Loads and stores alone: 2 x 12 launch shapes x 6 launches over the 5 slices.
    ASSERT_EQ(device.region_launches.size(), 2u * 12u * 6u);
    for (const auto& launch : device.region_launches) {
        EXPECT_TRUE(launch.kernel == StreamKernel::read_stream ||
                    launch.kernel == StreamKernel::write_stream);
        EXPECT_EQ(static_cast<std::int64_t>(launch.count), 5 * slice_count);
    }
    const RawBenchmark* loads = record.benchmark("dram.load_bandwidth");
    ASSERT_NE(loads, nullptr);
    EXPECT_EQ(loads->series.front().bytes, 5 * slice_count * 16);
    const ProbeAnalysis a = analyse_probe_record(record);
    const std::map<double, double> found = mixed_bandwidths(a, "dram");
    EXPECT_NEAR(found.at(0.0), 3000, 1e-6);
    EXPECT_NEAR(found.at(0.5), 2800, 1e-6);
    EXPECT_NEAR(found.at(1.0), 3100, 1e-6);
    EXPECT_NEAR(found.at(0.2), 1000, 1e-6); // not set: the simulated default
    // The bandwidth by loads in flight: the launches of one block an SM (64 to 1024 threads;
    // the simulated device reaches its mix's bandwidth with 1024 only, 1 / 1.25 of it below)
    // of every mix with loads, at threads x loads x 4 steps x 16 B an SM.
    const MachineModel machine = machine_from_probe(a, "simulated");
    const MemoryLevel* dram = machine.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->bandwidth_by_loads_in_flight);
    const auto& curve = dram->bandwidth_by_loads_in_flight->value;
    ASSERT_EQ(curve.size(), 7u * 5u);
    EXPECT_EQ(curve[0], (InFlightBandwidth{0.0, 64 * 64, 2400}));
    EXPECT_EQ(curve[1], (InFlightBandwidth{0.0, 128 * 64, 2400}));
    EXPECT_EQ(curve[3], (InFlightBandwidth{0.0, 512 * 64, 2400}));
    EXPECT_EQ(curve[4], (InFlightBandwidth{0.0, 1024 * 64, 3000}));
    EXPECT_EQ(curve[9], (InFlightBandwidth{0.2, 1024 * 4 * 64, 1000})); // 4:1
    EXPECT_EQ(curve[29], (InFlightBandwidth{0.5, 1024 * 64, 2800}));
    EXPECT_DOUBLE_EQ(curve.back().store_fraction, 0.6667); // 1:2; stores alone keep none
}

// The L2's mixes: after the L2 load and store streams, every mix over 5 slices that fill a
// quarter of L2 (the simulated 2 MiB: 104848 B each), 100 / (loads + stores) passes a launch so
// that each launch moves about 5 x the L2, 9 launch shapes; the analysis finds each mix's
// bandwidth at its store fraction on the l2 level, and the machine file gets the l2 table.
TEST(ProbeDriver, L2MixesStayInAQuarterOfL2) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = std::int64_t{4} << 30;
    device.l2_mix_gbs = {{0.0, 4000}, {0.2, 4600}, {0.5, 3000}, {1.0, 2000}};
    const ProbeRecord record = run_probe_on(device, options_for({"bandwidth"}));
    const std::int64_t slice_bytes = (2 << 20) / 4 / 5 / 16 * 16;
    ASSERT_EQ(device.mix_launches.size(), 8u * 14u * 6u + 8u * 9u * 6u);
    std::map<std::pair<int, int>, int> passes;
    for (std::size_t i = 8u * 14u * 6u; i < device.mix_launches.size(); ++i) {
        const StreamLaunch& launch = device.mix_launches[i];
        EXPECT_EQ(static_cast<std::int64_t>(launch.count) * 16, slice_bytes);
        passes[{launch.loads, launch.stores}] = launch.passes;
    }
    EXPECT_EQ(passes, (std::map<std::pair<int, int>, int>{{{1, 0}, 100},
                                                          {{4, 1}, 20},
                                                          {{3, 1}, 25},
                                                          {{2, 1}, 33},
                                                          {{3, 2}, 20},
                                                          {{1, 1}, 50},
                                                          {{1, 2}, 33},
                                                          {{0, 1}, 100}}));
    const RawBenchmark* b = record.benchmark("l2.mixed_bandwidth");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->memory, "l2");
    EXPECT_EQ(b->series.size(), 8u * 9u);
    EXPECT_EQ(b->series.front().label, "1:0");
    EXPECT_EQ(b->series.front().bytes, slice_bytes * 100);
    const ProbeAnalysis a = analyse_probe_record(record);
    const std::map<double, double> found = mixed_bandwidths(a, "l2");
    EXPECT_NEAR(found.at(0.0), 4000, 1e-6);
    EXPECT_NEAR(found.at(0.2), 4600, 1e-6);
    EXPECT_NEAR(found.at(0.5), 3000, 1e-6);
    EXPECT_NEAR(found.at(1.0), 2000, 1e-6);
    EXPECT_NEAR(found.at(0.25), 4000, 1e-6); // not set: the simulated default
    const MachineModel machine = machine_from_probe(a, "simulated");
    const MemoryLevel* l2 = machine.level("l2");
    ASSERT_NE(l2, nullptr);
    ASSERT_TRUE(l2->mixed_bandwidth_by_store_fraction);
    const auto& table = l2->mixed_bandwidth_by_store_fraction->value;
    ASSERT_EQ(table.size(), 8u);
    EXPECT_DOUBLE_EQ(table[1].store_fraction, 0.2);
    EXPECT_DOUBLE_EQ(table[1].bandwidth_gbs, 4600);
}

// Below 640 MiB free: DRAM loads and stores alone over the probe buffer, no DRAM mixes (the L2's
// run in a region of a quarter of L2).
TEST(ProbeDriver, DramStreamsWithoutFreeMemoryUseTheProbeBuffer) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = std::int64_t{600} << 20;
    const ProbeRecord record = run_probe_on(device, options_for({"bandwidth"}));
    EXPECT_EQ(device.stream_regions, 1); // the L2 mixes' (a quarter of L2), not the DRAM's
    EXPECT_TRUE(device.region_launches.empty());
    EXPECT_EQ(record.benchmark("dram.mixed_bandwidth"), nullptr);
    ASSERT_NE(record.benchmark("dram.load_bandwidth"), nullptr);
    ASSERT_NE(record.benchmark("dram.store_bandwidth"), nullptr);
}

TEST(ProbeDriver, CarveoutSearchesOnePerDistinctCarveoutAndRestoreTheRequestedOne) {
    testing::SimulatedProbeDevice device;
    ProbeOptions options = options_for({"carveout"});
    options.carveout_percent = 25;
    const ProbeRecord record = run_probe_on(device, options);
    std::vector<std::string> names = names_of(record);
    ASSERT_GE(names.size(), 5U);
    EXPECT_EQ(names[2].rfind("l1.size.carveout_", 0), 0U) << names[2];
    for (const auto& b : record.benchmarks) {
        if (b.kind == "size") {
            EXPECT_GE(b.carveout_percent, 0) << b.name;
        }
    }
    EXPECT_EQ(device.carveout_percent, 25);
}

TEST(ProbeDriver, EveryGroupRunsAndItsRecordIsAnalysed) {
    testing::SimulatedProbeDevice device;
    const ProbeRecord record = run_probe_on(device, options_for(probe_groups()));
    std::set<std::string> kinds;
    for (const auto& b : record.benchmarks)
        kinds.insert(b.kind);
    EXPECT_EQ(kinds, (std::set<std::string>{
                         "clock", "overhead", "caching", "size", "line", "tag_line", "latency",
                         "sharing", "count_per_sm", "departure", "issue_rate", "l2_partition",
                         "bandwidth", "mixed_bandwidth", "loaded_latency", "tlb", "block_launch"}));
    EXPECT_NO_THROW(analyse_probe_record(record));
}

// The dram group times the dram latency chain under load: the chain built (random over 4x L2,
// the simulated 2 MiB) and evicted once, then 2 mixes x 11 loads (0..31 blocks of 64 threads an
// SM; the simulated SM holds 32) x 3 repetitions, each chase going on where the last stopped,
// over two slices of the stream region (half the free memory over 2, at most 1 GiB), which is
// released. The machine gets the curve sorted by store fraction and bandwidth, latency minus
// the chase overhead (8 cycles), and the hop-by-hop chase's standard deviation.
TEST(ProbeDriver, DramGroupTimesTheChaseUnderLoad) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = std::int64_t{2} << 30; // slices of 2 GiB / 2 / 2 = 512 MiB
    ProbeOptions options = options_for({"dram"});
    options.repetitions = 3;
    const ProbeRecord record = run_probe_on(device, options);
    EXPECT_EQ(device.stream_regions, 1);
    EXPECT_EQ(device.stream_region_bytes, 0); // released
    ASSERT_EQ(device.loaded_chases.size(), 2u * 11u * 3u);
    std::uint32_t start = device.loaded_chases.front().start;
    std::set<std::pair<int, int>> loads;
    for (const auto& chase : device.loaded_chases) {
        EXPECT_EQ(chase.start, start);
        start += 2048 + 1024;
        EXPECT_EQ(chase.iterations, 2048u);
        EXPECT_EQ(chase.hop_iterations, 1024u);
        EXPECT_EQ(chase.stream_threads, 64);
        EXPECT_EQ(chase.slice_count, std::size_t{512} * 1024 * 1024 / 16);
        EXPECT_EQ(chase.stream_blocks % 4, 0); // 4 simulated SMs
        loads.insert({chase.stores, chase.stream_blocks / 4});
    }
    EXPECT_EQ(loads.size(), 22u);
    EXPECT_TRUE(loads.count({1, 31}));
    const RawBenchmark* b = record.benchmark("dram.loaded_latency");
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->series.size(), 132u); // a launch's series, then its hop-by-hop series
    EXPECT_EQ(b->series.front().label, "1:0");
    EXPECT_EQ(b->series[1].label, "1:0 hops");
    EXPECT_EQ(b->series[1].values.size(), 1024u);
    EXPECT_EQ(b->series.back().label, "1:1 hops");
    EXPECT_EQ(b->series.back().blocks, 124);
    const MachineModel m = machine_from_probe(analyse_probe_record(record), "run");
    const MemoryLevel* dram = m.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->latency_under_load);
    const auto& curve = dram->latency_under_load->value;
    ASSERT_EQ(curve.size(), 22u);
    // Loads alone, nothing streaming: the unloaded 488 cycles less 8 of overhead.
    EXPECT_EQ(curve.front().store_fraction, 0);
    EXPECT_EQ(curve.front().bandwidth_gbs, 0);
    EXPECT_DOUBLE_EQ(curve.front().latency_cycles, 480);
    EXPECT_DOUBLE_EQ(curve.front().latency_stddev_cycles, 40); // +-40 in turn, unloaded
    // A store a load at 31 blocks an SM: 124 / 132 of 800 GB/s, 488 (1 + 2 x 124 / 132) - 8.
    EXPECT_EQ(curve.back().store_fraction, 0.5);
    EXPECT_NEAR(curve.back().bandwidth_gbs, 800.0 * 124 / 132, 0.06);
    EXPECT_NEAR(curve.back().latency_cycles, 488 * (1 + 2.0 * 124 / 132) - 8, 0.06);
    EXPECT_NEAR(curve.back().latency_stddev_cycles, 40 + 100.0 * 124 / 132, 0.06);
    for (std::size_t k = 1; k < curve.size(); ++k)
        if (curve[k].store_fraction == curve[k - 1].store_fraction) {
            EXPECT_GT(curve[k].bandwidth_gbs, curve[k - 1].bandwidth_gbs) << k;
            EXPECT_GT(curve[k].latency_cycles, curve[k - 1].latency_cycles) << k;
        }
    EXPECT_NO_THROW(validate_machine(m, "probed machine"));
}

TEST(ProbeDriver, TlbSkippedWithoutFreeMemory) {
    testing::SimulatedProbeDevice device;
    device.free_bytes = 64 << 20;
    std::vector<std::string> progress;
    ProbeOptions options = options_for({"tlb"});
    options.progress = [&](const std::string& line) { progress.push_back(line); };
    const ProbeRecord record = run_probe_on(device, options);
    EXPECT_EQ(names_of(record), (std::vector<std::string>{"clock", "overhead"}));
    bool skipped = false;
    for (const auto& line : progress)
        skipped |= line.find("tlb: less than 64 MiB") != std::string::npos;
    EXPECT_TRUE(skipped);
}

} // namespace
} // namespace kerncast::probe
