#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(TlbBenchmark, LevelsPageSizeAndMissLatencies) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"tlb"});
    EXPECT_EQ(value_of(a, "l1_tlb", "reach_bytes"), truth.l1_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(value_of(a, "l2_tlb", "reach_bytes"), truth.l2_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(value_of(a, "l1_tlb", "page_bytes"), truth.tlb_page_bytes);
    EXPECT_NEAR(value_of(a, "l1_tlb", "miss_latency_cycles"), truth.l1_tlb_miss_cycles, 3);
    EXPECT_NEAR(value_of(a, "l2_tlb", "miss_latency_cycles"), truth.l2_tlb_miss_cycles, 3);
    EXPECT_TRUE(a.notes.empty());
}

TEST(TlbBenchmark, RepeatedFootprintIsAnError) {
    ProbeRecord record = synthetic_record();
    auto& b = benchmark_named(record, "tlb");
    b.series.push_back(b.series.front());
    EXPECT_NE(analysis_error(record, {"tlb"}).find("appears twice"), std::string::npos);
}

TEST(TlbBenchmark, SeriesNeedStrideAndFootprint) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "tlb").series.front().stride_bytes = 0;
    EXPECT_NE(analysis_error(record, {"tlb"}).find("stride_bytes > 0"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
