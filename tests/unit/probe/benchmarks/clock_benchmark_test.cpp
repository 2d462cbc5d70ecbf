#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(ClockBenchmark, ClockIsCyclesOverEventTime) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"clock"});
    EXPECT_NEAR(value_of(a, "", "sm_clock_mhz"), truth.sm_clock_mhz, 2);
}

TEST(ClockBenchmark, OverheadIsTheMedianStepPerMemory) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"overhead"});
    EXPECT_DOUBLE_EQ(value_of(a, "", "overhead_cycles"), truth.overhead_cycles);
}

TEST(ClockBenchmark, ClockSeriesMustHoldCyclesAndMilliseconds) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "clock").series.front().values = {1.0};
    EXPECT_NE(analysis_error(record, {"clock"}).find("[cycles, milliseconds]"), std::string::npos);
}

TEST(ClockBenchmark, RegisteredAsCalibrations) {
    EXPECT_EQ(find_benchmark_kind("clock")->pass, AnalysisPass::calibration);
    EXPECT_EQ(find_benchmark_kind("overhead")->pass, AnalysisPass::calibration);
}

} // namespace
} // namespace kerncast::probe::testing
