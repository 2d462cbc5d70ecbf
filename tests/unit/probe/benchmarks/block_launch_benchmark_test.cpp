// The block_launch kind: blocks per second and per SM cycle from known series, its errors,
// the device plan on the simulated device, the record's JSON round trip and the machine field
// it fills (compute.block_launches_per_cycle).
#include "../simulated_probe_device.hpp"
#include "kerncast/probe/runner.hpp"
#include "kind_test_support.hpp"

#include <cmath>

namespace kerncast::probe::testing {
namespace {

// The clock benchmark of a GPU at `mhz` (20 ms of spinning, three repetitions).
RawBenchmark clock_at(double mhz) {
    RawBenchmark b;
    b.name = "clock";
    b.kind = "clock";
    b.unit = "ms";
    for (int rep = 0; rep < 3; ++rep) {
        RawSeries s;
        s.repetition = rep;
        s.values = {mhz * 1e3 * 20.0, 20.0};
        b.series.push_back(s);
    }
    return b;
}

// A block_launch benchmark of series [blocks, 32, milliseconds].
RawBenchmark block_launch(const std::vector<std::pair<double, double>>& blocks_and_ms) {
    RawBenchmark b;
    b.name = "block_launch";
    b.kind = "block_launch";
    b.unit = "ms";
    int rep = 0;
    for (const auto& [blocks, ms] : blocks_and_ms) {
        RawSeries s;
        s.repetition = rep++;
        s.values = {blocks, 32, ms};
        b.series.push_back(s);
    }
    return b;
}

// A record of the clock and block_launch benchmarks, block_launch first: the analysis runs
// the clock (a calibration) before it all the same.
ProbeRecord launch_record(std::optional<double> clock_mhz, const RawBenchmark& launches) {
    ProbeRecord record = synthetic_record();
    record.benchmarks = {launches};
    if (clock_mhz)
        record.benchmarks.push_back(clock_at(*clock_mhz));
    return record;
}

TEST(BlockLaunchBenchmark, BlocksOverSecondsOverTheMeasuredClock) {
    // 2^20 blocks in 1.5197 ms at 1380 MHz: 6.8999e8 blocks/s, 0.49999 blocks per cycle.
    const ProbeAnalysis a =
        analyse_probe_record(launch_record(1380, block_launch({{1 << 20, 1.5197}})));
    EXPECT_NEAR(value_of(a, "", "block_launches_per_s"), 1048576 / 1.5197e-3, 1);
    EXPECT_NEAR(value_of(a, "", "block_launches_per_cycle"), 0.5, 1e-5);
    EXPECT_EQ(a.find("", "block_launches_per_cycle")->unit, "blocks/cycle");
    EXPECT_EQ(a.find("", "block_launches_per_cycle")->benchmark, "block_launch");
    EXPECT_TRUE(a.notes.empty());
}

TEST(BlockLaunchBenchmark, MedianOfEveryGridAndRepetition) {
    // 0.25 blocks/cycle at 2000 MHz: 5e8 blocks/s; one repetition slowed by 10 %.
    std::vector<std::pair<double, double>> series;
    for (double blocks : {262144.0, 524288.0, 1048576.0})
        for (double slow : {1.0, 1.0, 1.1})
            series.push_back({blocks, slow * blocks / 5e5});
    const ProbeAnalysis a = analyse_probe_record(launch_record(2000, block_launch(series)));
    const ProbeValue* v = a.find("", "block_launches_per_cycle");
    ASSERT_NE(v, nullptr);
    EXPECT_NEAR(v->estimate.value, 0.25, 1e-12);
    EXPECT_EQ(v->estimate.repetitions, 9);
    EXPECT_TRUE(v->estimate.within_bounds);
}

TEST(BlockLaunchBenchmark, WithoutAMeasuredClockBlocksPerSecondOnly) {
    const ProbeAnalysis a =
        analyse_probe_record(launch_record(std::nullopt, block_launch({{1 << 20, 1.5197}})));
    EXPECT_NEAR(value_of(a, "", "block_launches_per_s"), 1048576 / 1.5197e-3, 1);
    EXPECT_EQ(a.find("", "block_launches_per_cycle"), nullptr);
    ASSERT_EQ(a.notes.size(), 1u);
    EXPECT_EQ(a.notes[0],
              "block_launch: no measured SM clock (clock benchmark), so blocks per second only");
}

TEST(BlockLaunchBenchmark, BadSeriesAreNamedErrors) {
    const auto error_of = [](RawBenchmark b) {
        return analysis_error(launch_record(1380, b), {"clock", "block_launch"});
    };
    RawBenchmark b = block_launch({{1 << 20, 1.5}});
    b.series[0].values = {1 << 20, 1.5};
    EXPECT_EQ(error_of(b), "benchmark \"block_launch\" (kind block_launch): each block_launch "
                           "series holds [blocks, threads_per_block, milliseconds]");
    EXPECT_NE(error_of(block_launch({{1 << 20, 0}})).find("milliseconds must be positive, got 0"),
              std::string::npos);
    EXPECT_NE(error_of(block_launch({{1 << 20, -1}})).find("milliseconds must be positive"),
              std::string::npos);
    EXPECT_NE(error_of(block_launch({{0.5, 1}})).find("blocks must be a whole number"),
              std::string::npos);
    b = block_launch({{1 << 20, 1.5}});
    b.series[0].values[1] = 0;
    EXPECT_NE(error_of(b).find("threads_per_block must be a whole number"), std::string::npos);
    EXPECT_NE(error_of(block_launch({})).find("no series"), std::string::npos);
}

TEST(BlockLaunchBenchmark, ImplausibleRateIsFlaggedAndNotWrittenToTheMachine) {
    // 2^20 blocks in 1 us: 760 blocks per cycle at 1380 MHz -- an optimised-away launch.
    const ProbeAnalysis a =
        analyse_probe_record(launch_record(1380, block_launch({{1 << 20, 1e-3}})));
    const ProbeValue* v = a.find("", "block_launches_per_cycle");
    ASSERT_NE(v, nullptr);
    EXPECT_FALSE(v->estimate.within_bounds);
    EXPECT_FALSE(machine_from_probe(a, "r").compute.block_launches_per_cycle.has_value());
}

TEST(BlockLaunchBenchmark, MachineFieldFromTheProbe) {
    const ProbeAnalysis a =
        analyse_probe_record(launch_record(1380, block_launch({{1 << 20, 1.5197}})));
    const MachineModel m = machine_from_probe(a, "run-3");
    ASSERT_TRUE(m.compute.block_launches_per_cycle.has_value());
    EXPECT_DOUBLE_EQ(m.compute.block_launches_per_cycle->value, 0.499992); // rounded to 1e-6
    EXPECT_EQ(m.compute.block_launches_per_cycle->source, "probe:block_launches_per_cycle");
    const Provenance& source = m.sources.at("probe:block_launches_per_cycle");
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, "run-3");
    EXPECT_NE(source.citation.find("benchmark block_launch"), std::string::npos);
}

TEST(BlockLaunchBenchmark, PlanOnTheSimulatedDevice) {
    SimulatedProbeDevice device;
    ProbeOptions options;
    options.groups = {"launch"};
    const ProbeRecord record = run_probe_on(device, options);
    const RawBenchmark* b = record.benchmark("block_launch");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->kind, "block_launch");
    ASSERT_EQ(b->series.size(), 9u); // 3 repetitions x 3 grids
    for (std::size_t k = 0; k < b->series.size(); ++k) {
        const RawSeries& s = b->series[k];
        EXPECT_EQ(s.repetition, static_cast<int>(k / 3));
        EXPECT_EQ(s.values[0], double(1 << (18 + k % 3)));
        EXPECT_EQ(s.values[1], 32);
    }
    // The median series is the 2^19-block grid; its 5 us launch time is not amortised away.
    const double run_ms = 524288 / (0.5 * 1755e3);
    const ProbeAnalysis a = analyse_probe_record(record);
    EXPECT_NEAR(value_of(a, "", "block_launches_per_cycle"),
                0.5 * run_ms / (run_ms + device.launch_ms), 1e-9);
}

TEST(BlockLaunchBenchmark, RecordRoundTripsThroughRawJson) {
    SimulatedProbeDevice device;
    device.block_launches_per_cycle = 2.0;
    ProbeOptions options;
    options.groups = {"launch"};
    const ProbeRecord record = run_probe_on(device, options);
    const ProbeRecord parsed = parse_probe_record(format_probe_record(record), "raw.json");
    ASSERT_NE(parsed.benchmark("block_launch"), nullptr);
    EXPECT_EQ(*parsed.benchmark("block_launch"), *record.benchmark("block_launch"));
    EXPECT_NEAR(value_of(analyse_probe_record(parsed), "", "block_launches_per_cycle"),
                value_of(analyse_probe_record(record), "", "block_launches_per_cycle"), 1e-9);
}

TEST(BlockLaunchBenchmark, RegisteredAsAMeasurement) {
    ASSERT_NE(find_benchmark_kind("block_launch"), nullptr);
    EXPECT_EQ(find_benchmark_kind("block_launch")->pass, AnalysisPass::measurement);
}

} // namespace
} // namespace kerncast::probe::testing
