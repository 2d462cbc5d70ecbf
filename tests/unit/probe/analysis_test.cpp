#include "kerncast/error.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"
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
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), truth.l1_line_bytes);
    EXPECT_EQ(value_of(a, "constant_l1", "size_bytes"), truth.constant_l1_bytes);
    EXPECT_DOUBLE_EQ(value_of(a, "", "overhead_cycles"), truth.overhead_cycles);
    EXPECT_NEAR(value_of(a, "l1", "latency_cycles"), truth.l1_hit_cycles, 0.25);
    EXPECT_NEAR(value_of(a, "dram", "latency_cycles"), truth.dram_cycles, 0.25);
    EXPECT_EQ(value_of(a, "l1", "caches_global_loads"), 1.0);
    EXPECT_EQ(value_of(a, "l1", "same_cache_as:texture"), 1.0);
    EXPECT_EQ(value_of(a, "texture", "count_per_sm"), truth.texture_per_sm);
    EXPECT_NEAR(value_of(a, "dram", "load_bandwidth_gbs"), truth.dram_load_gbs / 1.004, 1e-6);
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
    truth.l1_line_bytes = 64;
    const ProbeAnalysis a = analyse_probe_record(synthetic_record(truth));
    EXPECT_EQ(value_of(a, "l1", "size_bytes"), 198 * 1024);
    EXPECT_EQ(value_of(a, "l1", "line_bytes"), 64);
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

TEST(ProbeAnalysis, MachineModelCarriesMeasuredProvenance) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_probe_record(synthetic_record(truth));
    const MachineModel m = machine_from_probe(a, "data/probe/synthetic/raw.json");
    EXPECT_EQ(m.identity.id, "synthetic-gpu-probed");
    EXPECT_EQ(m.identity.architecture, "Hopper");
    EXPECT_TRUE(m.identity.incomplete);
    const MemoryLevel* l1 = m.level("l1");
    ASSERT_NE(l1, nullptr);
    ASSERT_TRUE(l1->effective_size_bytes.has_value());
    EXPECT_EQ(l1->effective_size_bytes->value, truth.l1_bytes);
    EXPECT_EQ(l1->line_bytes->value, truth.l1_line_bytes);
    const Provenance& source = m.sources.at(l1->effective_size_bytes->source);
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, "data/probe/synthetic/raw.json");
    EXPECT_NE(source.citation.find("3 repetition(s)"), std::string::npos) << source.citation;
    EXPECT_NE(source.citation.find("confidence high"), std::string::npos) << source.citation;
    const MemoryLevel* l2 = m.level("l2");
    ASSERT_NE(l2, nullptr);
    EXPECT_EQ(l2->size_bytes->value, 52428800);
    EXPECT_EQ(l2->partitions->value, 2);
    EXPECT_EQ(m.level("texture")->count_per_sm->value, 1);
    EXPECT_NEAR(m.mwp_cwp.departure_del_uncoal_cycles->value, truth.departure_uncoal, 1e-9);
    EXPECT_EQ(m.compute.sm_count->value, 132);
    EXPECT_NEAR(m.compute.measured_sm_clock_mhz->value, truth.sm_clock_mhz, 2);

    // The fields added for the probe (docs/probe.md, "The machine file").
    EXPECT_NEAR(l1->store_bandwidth_gbs->value, truth.l1_store_gbs / 1.002, 1e-3);
    EXPECT_NEAR(m.level("shared")->store_bandwidth_gbs->value, truth.shared_store_gbs / 1.002,
                1e-3);
    EXPECT_NEAR(l2->latency_near_cycles->value, truth.l2_near_cycles, 3);
    EXPECT_NEAR(l2->latency_far_cycles->value, truth.l2_far_cycles, 3);
    ASSERT_TRUE(m.level("texture")->same_cache_as.has_value());
    EXPECT_EQ(m.level("texture")->same_cache_as->value, "l1");
    ASSERT_TRUE(l1->effective_size_by_carveout.has_value());
    ASSERT_EQ(l1->effective_size_by_carveout->value.size(), 1u);
    EXPECT_EQ(l1->effective_size_by_carveout->value[0].shared_kib, 228);
    EXPECT_EQ(l1->effective_size_by_carveout->value[0].effective_size_bytes,
              truth.l1_bytes_at_largest_carveout);
    ASSERT_EQ(m.tlbs.size(), 2u);
    EXPECT_EQ(m.tlbs[0].name, "l1_tlb");
    EXPECT_EQ(m.tlbs[0].reach_bytes->value, truth.l1_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(m.tlbs[1].reach_bytes->value, truth.l2_tlb_entries * truth.tlb_page_bytes);
    EXPECT_EQ(m.tlbs[1].page_bytes->value, truth.tlb_page_bytes);
    EXPECT_NEAR(m.tlbs[1].miss_latency_cycles->value, truth.l2_tlb_miss_cycles, 3);

    // Every measured value's source carries its uncertainty: the L1 size agrees exactly over
    // three repetitions.
    ASSERT_TRUE(source.uncertainty.has_value());
    EXPECT_EQ(source.uncertainty->confidence, "high");
    EXPECT_EQ(source.uncertainty->repetitions, 3);
    EXPECT_EQ(source.uncertainty->relative_spread, 0.0);
    const Provenance& dram_latency = m.sources.at(m.level("dram")->latency_cycles->source);
    ASSERT_TRUE(dram_latency.uncertainty.has_value());
    EXPECT_EQ(dram_latency.uncertainty->repetitions, 5);
    EXPECT_NEAR(dram_latency.uncertainty->relative_spread, 0.1 / (truth.dram_cycles + 0.2), 1e-9);
}

TEST(ProbeAnalysis, MachineFileRoundTripsThroughTheMachineFormat) {
    const MachineModel m = machine_from_probe(analyse_probe_record(synthetic_record()), "run");
    EXPECT_NO_THROW(validate_machine(m, "probed machine"));
    const std::string text = machine_to_json(m).dump(2);
    const MachineModel parsed = parse_machine_json(text, "probed.json");
    EXPECT_EQ(machine_to_json(parsed), machine_to_json(m));
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

TEST(ProbeAnalysis, ViewListsEveryValue) {
    const ProbeAnalysis a = analyse_probe_record(synthetic_record());
    const auto doc = probe_view(a);
    EXPECT_EQ(doc.schema, "kerncast.probe/1");
    ASSERT_EQ(doc.tables.size(), 2u);
    EXPECT_EQ(doc.tables[1].rows.size(), a.values.size());
    for (const auto& row : doc.tables[1].rows)
        EXPECT_EQ(row.size(), doc.tables[1].columns.size());
}

} // namespace
} // namespace kerncast::probe
