#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(LineBenchmark, LineIsTheMissSpacing) {
    // In the sectored L1 misses recur every sector.
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"line"});
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), truth.l1_sector_bytes);
}

TEST(LineBenchmark, OtherLineSizeIsFound) {
    SyntheticTruth truth;
    truth.l1_sector_bytes = 64;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"line"});
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), 64);
}

TEST(LineBenchmark, SeriesNeedAStride) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "l1.line").series.front().stride_bytes = 0;
    EXPECT_NE(analysis_error(record, {"line"}).find("stride_bytes > 0"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
