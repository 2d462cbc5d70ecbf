#include "kerncast/error.hpp"
#include "kerncast/probe/benchmark_kind.hpp"
#include "kerncast/probe/raw_series.hpp"
#include "synthetic_record.hpp"

#include <gtest/gtest.h>
#include <set>

namespace kerncast::probe {
namespace {

TEST(BenchmarkKind, RegistryHoldsEveryKindOnce) {
    std::set<std::string_view> names;
    for (const BenchmarkKind& kind : benchmark_kinds()) {
        EXPECT_TRUE(names.insert(kind.name).second) << kind.name;
        EXPECT_NE(kind.analyse, nullptr) << kind.name;
        EXPECT_FALSE(kind.measures.empty()) << kind.name;
        EXPECT_FALSE(kind.device_plan.empty()) << kind.name;
    }
    EXPECT_EQ(names, (std::set<std::string_view>{"size", "line", "tag_line", "latency", "overhead",
                                                 "caching", "sharing", "count_per_sm", "bandwidth",
                                                 "mixed_bandwidth", "loaded_latency", "departure",
                                                 "issue_rate", "l2_partition", "clock", "tlb",
                                                 "block_launch"}));
}

TEST(BenchmarkKind, FindByName) {
    ASSERT_NE(find_benchmark_kind("tlb"), nullptr);
    EXPECT_EQ(find_benchmark_kind("tlb")->name, "tlb");
    EXPECT_EQ(find_benchmark_kind("teleport"), nullptr);
}

TEST(BenchmarkKind, EveryKindOfTheSyntheticRecordIsRegistered) {
    for (const auto& b : testing::synthetic_record().benchmarks)
        EXPECT_NE(find_benchmark_kind(b.kind), nullptr) << b.name;
}

TEST(BenchmarkKind, UnknownKindInRawJsonIsAnInputError) {
    ProbeRecord record = testing::synthetic_record();
    record.benchmarks.front().kind = "teleport";
    try {
        parse_probe_record(format_probe_record(record), "raw.json");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("unknown benchmark kind \"teleport\""), std::string::npos)
            << e.message();
    }
}

TEST(BenchmarkKind, BadBenchmarkNamesBenchmarkAndKind) {
    RawBenchmark b;
    b.name = "l1.size";
    b.kind = "size";
    try {
        bad_benchmark(b, "broken");
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "benchmark \"l1.size\" (kind size): broken");
    }
}

} // namespace
} // namespace kerncast::probe
