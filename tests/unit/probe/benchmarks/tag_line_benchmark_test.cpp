#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(TagLineBenchmark, LineAndSectorAreMeasuredApart) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"line", "tag_line"});
    EXPECT_EQ(value_of(a, "l1", "tag_line_bytes"), truth.l1_line_bytes);
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), truth.l1_sector_bytes);
    const ProbeValue* v = a.find("l1", "tag_line_bytes");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->estimate.repetitions, 2);
    EXPECT_NE(v->detail.find("128 B 1.00, 256 B 0.00"), std::string::npos) << v->detail;
}

TEST(TagLineBenchmark, OtherLineIsFound) {
    SyntheticTruth truth;
    truth.l1_line_bytes = 256;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"tag_line"});
    EXPECT_EQ(value_of(a, "l1", "tag_line_bytes"), 256);
}

TEST(TagLineBenchmark, NoLineIsANoteNotAValue) {
    ProbeRecord record = synthetic_record();
    RawBenchmark& b = benchmark_named(record, "l1.tag_line");
    // Every chase as slow as a miss: one cluster.
    for (RawSeries& s : b.series)
        std::fill(s.values.begin(), s.values.end(), 228.0);
    const ProbeAnalysis a = analyse_kinds(record, {"tag_line"});
    EXPECT_EQ(a.find("l1", "tag_line_bytes"), nullptr);
    ASSERT_FALSE(a.notes.empty());
    EXPECT_NE(a.notes.front().find("l1.tag_line: the times form one cluster"), std::string::npos)
        << a.notes.front();
}

TEST(TagLineBenchmark, StridesThatDoNotDoubleAreABadBenchmark) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "l1.tag_line").series[2].stride_bytes = 96;
    const std::string message = analysis_error(record, {"tag_line"});
    EXPECT_NE(message.find("\"l1.tag_line\" (kind tag_line)"), std::string::npos) << message;
    EXPECT_NE(message.find("strides must double"), std::string::npos) << message;
}

} // namespace
} // namespace kerncast::probe::testing
