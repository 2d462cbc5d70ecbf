#include "kerncast/error.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/tlb.hpp"
#include "simulated_tlb.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::SimulatedTlb;

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;
constexpr std::int64_t GiB = 1024 * MiB;

MeasureFootprints measure_with(const SimulatedTlb& tlb, std::int64_t stride) {
    return [&tlb, stride](const std::vector<std::int64_t>& footprints) {
        std::vector<std::vector<double>> timings;
        for (std::int64_t f : footprints)
            timings.push_back(tlb.chase(stride, f));
        return timings;
    };
}

TEST(TlbPlan, FootprintsAreWholeStridesGeometricallySpaced) {
    const std::int64_t stride = 2 * MiB;
    const auto f = tlb_footprints(stride, 8 * GiB, 8, 2);
    ASSERT_FALSE(f.empty());
    EXPECT_EQ(f.front(), 2 * stride);
    EXPECT_LE(f.back(), 8 * GiB);
    EXPECT_GT(f.back() * std::exp2(1.0 / 8) + stride, 8.0 * GiB); // reaches the limit
    for (std::size_t k = 0; k < f.size(); ++k) {
        EXPECT_EQ(f[k] % stride, 0);
        if (k > 0) {
            EXPECT_GT(f[k], f[k - 1]);
            // At most one octave / 8 apart (plus one page of rounding).
            EXPECT_LE(static_cast<double>(f[k]), f[k - 1] * std::exp2(1.0 / 8) + stride);
        }
    }
    EXPECT_TRUE(tlb_footprints(stride, stride, 8, 2).empty()); // not even two pages
}

TEST(TlbPlan, RefinementBracketsEveryStepByAdjacentPages) {
    SimulatedTlb tlb;
    tlb.levels = {{24, 80, 0}, {300, 200, 0}};
    const std::int64_t stride = 2 * MiB;
    const TlbCurve curve = measure_tlb_curve(measure_with(tlb, stride), stride, 4 * GiB);
    EXPECT_LE(curve.launches, 4);
    const auto steps = tlb_steps(curve.points);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].reach_bytes, 24 * stride);
    EXPECT_EQ(steps[0].next_bytes, 25 * stride);
    EXPECT_EQ(steps[1].reach_bytes, 300 * stride);
    EXPECT_EQ(steps[1].next_bytes, 301 * stride);
    EXPECT_NEAR(steps[0].miss_cycles, 80, 2);
    EXPECT_NEAR(steps[1].miss_cycles, 200, 2);
}

TEST(TlbPlan, OneTwoAndThreeLevelsWithNoiseAndOutliers) {
    struct Case {
        std::vector<testing::SimulatedTlbLevel> levels;
    };
    const std::vector<Case> cases{
        {{{16, 120, 0}}},
        {{{16, 40, 0}, {2048, 350, 0}}},
        {{{8, 30, 0}, {64, 90, 0}, {1024, 400, 0}}},
        {{{32, 60, 4}, {512, 250, 16}}}, // set-associative ramps
    };
    for (std::size_t c = 0; c < cases.size(); ++c) {
        SimulatedTlb tlb;
        tlb.levels = cases[c].levels;
        tlb.noise_cycles = 5;
        tlb.outlier_rate = 0.01;
        tlb.seed = static_cast<std::uint32_t>(c + 3);
        const std::int64_t stride = tlb.page_bytes;
        const auto steps =
            tlb_steps(measure_tlb_curve(measure_with(tlb, stride), stride, 8 * GiB).points);
        ASSERT_EQ(steps.size(), tlb.levels.size()) << "case " << c;
        for (std::size_t l = 0; l < steps.size(); ++l) {
            // A set-associative level starts missing within its ramp: the first misses are
            // diluted and may hide in the noise.
            const auto& level = tlb.levels[l];
            EXPECT_GE(steps[l].reach_bytes, level.entries * stride) << "case " << c;
            EXPECT_LE(steps[l].reach_bytes, (level.entries + level.ramp_pages / 2) * stride)
                << "case " << c << " level " << l;
            EXPECT_NEAR(steps[l].miss_cycles, tlb.levels[l].miss_cycles, 6)
                << "case " << c << " level " << l;
        }
    }
}

TEST(TlbPlan, NoTlbStepWithinTheFootprintRange) {
    SimulatedTlb tlb;
    tlb.levels = {{100000, 300, 0}};
    tlb.noise_cycles = 5;
    tlb.outlier_rate = 0.01;
    const auto curve = measure_tlb_curve(measure_with(tlb, 2 * MiB), 2 * MiB, 16 * GiB);
    EXPECT_EQ(curve.launches, 1);
    EXPECT_TRUE(tlb_steps(curve.points).empty());
}

std::vector<StrideReach> ideal_reaches(std::int64_t page, double entries,
                                       const std::vector<std::int64_t>& strides) {
    std::vector<StrideReach> result;
    for (std::int64_t s : strides)
        result.push_back({s, entries * static_cast<double>(std::max(s, page))});
    return result;
}

const std::vector<std::int64_t> sweep{64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, 1 * MiB,
                                      2 * MiB,  4 * MiB,   8 * MiB,   16 * MiB,  32 * MiB};

TEST(PageSize, TheStrideWhereReachStartsGrowing) {
    for (std::int64_t page : {128 * KiB, 2 * MiB, 8 * MiB}) {
        const auto inferred = infer_page_size(ideal_reaches(page, 16, sweep));
        ASSERT_TRUE(inferred);
        EXPECT_EQ(inferred->page_bytes, page);
        EXPECT_DOUBLE_EQ(inferred->entries, 16);
        EXPECT_EQ(inferred->agreeing_strides, 10);
        EXPECT_FALSE(inferred->at_least);
        EXPECT_FALSE(inferred->at_most);
    }
}

TEST(PageSize, OneWrongStrideDoesNotMoveIt) {
    // At the smallest stride the first level's step was diluted away and the second level's
    // step (64x farther) was taken for it.
    auto reaches = ideal_reaches(2 * MiB, 16, sweep);
    reaches[0].reach_bytes *= 64;
    reaches[7].reach_bytes *= 1.1; // grid resolution
    const auto inferred = infer_page_size(reaches);
    ASSERT_TRUE(inferred);
    EXPECT_EQ(inferred->page_bytes, 2 * MiB);
    EXPECT_EQ(inferred->agreeing_strides, 9);
}

TEST(PageSize, BoundsWhenTheSweepDoesNotBracketThePage) {
    const std::vector<std::int64_t> small{64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB};
    const auto large_pages = infer_page_size(ideal_reaches(2 * MiB, 16, small));
    ASSERT_TRUE(large_pages);
    EXPECT_EQ(large_pages->page_bytes, 512 * KiB);
    EXPECT_TRUE(large_pages->at_least);
    EXPECT_FALSE(large_pages->at_most);
    const std::vector<std::int64_t> large{4 * MiB, 8 * MiB, 16 * MiB};
    const auto small_pages = infer_page_size(ideal_reaches(2 * MiB, 16, large));
    ASSERT_TRUE(small_pages);
    EXPECT_EQ(small_pages->page_bytes, 4 * MiB);
    EXPECT_TRUE(small_pages->at_most);
    EXPECT_FALSE(infer_page_size({}));
}

// The whole chain through the raw record: a stride sweep of simulated chases, as the runner
// records it (one benchmark of kind "tlb"), analysed like a replay.
RawBenchmark tlb_benchmark(const SimulatedTlb& tlb, const std::vector<std::int64_t>& strides,
                           std::int64_t max_bytes, int repetitions) {
    RawBenchmark b{"tlb", "tlb", "tlb", "", "", "sequential", "cycles", "", {}};
    for (std::int64_t stride : strides) {
        for (int rep = 0; rep < repetitions; ++rep) {
            SimulatedTlb repeated = tlb;
            repeated.seed = tlb.seed + static_cast<std::uint32_t>(rep) * 101;
            const auto curve = measure_tlb_curve(
                [&](const std::vector<std::int64_t>& footprints) {
                    std::vector<std::vector<double>> timings;
                    for (std::int64_t f : footprints)
                        timings.push_back(repeated.chase(stride, f, 128));
                    return timings;
                },
                stride, std::min(max_bytes, stride * 16384));
            for (const auto& p : curve.points)
                b.series.push_back(
                    {"", rep, p.size_bytes, static_cast<int>(stride), 0, 0, 0, 0, p.timings});
        }
    }
    return b;
}

ProbeRecord record_with(RawBenchmark b) {
    ProbeRecord record;
    record.device.name = "Simulated TLB";
    record.device.sm_count = 1;
    record.benchmarks.push_back(std::move(b));
    return record;
}

TEST(TlbAnalysis, TwoLevelsAndThePageSizeFromAStrideSweep) {
    SimulatedTlb tlb;
    tlb.levels = {{16, 60, 0}, {1024, 300, 0}};
    tlb.noise_cycles = 4;
    tlb.outlier_rate = 0.005;
    const std::vector<std::int64_t> strides{256 * KiB, 512 * KiB, 1 * MiB,
                                            2 * MiB,   4 * MiB,   8 * MiB};
    const ProbeAnalysis a =
        analyse_probe_record(record_with(tlb_benchmark(tlb, strides, 8 * GiB, 3)));
    const ProbeValue* reach1 = a.find("l1_tlb", "reach_bytes");
    const ProbeValue* reach2 = a.find("l2_tlb", "reach_bytes");
    ASSERT_NE(reach1, nullptr);
    ASSERT_NE(reach2, nullptr);
    EXPECT_EQ(reach1->estimate.value, 16 * 2 * MiB);
    EXPECT_EQ(reach2->estimate.value, 1024 * 2 * MiB);
    EXPECT_EQ(reach1->estimate.repetitions, 3);
    EXPECT_EQ(reach1->estimate.confidence, Confidence::high);
    for (const char* memory : {"l1_tlb", "l2_tlb"}) {
        ASSERT_NE(a.find(memory, "page_bytes"), nullptr) << memory;
        ASSERT_NE(a.find(memory, "miss_latency_cycles"), nullptr) << memory;
    }
    EXPECT_EQ(a.find("l1_tlb", "page_bytes")->estimate.value, 2 * MiB);
    EXPECT_EQ(a.find("l2_tlb", "page_bytes")->estimate.value, 2 * MiB);
    EXPECT_NEAR(a.find("l1_tlb", "miss_latency_cycles")->estimate.value, 60, 6);
    EXPECT_NEAR(a.find("l2_tlb", "miss_latency_cycles")->estimate.value, 300, 10);
    EXPECT_EQ(a.find("l3_tlb", "reach_bytes"), nullptr);
    EXPECT_TRUE(a.notes.empty()) << a.notes.front();
}

TEST(TlbAnalysis, SmallPagesAreFoundToo) {
    SimulatedTlb tlb;
    tlb.page_bytes = 64 * KiB;
    tlb.levels = {{32, 100, 0}};
    const std::vector<std::int64_t> strides{16 * KiB, 32 * KiB, 64 * KiB, 128 * KiB, 256 * KiB};
    const ProbeAnalysis a =
        analyse_probe_record(record_with(tlb_benchmark(tlb, strides, 1 * GiB, 1)));
    ASSERT_NE(a.find("l1_tlb", "page_bytes"), nullptr);
    EXPECT_EQ(a.find("l1_tlb", "page_bytes")->estimate.value, 64 * KiB);
    EXPECT_EQ(a.find("l1_tlb", "reach_bytes")->estimate.value, 32 * 64 * KiB);
}

TEST(TlbAnalysis, NoStepIsANote) {
    SimulatedTlb tlb;
    tlb.levels = {{1 << 20, 300, 0}};
    const ProbeAnalysis a =
        analyse_probe_record(record_with(tlb_benchmark(tlb, {1 * MiB, 2 * MiB}, 1 * GiB, 1)));
    EXPECT_EQ(a.find("l1_tlb", "reach_bytes"), nullptr);
    ASSERT_EQ(a.notes.size(), 1u);
    EXPECT_NE(a.notes[0].find("no TLB step up to a footprint of"), std::string::npos) << a.notes[0];
}

TEST(TlbAnalysis, SeriesWithoutStrideAreInputErrors) {
    RawBenchmark b{"tlb", "tlb", "tlb", "", "", "sequential", "cycles", "", {}};
    b.series.push_back({"", 0, 4 * MiB, 0, 0, 0, 0, 0, {260, 261}});
    EXPECT_THROW(analyse_probe_record(record_with(b)), Error);
}

} // namespace
} // namespace kerncast::probe
