#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(L2PartitionBenchmark, NearAndFarClustersAreTwoPartitions) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"l2_partition"});
    EXPECT_EQ(value_of(a, "l2", "partitions"), 2);
    EXPECT_NEAR(value_of(a, "l2", "near_latency_cycles"), truth.l2_near_cycles, 3);
    EXPECT_NEAR(value_of(a, "l2", "far_latency_cycles"), truth.l2_far_cycles, 3);
}

TEST(L2PartitionBenchmark, OneClusterIsOnePartition) {
    SyntheticTruth truth;
    truth.l2_far_cycles = truth.l2_near_cycles;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"l2_partition"});
    EXPECT_EQ(value_of(a, "l2", "partitions"), 1);
    EXPECT_EQ(a.find("l2", "far_latency_cycles"), nullptr);
}

TEST(L2PartitionBenchmark, NeedsEightHitTimes) {
    ProbeRecord record = synthetic_record();
    auto& b = benchmark_named(record, "l2.partition");
    b.series.resize(1);
    b.series.front().values.resize(4);
    EXPECT_NE(analysis_error(record, {"l2_partition"}).find("at least 8"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
