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
