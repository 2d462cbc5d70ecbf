#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(SizeBenchmark, SizeIsTheVerifiedChangePoint) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"size"});
    EXPECT_EQ(value_of(a, "l1", "size_bytes"), truth.l1_bytes);
    EXPECT_EQ(value_of(a, "constant_l1", "size_bytes"), truth.constant_l1_bytes);
    EXPECT_EQ(a.find("l1", "size_bytes")->estimate.repetitions, 3);
    // One latency curve per repetition of every size search, with its change point.
    ASSERT_FALSE(a.latency_curves.empty());
    EXPECT_TRUE(a.latency_curves.front().change_point_bytes.has_value());
}

TEST(SizeBenchmark, ForcedCarveoutNamesTheClaimedSharedMemory) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"size"});
    EXPECT_EQ(value_of(a, "l1", "size_bytes:shared_228KiB"), truth.l1_bytes_at_largest_carveout);
    EXPECT_EQ(a.find("l1", "size_bytes:shared_228KiB")->carveout_shared_kib, 228);
}

TEST(SizeBenchmark, NoChangeInTheSweepIsANote) {
    SyntheticTruth truth;
    truth.l1_bytes = 512 * 1024;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"size"});
    EXPECT_EQ(a.find("l1", "size_bytes"), nullptr);
    ASSERT_FALSE(a.notes.empty());
    EXPECT_NE(a.notes.front().find("at least"), std::string::npos) << a.notes.front();
}

TEST(SizeBenchmark, SeriesNeedASize) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "l1.size").series.front().size_bytes = 0;
    EXPECT_NE(analysis_error(record, {"size"}).find("size_bytes > 0"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
