#include "kerncast/error.hpp"
#include "kerncast/probe/analysis.hpp"
#include "synthetic_record.hpp"

#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::synthetic_record;
using testing::SyntheticTruth;

double value_of(const ProbeAnalysis& a, const std::string& memory, const std::string& quantity) {
    const ProbeValue* v = a.find(memory, quantity);
    EXPECT_NE(v, nullptr) << memory << " " << quantity;
    return v ? v->estimate.value : -1;
}

TEST(ProbeAnalysis, ReplayOfSyntheticRecordRecoversTheTruth) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_probe_record(synthetic_record(truth));
    EXPECT_EQ(value_of(a, "l1", "size_bytes"), truth.l1_bytes);
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), truth.l1_sector_bytes);
    EXPECT_EQ(value_of(a, "l1", "tag_line_bytes"), truth.l1_line_bytes);
    EXPECT_EQ(value_of(a, "constant_l1", "size_bytes"), truth.constant_l1_bytes);
    EXPECT_DOUBLE_EQ(value_of(a, "", "overhead_cycles"), truth.overhead_cycles);
    EXPECT_NEAR(value_of(a, "l1", "latency_cycles"), truth.l1_hit_cycles, 0.25);
    EXPECT_NEAR(value_of(a, "dram", "latency_cycles"), truth.dram_cycles, 0.25);
    EXPECT_EQ(value_of(a, "l1", "caches_global_loads"), 1.0);
    EXPECT_EQ(value_of(a, "l1", "same_cache_as:texture"), 1.0);
    EXPECT_EQ(value_of(a, "texture", "count_per_sm"), truth.texture_per_sm);
    EXPECT_NEAR(value_of(a, "dram", "load_bandwidth_gbs"), truth.dram_load_gbs / 1.004, 1e-6);
    EXPECT_NEAR(value_of(a, "dram", "mixed_bandwidth_gbs"), 3030 / 1.004, 1e-6); // loads alone
    EXPECT_NEAR(value_of(a, "", "departure_del_coal_cycles"), truth.departure_coal, 1e-9);
    EXPECT_NEAR(value_of(a, "", "departure_del_uncoal_cycles"), truth.departure_uncoal, 1e-9);
    EXPECT_NEAR(value_of(a, "", "mem_ld_cycles"), truth.dram_cycles, 0.25);
    EXPECT_EQ(value_of(a, "l2", "partitions"), 2);
    EXPECT_NEAR(value_of(a, "l2", "near_latency_cycles"), truth.l2_near_cycles, 3);
    EXPECT_NEAR(value_of(a, "l2", "far_latency_cycles"), truth.l2_far_cycles, 3);
    EXPECT_NEAR(value_of(a, "", "sm_clock_mhz"), truth.sm_clock_mhz, 2);
    EXPECT_NEAR(value_of(a, "l1", "store_bandwidth_gbs"), truth.l1_store_gbs / 1.002, 1e-6);
    EXPECT_NEAR(value_of(a, "shared", "store_bandwidth_gbs"), truth.shared_store_gbs / 1.002, 1e-6);
    EXPECT_EQ(value_of(a, "l1", "size_bytes:shared_228KiB"), truth.l1_bytes_at_largest_carveout);
    EXPECT_EQ(a.find("l1", "size_bytes:shared_228KiB")->carveout_shared_kib, 228);
    EXPECT_EQ(value_of(a, "l1_tlb", "reach_bytes"), truth.l1_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(value_of(a, "l2_tlb", "reach_bytes"), truth.l2_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(value_of(a, "l1_tlb", "page_bytes"), truth.tlb_page_bytes);
    EXPECT_NEAR(value_of(a, "l1_tlb", "miss_latency_cycles"), truth.l1_tlb_miss_cycles, 3);
    EXPECT_NEAR(value_of(a, "l2_tlb", "miss_latency_cycles"), truth.l2_tlb_miss_cycles, 3);
    EXPECT_TRUE(a.notes.empty()) << a.notes.front();
    // Three sweep repetitions agree exactly: high confidence.
    EXPECT_EQ(a.find("l1", "size_bytes")->estimate.repetitions, 3);
    EXPECT_EQ(a.find("l1", "size_bytes")->estimate.confidence, Confidence::high);
}

TEST(ProbeAnalysis, DifferentTruthGivesDifferentAnswers) {
    SyntheticTruth truth;
    truth.l1_bytes = 198 * 1024; // inside the recorded sweep range 196..204 KiB
    truth.texture_per_sm = 2;
    truth.l1_line_bytes = 256;
    truth.l1_sector_bytes = 64;
    const ProbeAnalysis a = analyse_probe_record(synthetic_record(truth));
    EXPECT_EQ(value_of(a, "l1", "size_bytes"), 198 * 1024);
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), 64);
    EXPECT_EQ(value_of(a, "l1", "tag_line_bytes"), 256);
    EXPECT_EQ(value_of(a, "texture", "count_per_sm"), 2);
}

TEST(ProbeAnalysis, CacheBeyondTheSweepIsANoteNotAValue) {
    SyntheticTruth truth;
    truth.l1_bytes = 512 * 1024; // larger than every recorded size
    const ProbeAnalysis a = analyse_probe_record(synthetic_record(truth));
    EXPECT_EQ(a.find("l1", "size_bytes"), nullptr);
    ASSERT_FALSE(a.notes.empty());
    EXPECT_NE(a.notes.front().find("at least"), std::string::npos) << a.notes.front();
}

TEST(ProbeAnalysis, OutOfBoundsValueIsFlaggedAndNotWritten) {
    ProbeRecord record = synthetic_record();
    for (auto& b : record.benchmarks)
        if (b.name == "dram.latency")
            for (auto& s : b.series)
                s.values = {-4.0e9}; // a wrapped 32-bit timer difference
    const ProbeAnalysis a = analyse_probe_record(record);
    const ProbeValue* dram = a.find("dram", "latency_cycles");
    ASSERT_NE(dram, nullptr);
    EXPECT_FALSE(dram->estimate.within_bounds);
    const MachineModel m = machine_from_probe(a, "run");
    ASSERT_NE(m.level("dram"), nullptr);
    EXPECT_FALSE(m.level("dram")->latency_cycles.has_value());
    EXPECT_FALSE(m.mwp_cwp.mem_ld_cycles.has_value());
    const auto doc = probe_view(a);
    bool noted = false;
    for (const auto& n : doc.notes)
        noted |= n.find("not written to the machine file") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(ProbeAnalysis, ReplayOfTheWrittenRecordEqualsTheLiveAnalysis) {
    // What `kerncast probe` analyses right after measuring and what `--replay` analyses
    // from raw.json must agree exactly.
    const ProbeRecord record = synthetic_record();
    const ProbeAnalysis live = analyse_probe_record(record);
    const ProbeAnalysis replay =
        analyse_probe_record(parse_probe_record(format_probe_record(record), "raw.json"));
    ASSERT_EQ(live.values.size(), replay.values.size());
    for (std::size_t k = 0; k < live.values.size(); ++k) {
        EXPECT_EQ(live.values[k].quantity, replay.values[k].quantity);
        EXPECT_EQ(live.values[k].estimate.value, replay.values[k].estimate.value)
            << live.values[k].quantity;
        EXPECT_EQ(live.values[k].estimate.spread, replay.values[k].estimate.spread);
    }
}

TEST(ProbeAnalysis, InconsistentBenchmarkIsAnInputError) {
    ProbeRecord record = synthetic_record();
    for (auto& b : record.benchmarks)
        if (b.kind == "sharing")
            b.series.pop_back(); // no "interfered" series
    try {
        analyse_probe_record(record);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("sharing.l1.texture"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("interfered"), std::string::npos) << e.message();
    }
}

} // namespace
} // namespace kerncast::probe
