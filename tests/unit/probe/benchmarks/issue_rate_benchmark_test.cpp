#include "kind_test_support.hpp"

namespace kerncast::probe::testing {
namespace {

TEST(IssueRateBenchmark, IssueCyclesAreTheSaturatedSlopePerWarpInstruction) {
    SyntheticTruth truth;
    for (double issue : {0.25, 0.5, 2.0}) {
        truth.issue_cycles = issue;
        const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"issue_rate"});
        EXPECT_NEAR(value_of(a, "", "issue_cycles"), issue, 1e-9) << issue;
        const ProbeValue* v = a.find("", "issue_cycles");
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(v->estimate.confidence, Confidence::high);
        // One warp issues at most one instruction a cycle: its figure is 1 cycle or the truth.
        const std::string one_warp = fmt::format("1 warps {:.4f}", std::max(issue, 1.0));
        EXPECT_NE(v->detail.find(one_warp), std::string::npos) << v->detail;
        EXPECT_NE(v->detail.find("515 instructions"), std::string::npos) << v->detail;
    }
}

TEST(IssueRateBenchmark, AValueStillFallingAtTheMostWarpsIsLow) {
    // An SM that would need 64 warps to saturate: 32 warps issue at 1/32, twice 16's rate.
    SyntheticTruth truth;
    truth.issue_cycles = 1.0 / 64;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"issue_rate"});
    const ProbeValue* v = a.find("", "issue_cycles");
    ASSERT_NE(v, nullptr);
    EXPECT_NEAR(v->estimate.value, 1.0 / 32, 1e-9);
    EXPECT_EQ(v->estimate.confidence, Confidence::low);
    EXPECT_NE(v->estimate.note.find("not saturated: 32 warps issued 100 % faster than 16"),
              std::string::npos)
        << v->estimate.note;
}

TEST(IssueRateBenchmark, TheInterceptIsNotCharged) {
    // A barrier and clock overhead of 5000 cycles instead of 300 leaves the slope.
    SyntheticTruth truth;
    ProbeRecord record = synthetic_record(truth);
    for (auto& s : benchmark_named(record, "sm.issue_rate").series)
        for (double& v : s.values)
            v += 4700;
    EXPECT_NEAR(value_of(analyse_kinds(record, {"issue_rate"}), "", "issue_cycles"),
                truth.issue_cycles, 1e-9);
}

TEST(IssueRateBenchmark, ScatteredTimingsAreLowConfidence) {
    ProbeRecord record = synthetic_record();
    int k = 0;
    for (auto& s : benchmark_named(record, "sm.issue_rate").series)
        for (double& v : s.values)
            v *= (k++ % 2) ? 1.3 : 0.7;
    const ProbeAnalysis a = analyse_kinds(record, {"issue_rate"});
    const ProbeValue* v = a.find("", "issue_cycles");
    ASSERT_NE(v, nullptr);
    EXPECT_NE(v->estimate.confidence, Confidence::high);
}

TEST(IssueRateBenchmark, MalformedSeriesNameTheProblem) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "sm.issue_rate").series.front().label = "iterations many";
    EXPECT_NE(analysis_error(record, {"issue_rate"}).find("\"iterations N x I instructions\""),
              std::string::npos);
    record = synthetic_record();
    benchmark_named(record, "sm.issue_rate").series.front().threads = 48;
    EXPECT_NE(analysis_error(record, {"issue_rate"}).find("multiple of the warp size"),
              std::string::npos);
    record = synthetic_record();
    auto& series = benchmark_named(record, "sm.issue_rate").series;
    std::erase_if(series, [](const RawSeries& s) {
        return s.threads == 32 && s.label.rfind("iterations 32 ", 0) != 0;
    });
    EXPECT_NE(analysis_error(record, {"issue_rate"})
                  .find("1 warps: needs at least three timings "
                        "over at least two iteration counts"),
              std::string::npos);
}

} // namespace
} // namespace kerncast::probe::testing
