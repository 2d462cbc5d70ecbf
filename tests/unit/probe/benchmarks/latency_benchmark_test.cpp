#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(LatencyBenchmark, LatencySubtractsTheOverhead) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"overhead", "latency"});
    EXPECT_NEAR(value_of(a, "l1", "latency_cycles"), truth.l1_hit_cycles, 0.25);
    EXPECT_NEAR(value_of(a, "dram", "latency_cycles"), truth.dram_cycles, 0.25);
    EXPECT_NE(a.find("l1", "latency_cycles")->detail.find("common overhead"), std::string::npos);
}

TEST(LatencyBenchmark, WithoutOverheadNothingIsSubtracted) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"latency"});
    EXPECT_NEAR(value_of(a, "l1", "latency_cycles"), truth.l1_hit_cycles + truth.overhead_cycles,
                0.25);
    EXPECT_NE(a.find("l1", "latency_cycles")->detail.find("none recorded"), std::string::npos);
}

TEST(LatencyBenchmark, NoSeriesIsAnError) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "l1.latency").series.clear();
    EXPECT_NE(analysis_error(record, {"latency"}).find("no series"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
