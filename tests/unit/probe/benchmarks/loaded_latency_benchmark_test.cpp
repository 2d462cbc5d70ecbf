#include "kerncast/probe/analysis.hpp"
#include "kind_test_support.hpp"

#include <string>
#include <tuple>
#include <vector>

namespace kerncast::probe::testing {
namespace {

// One value per (mix, streaming blocks): the median chase cycles minus the overhead (8), at the
// median of the repetitions' bandwidths (bytes over the chase's milliseconds), in the map order
// of store fraction and blocks.
TEST(LoadedLatencyBenchmark, OneValuePerMixAndLoadAtTheStreamedBandwidth) {
    const SyntheticTruth truth;
    const ProbeRecord record = synthetic_record(truth);
    const AnalysisOptions options;
    ProbeAnalysis a;
    AnalysisContext context(record, options, a);
    context.overheads[""] = truth.overhead_cycles; // as the overhead kind would set it
    find_benchmark_kind("loaded_latency")
        ->analyse(*record.benchmark("dram.loaded_latency"), context);
    // A latency and, from the hop-by-hop series, its spread for each point.
    ASSERT_EQ(a.values.size(), 2 * truth.dram_loaded.size());
    for (std::size_t k = 0; k < truth.dram_loaded.size(); ++k) {
        const auto& [label, blocks, gbs, cycles, stddev] = truth.dram_loaded[k];
        const ProbeValue& v = a.values[2 * k];
        EXPECT_EQ(v.memory, "dram");
        EXPECT_EQ(v.quantity, "loaded_latency_cycles");
        EXPECT_EQ(v.unit, "cycles");
        EXPECT_EQ(v.benchmark, "dram.loaded_latency");
        EXPECT_EQ(v.store_fraction, label == "1:0" ? 0.0 : 0.5) << k;
        EXPECT_DOUBLE_EQ(v.estimate.value, cycles - truth.overhead_cycles) << k;
        EXPECT_EQ(v.estimate.repetitions, 3);
        // The bytes are rounded to whole bytes: within 1e-6 relative.
        EXPECT_NEAR(v.bandwidth_gbs, gbs, gbs * 1e-6 + 1e-9) << k;
        // The spread: the median of the repetitions' standard deviations (+0, +1, -1), which
        // the hops' common offset does not enter.
        const ProbeValue& spread = a.values[2 * k + 1];
        EXPECT_EQ(spread.quantity, "loaded_latency_stddev_cycles");
        EXPECT_EQ(spread.store_fraction, v.store_fraction);
        EXPECT_EQ(spread.bandwidth_gbs, v.bandwidth_gbs);
        EXPECT_NEAR(spread.estimate.value, stddev, 1e-9) << k;
        EXPECT_NEAR(spread.estimate.spread, 1, 1e-9) << k;
    }
    EXPECT_EQ(a.values[4].detail, "while 528 blocks x 64 threads streamed loads at 2900.0 GB/s "
                                  "(median of 3); minus 8 cycles overhead (common overhead)");
    EXPECT_EQ(a.values[6].detail,
              "nothing streaming beside it; minus 8 cycles overhead (common overhead)");
    EXPECT_EQ(a.values[7].detail, "standard deviation of 16 hops timed one by one, median of 3");
}

TEST(LoadedLatencyBenchmark, SeriesMustBeAMixWithCyclesAndMilliseconds) {
    for (const char* label : {"", "2:1", "1:2", "0:1", "loads"}) {
        ProbeRecord record = synthetic_record();
        benchmark_named(record, "dram.loaded_latency").series.front().label = label;
        const std::string error = analysis_error(record, {"loaded_latency"});
        EXPECT_NE(error.find("dram.loaded_latency"), std::string::npos) << error;
        EXPECT_NE(error.find("is not a mix \"1:0\" or \"1:1\""), std::string::npos)
            << label << ": " << error;
    }
    const auto broken = [](auto change) {
        ProbeRecord record = synthetic_record();
        change(benchmark_named(record, "dram.loaded_latency").series[6]);
        return analysis_error(record, {"loaded_latency"});
    };
    for (const std::string& error :
         {broken([](RawSeries& s) { s.values = {600}; }),
          broken([](RawSeries& s) { s.values[1] = 0; }),
          broken([](RawSeries& s) { s.threads = 0; }), broken([](RawSeries& s) { s.bytes = -1; })})
        EXPECT_NE(error.find("mix 1:0, 132 blocks: a series holds [cycles per load, chase "
                             "milliseconds > 0]"),
                  std::string::npos)
            << error;
    // A hop-by-hop series needs two hops and its launch's series.
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.loaded_latency").series[1].values = {500};
    EXPECT_NE(analysis_error(record, {"loaded_latency"})
                  .find("1:0 hops, 0 blocks: a hop-by-hop series needs at least two hops"),
              std::string::npos);
    record = synthetic_record();
    benchmark_named(record, "dram.loaded_latency").series[1].blocks = 7;
    EXPECT_NE(analysis_error(record, {"loaded_latency"})
                  .find("hop-by-hop series of 7 blocks x 0 threads without their launch's "
                        "series"),
              std::string::npos);
    record = synthetic_record();
    benchmark_named(record, "dram.loaded_latency").unit = "ms";
    EXPECT_NE(analysis_error(record, {"loaded_latency"}).find("in cycles"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
