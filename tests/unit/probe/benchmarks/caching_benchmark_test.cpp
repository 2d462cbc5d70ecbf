#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(CachingBenchmark, FasterCaLoadsMeanL1CachesGlobalLoads) {
    const ProbeAnalysis a = analyse_kinds(synthetic_record(), {"caching"});
    EXPECT_EQ(value_of(a, "l1", "caches_global_loads"), 1.0);
    EXPECT_TRUE(a.notes.empty());
}

TEST(CachingBenchmark, EqualTimesMeanL1DoesNotCache) {
    ProbeRecord record = synthetic_record();
    auto& b = benchmark_named(record, "l1.caching");
    b.series[0].values = b.series[1].values; // .ca as slow as .cg
    const ProbeAnalysis a = analyse_kinds(record, {"caching"});
    EXPECT_EQ(value_of(a, "l1", "caches_global_loads"), 0.0);
    ASSERT_EQ(a.notes.size(), 1U);
    EXPECT_NE(a.notes.front().find("does not cache"), std::string::npos);
}

TEST(CachingBenchmark, NeedsCaAndCgSeries) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "l1.caching").series.pop_back();
    EXPECT_NE(analysis_error(record, {"caching"}).find("\"ca\" and \"cg\""), std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
