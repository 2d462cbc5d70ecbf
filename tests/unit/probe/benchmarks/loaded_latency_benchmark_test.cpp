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
    ASSERT_EQ(a.values.size(), truth.dram_loaded.size());
    for (std::size_t k = 0; k < a.values.size(); ++k) {
        const auto& [label, blocks, gbs, cycles] = truth.dram_loaded[k];
        const ProbeValue& v = a.values[k];
        EXPECT_EQ(v.memory, "dram");
        EXPECT_EQ(v.quantity, "loaded_latency_cycles");
        EXPECT_EQ(v.unit, "cycles");
        EXPECT_EQ(v.benchmark, "dram.loaded_latency");
        EXPECT_EQ(v.store_fraction, label == "1:0" ? 0.0 : 0.5) << k;
        EXPECT_DOUBLE_EQ(v.estimate.value, cycles - truth.overhead_cycles) << k;
        EXPECT_EQ(v.estimate.repetitions, 3);
        // The bytes are rounded to whole bytes: within 1e-6 relative.
        EXPECT_NEAR(v.bandwidth_gbs, gbs, gbs * 1e-6 + 1e-9) << k;
    }
    EXPECT_EQ(a.values[2].detail, "while 528 blocks x 64 threads streamed loads at 2900.0 GB/s "
                                  "(median of 3); minus 8 cycles overhead (common overhead)");
    EXPECT_EQ(a.values[3].detail,
              "nothing streaming beside it; minus 8 cycles overhead (common overhead)");
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
        change(benchmark_named(record, "dram.loaded_latency").series[4]);
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
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.loaded_latency").unit = "ms";
    EXPECT_NE(analysis_error(record, {"loaded_latency"}).find("in cycles"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
