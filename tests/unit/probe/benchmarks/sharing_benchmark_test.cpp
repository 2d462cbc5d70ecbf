#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(SharingBenchmark, InterferenceMeansOneCache) {
    const ProbeAnalysis a = analyse_kinds(synthetic_record(), {"sharing"});
    EXPECT_EQ(value_of(a, "l1", "same_cache_as:texture"), 1.0);
}

TEST(SharingBenchmark, CountPerSmFollowsTheDisturbedThreads) {
    SyntheticTruth truth;
    for (int count : {1, 2}) {
        truth.texture_per_sm = count;
        const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"count_per_sm"});
        EXPECT_EQ(value_of(a, "texture", "count_per_sm"), count);
    }
}

TEST(SharingBenchmark, MissingInterferedSeriesNamesTheBenchmark) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "sharing.l1.texture").series.pop_back();
    const std::string message = analysis_error(record, {"sharing"});
    EXPECT_NE(message.find("sharing.l1.texture"), std::string::npos) << message;
    EXPECT_NE(message.find("interfered"), std::string::npos) << message;
}

TEST(SharingBenchmark, ThreadSeriesWithoutGapsOnly) {
    ProbeRecord record = synthetic_record();
    auto& b = benchmark_named(record, "texture.count_per_sm");
    b.series.erase(b.series.begin() + 2); // "thread 2" missing
    EXPECT_NE(analysis_error(record, {"count_per_sm"}).find("without gaps"), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
