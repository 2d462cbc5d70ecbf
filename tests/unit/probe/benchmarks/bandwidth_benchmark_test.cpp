#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(BandwidthBenchmark, BestLaunchShapeGivesTheBandwidth) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"bandwidth"});
    EXPECT_NEAR(value_of(a, "dram", "load_bandwidth_gbs"), truth.dram_load_gbs / 1.004, 1e-6);
    EXPECT_NEAR(value_of(a, "l1", "store_bandwidth_gbs"), truth.l1_store_gbs / 1.002, 1e-6);
    EXPECT_NEAR(value_of(a, "shared", "store_bandwidth_gbs"), truth.shared_store_gbs / 1.002, 1e-6);
}

TEST(BandwidthBenchmark, DirectionAndUnitAreChecked) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.load_bandwidth").direction = "sideways";
    EXPECT_NE(analysis_error(record, {"bandwidth"}).find("\"load\" or \"store\""),
              std::string::npos);
    record = synthetic_record();
    benchmark_named(record, "dram.load_bandwidth").unit = "cycles";
    EXPECT_NE(analysis_error(record, {"bandwidth"}).find("milliseconds"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
