#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(DepartureBenchmark, DelayIsTheSlopeOverWarps) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"departure"});
    EXPECT_NEAR(value_of(a, "", "departure_del_coal_cycles"), truth.departure_coal, 1e-9);
    // Uncoalesced: per transaction, one per thread of the warp (Hong & Kim eq. 15).
    EXPECT_NEAR(value_of(a, "", "departure_del_uncoal_cycles"), truth.departure_uncoal, 1e-9);
}

TEST(DepartureBenchmark, EachWarpCountTakesItsFastestLaunch) {
    // Later launches slowed by a refresh or a row miss (up to 300 cycles) leave the slope of
    // the fastest ones: the minimum departure distance of Hong & Kim sec. 3.3.1.
    const SyntheticTruth truth;
    ProbeRecord record = synthetic_record(truth);
    for (const char* name : {"dram.departure.coalesced", "dram.departure.uncoalesced"}) {
        int k = 0;
        for (auto& series : benchmark_named(record, name).series) {
            const double fastest = series.values.at(0);
            series.values = {fastest + 300.0 * (k % 3), fastest + 17, fastest, fastest + 240};
            ++k;
        }
    }
    const ProbeAnalysis a = analyse_kinds(record, {"departure"});
    EXPECT_NEAR(value_of(a, "", "departure_del_coal_cycles"), truth.departure_coal, 1e-9);
    EXPECT_NEAR(value_of(a, "", "departure_del_uncoal_cycles"), truth.departure_uncoal, 1e-9);
    const ProbeValue* coal = a.find("", "departure_del_coal_cycles");
    ASSERT_NE(coal, nullptr);
    EXPECT_EQ(coal->estimate.confidence, Confidence::high); // an exact line
    EXPECT_NE(coal->detail.find("fastest of 4 launches each"), std::string::npos);
}

TEST(DepartureBenchmark, AScatteredSlopeIsLowWithItsStandardError) {
    ProbeRecord record = synthetic_record();
    const std::vector<double> scattered{600, 900, 640, 1000, 700};
    auto& series = benchmark_named(record, "dram.departure.coalesced").series;
    ASSERT_EQ(series.size(), scattered.size());
    for (std::size_t k = 0; k < series.size(); ++k)
        series[k].values = {scattered[k]};
    const ProbeAnalysis a = analyse_kinds(record, {"departure"});
    const ProbeValue* coal = a.find("", "departure_del_coal_cycles");
    ASSERT_NE(coal, nullptr);
    EXPECT_EQ(coal->estimate.confidence, Confidence::low);
    EXPECT_NE(coal->estimate.note.find("standard error"), std::string::npos);
}

TEST(DepartureBenchmark, RunsAfterTheMeasurements) {
    EXPECT_EQ(find_benchmark_kind("departure")->pass, AnalysisPass::derived);
}

TEST(DepartureBenchmark, NeedsThreeWarpCounts) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.departure.coalesced").series.resize(2);
    EXPECT_NE(analysis_error(record, {"departure"}).find("three warp counts"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
