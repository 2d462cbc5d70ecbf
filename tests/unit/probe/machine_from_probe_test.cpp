// machine_from_probe: the machine model of a probed GPU. From hand-built analyses: the identity
// (id slug, architecture by compute capability, notes), device-query facts, each probed value in
// its field with a measured source whose citation and uncertainty carry the estimate, sizes by
// carve-out, same-cache links, TLB levels, and out-of-bounds values left out. From the synthetic
// record (simulated GPU): the whole chain, and a round trip through the machine file format.
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"
#include "kerncast/probe/analysis.hpp"
#include "synthetic_record.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace kerncast::probe {
namespace {

using testing::synthetic_record;
using testing::SyntheticTruth;

ProbeValue probed(std::string memory, std::string quantity, double value, int repetitions = 3,
                  double spread = 0, Confidence confidence = Confidence::high) {
    ProbeValue v;
    v.memory = std::move(memory);
    v.quantity = std::move(quantity);
    v.unit = "cycles";
    v.benchmark = (v.memory.empty() ? std::string("device") : v.memory) + ".bench";
    v.estimate.value = value;
    v.estimate.spread = spread;
    v.estimate.repetitions = repetitions;
    v.estimate.confidence = confidence;
    return v;
}

ProbeAnalysis device_only(std::string name, int cc_major, int cc_minor) {
    ProbeAnalysis a;
    a.device.name = std::move(name);
    a.device.cc_major = cc_major;
    a.device.cc_minor = cc_minor;
    a.tool_version = "1.2";
    return a;
}

TEST(MachineFromProbe, IdentityFromTheDeviceName) {
    ProbeAnalysis a = device_only("NVIDIA GeForce RTX 4090", 8, 9);
    a.date = "2026-01-02";
    a.carveout_percent = 50;
    const MachineModel m = machine_from_probe(a, "runs/4090/raw.json");
    EXPECT_EQ(m.identity.id, "geforce-rtx-4090-probed");
    EXPECT_EQ(m.identity.name, "NVIDIA GeForce RTX 4090");
    EXPECT_EQ(m.identity.vendor, "NVIDIA");
    EXPECT_EQ(m.identity.architecture, "Ada Lovelace");
    EXPECT_EQ(m.identity.cc_major, 8);
    EXPECT_EQ(m.identity.cc_minor, 9);
    EXPECT_TRUE(m.identity.incomplete);
    EXPECT_EQ(m.identity.notes, "Measured by kerncast probe 1.2 on 2026-01-02 with the "
                                "shared-memory carve-out at 50 %.");
    const Provenance& query = m.sources.at("device_query");
    EXPECT_EQ(query.kind, SourceKind::measured);
    EXPECT_EQ(query.run, "runs/4090/raw.json");

    EXPECT_EQ(machine_from_probe(device_only("Tesla V100-SXM2-16GB", 7, 0), "r").identity.id,
              "tesla-v100-sxm2-16gb-probed");
    const MachineModel unnamed = machine_from_probe(device_only("", 9, 0), "r");
    EXPECT_EQ(unnamed.identity.id, "gpu-probed");
    EXPECT_EQ(unnamed.identity.notes, "Measured by kerncast probe 1.2 on an unknown date.");
}

TEST(MachineFromProbe, ArchitectureByComputeCapability) {
    const std::vector<std::tuple<int, int, std::string>> expected = {
        {3, 5, "Kepler"}, {5, 2, "Maxwell"},    {6, 1, "Pascal"},     {7, 0, "Volta"},
        {7, 5, "Turing"}, {8, 0, "Ampere"},     {8, 6, "Ampere"},     {8, 9, "Ada Lovelace"},
        {9, 0, "Hopper"}, {10, 0, "Blackwell"}, {12, 0, "Blackwell"}, {11, 0, "unknown"},
        {2, 0, "unknown"}};
    for (const auto& [major, minor, architecture] : expected)
        EXPECT_EQ(machine_from_probe(device_only("g", major, minor), "r").identity.architecture,
                  architecture)
            << major << "." << minor;
}

TEST(MachineFromProbe, DeviceQueryFactsOnlyWhenKnown) {
    ProbeAnalysis a = device_only("g", 9, 0);
    a.device.sm_count = 132;
    a.device.warp_size = 32;
    a.device.sm_clock_peak_mhz = 1980;
    a.device.registers_per_sm = 65536;
    a.device.l2_cache_bytes = 50 * 1024 * 1024;
    a.device.global_memory_bytes = std::int64_t{80} << 30;
    const MachineModel m = machine_from_probe(a, "r");
    ASSERT_TRUE(m.compute.sm_count.has_value());
    EXPECT_EQ(m.compute.sm_count->value, 132);
    EXPECT_EQ(m.compute.sm_count->source, "device_query");
    EXPECT_EQ(m.compute.boost_clock_mhz->value, 1980);
    EXPECT_EQ(m.compute.registers_per_sm->value, 65536);
    EXPECT_FALSE(m.compute.max_threads_per_sm.has_value()); // 0: not queried
    EXPECT_FALSE(m.compute.measured_sm_clock_mhz.has_value());
    // Only L2 and DRAM sizes are known, so only they appear, with the queried size.
    ASSERT_EQ(m.memory.size(), 2u);
    EXPECT_EQ(m.level("l2")->size_bytes->value, 50 * 1024 * 1024);
    EXPECT_EQ(m.level("l2")->shared_by, "gpu");
    EXPECT_EQ(m.level("dram")->size_bytes->value, std::int64_t{80} << 30);
    EXPECT_EQ(m.level("l1"), nullptr);
    EXPECT_TRUE(m.special_memories.empty());
    EXPECT_TRUE(m.tlbs.empty());
}

TEST(MachineFromProbe, ProbedValueCarriesItsEstimateInTheSource) {
    ProbeAnalysis a = device_only("g", 9, 0);
    ProbeValue latency = probed("l1", "latency_cycles", 33.1234567, 5, 0.5, Confidence::medium);
    latency.benchmark = "l1.latency";
    latency.estimate.p_value = 0.00123;
    latency.estimate.note = "two modes";
    latency.detail = "pointer chase";
    a.values.push_back(latency);
    a.values.push_back(probed("l1", "size_bytes", 196608.4));
    a.values.push_back(probed("texture", "size_bytes", 16384));
    a.values.push_back(probed("", "sm_clock_mhz", 1755.5));
    a.values.push_back(probed("", "mem_ld_cycles", 480));
    const MachineModel m = machine_from_probe(a, "run-7");

    const MemoryLevel* l1 = m.level("l1");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->shared_by, "sm");
    // Rounded to 1e-6 of a cycle.
    EXPECT_DOUBLE_EQ(l1->latency_cycles->value, 33.123457);
    EXPECT_EQ(l1->latency_cycles->source, "probe:l1.latency_cycles");
    const Provenance& source = m.sources.at("probe:l1.latency_cycles");
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, "run-7");
    EXPECT_EQ(source.citation, "kerncast probe, benchmark l1.latency: median of 5 repetition(s), "
                               "spread (MAD) 0.5 cycles, confidence medium, KS p = 0.0012; two "
                               "modes; pointer chase");
    ASSERT_TRUE(source.uncertainty.has_value());
    EXPECT_DOUBLE_EQ(source.uncertainty->relative_spread, 0.5 / 33.1234567);
    EXPECT_EQ(source.uncertainty->confidence, "medium");
    EXPECT_EQ(source.uncertainty->repetitions, 5);
    // L1's probed size is what an SM sees (effective); the texture cache's is its capacity.
    EXPECT_FALSE(l1->size_bytes.has_value());
    EXPECT_EQ(l1->effective_size_bytes->value, 196608);
    EXPECT_EQ(m.level("texture")->size_bytes->value, 16384);
    EXPECT_EQ(m.level("texture")->size_bytes->source, "probe:texture.size_bytes");
    // Device-wide values have no memory in their key.
    EXPECT_DOUBLE_EQ(m.compute.measured_sm_clock_mhz->value, 1755.5);
    EXPECT_EQ(m.compute.measured_sm_clock_mhz->source, "probe:sm_clock_mhz");
    EXPECT_DOUBLE_EQ(m.mwp_cwp.mem_ld_cycles->value, 480);
    EXPECT_FALSE(m.mwp_cwp.departure_del_coal_cycles.has_value());
}

TEST(MachineFromProbe, AZeroValueWithSpreadHasNoRelativeSpread) {
    ProbeAnalysis a = device_only("g", 9, 0);
    a.values.push_back(probed("l1", "same_cache_as:texture", 0));
    a.values.push_back(probed("l1", "partitions", 0, 3, 0));
    a.values.push_back(probed("l2", "partitions", 0, 3, 1, Confidence::low));
    const MachineModel m = machine_from_probe(a, "r");
    // A spread of 0 around 0 is a relative spread of 0; a spread of 1 around 0 has none.
    ASSERT_TRUE(m.sources.at("probe:l1.partitions").uncertainty.has_value());
    EXPECT_EQ(m.sources.at("probe:l1.partitions").uncertainty->relative_spread, 0.0);
    EXPECT_FALSE(m.sources.at("probe:l2.partitions").uncertainty.has_value());
    EXPECT_EQ(m.level("l1")->partitions->value, 0);
    EXPECT_EQ(m.level("l2")->partitions->value, 0);
    EXPECT_EQ(m.level("texture"), nullptr); // not the same cache, and nothing else known
}

TEST(MachineFromProbe, SameCacheLinks) {
    ProbeAnalysis a = device_only("g", 9, 0);
    a.values.push_back(probed("l1", "same_cache_as:texture", 1));
    a.values.push_back(probed("l1", "same_cache_as:readonly", 0.4)); // below one half: no
    a.values.push_back(probed("texture", "same_cache_as:readonly", 0.8));
    const MachineModel m = machine_from_probe(a, "r");
    ASSERT_TRUE(m.level("texture")->same_cache_as.has_value());
    EXPECT_EQ(m.level("texture")->same_cache_as->value, "l1");
    EXPECT_EQ(m.level("texture")->same_cache_as->source, "probe:l1.same_cache_as:texture");
    ASSERT_TRUE(m.level("readonly")->same_cache_as.has_value());
    EXPECT_EQ(m.level("readonly")->same_cache_as->value, "texture");
}

TEST(MachineFromProbe, SizesByCarveoutSortedWithTheWorstUncertainty) {
    ProbeAnalysis a = device_only("g", 9, 0);
    ProbeValue small = probed("l1", "size_bytes:shared_100KiB", 150000, 3, 0, Confidence::high);
    small.benchmark = "l1.size.c100";
    small.carveout_shared_kib = 100;
    ProbeValue large = probed("l1", "size_bytes:shared_0KiB", 250000, 5, 1000, Confidence::medium);
    large.benchmark = "l1.size.c0";
    large.carveout_shared_kib = 0;
    ProbeValue wrapped = probed("l1", "size_bytes:shared_50KiB", -1);
    wrapped.carveout_shared_kib = 50;
    wrapped.estimate.within_bounds = false;
    a.values = {small, large, wrapped};
    const MachineModel m = machine_from_probe(a, "r");
    const MemoryLevel* l1 = m.level("l1");
    ASSERT_NE(l1, nullptr);
    ASSERT_TRUE(l1->effective_size_by_carveout.has_value());
    EXPECT_EQ(l1->effective_size_by_carveout->value,
              (std::vector<CarveoutSize>{{0, 250000}, {100, 150000}}));
    EXPECT_EQ(l1->effective_size_by_carveout->source, "probe:l1.size_bytes_by_carveout");
    const Provenance& source = m.sources.at("probe:l1.size_bytes_by_carveout");
    EXPECT_EQ(source.citation,
              "kerncast probe, size searches at forced shared-memory carve-outs (shared_kib = "
              "the shared memory each block claimed, so the carve-out held at least that much): "
              "0 KiB: benchmark l1.size.c0, 5 repetition(s), confidence medium; 100 KiB: "
              "benchmark l1.size.c100, 3 repetition(s), confidence high");
    ASSERT_TRUE(source.uncertainty.has_value());
    EXPECT_DOUBLE_EQ(source.uncertainty->relative_spread, 1000.0 / 250000.0);
    EXPECT_EQ(source.uncertainty->repetitions, 3);
    EXPECT_EQ(source.uncertainty->confidence, "medium");
    EXPECT_FALSE(l1->effective_size_bytes.has_value()); // no plain size search
}

TEST(MachineFromProbe, MixedBandwidthsSortedByStoreFractionWithTheWorstUncertainty) {
    ProbeAnalysis a = device_only("g", 9, 0);
    const auto mix = [](double fraction, double gbs, int repetitions, double spread,
                        std::string detail) {
        ProbeValue v = probed("dram", "mixed_bandwidth_gbs", gbs, repetitions, spread);
        v.unit = "GB/s";
        v.benchmark = "dram.mixed_bandwidth";
        v.store_fraction = fraction;
        v.detail = std::move(detail);
        return v;
    };
    ProbeValue beyond = mix(0.5, 1e9, 5, 0, "1:1");
    beyond.estimate.within_bounds = false;
    // A second mix of one fraction (2:0 after 1:0, as a record could hold): the first is kept.
    a.values = {mix(1.0, 3115.04, 5, 2, "0:1"),     mix(0.0, 3030.06, 5, 6.06, "1:0"),
                mix(2.0 / 3, 2764.96, 4, 1, "1:2"), beyond,
                mix(0.0, 2000, 1, 900, "2:0"),      probed("dram", "load_bandwidth_gbs", 3000)};
    const MachineModel m = machine_from_probe(a, "r");
    const MemoryLevel* dram = m.level("dram");
    ASSERT_NE(dram, nullptr);
    ASSERT_TRUE(dram->mixed_bandwidth_by_store_fraction.has_value());
    // Fractions to 4 decimals, bandwidths to 0.1 GB/s, as a machine file writes them.
    EXPECT_EQ(dram->mixed_bandwidth_by_store_fraction->value,
              (std::vector<MixedBandwidth>{{0.0, 3030.1}, {0.6667, 2765.0}, {1.0, 3115.0}}));
    EXPECT_EQ(dram->mixed_bandwidth_by_store_fraction->source,
              "probe:dram.mixed_bandwidth_by_store_fraction");
    const Provenance& source = m.sources.at("probe:dram.mixed_bandwidth_by_store_fraction");
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, "r");
    EXPECT_EQ(source.citation,
              "kerncast probe, DRAM streams of load/store mixes (store_fraction = stored bytes "
              "over all bytes): 0: benchmark dram.mixed_bandwidth, median of 5 launch(es), "
              "spread (MAD) 6.06 GB/s, 1:0; 0.6667: benchmark dram.mixed_bandwidth, median of 4 "
              "launch(es), spread (MAD) 1 GB/s, 1:2; 1: benchmark dram.mixed_bandwidth, median "
              "of 5 launch(es), spread (MAD) 2 GB/s, 0:1");
    ASSERT_TRUE(source.uncertainty.has_value());
    EXPECT_DOUBLE_EQ(source.uncertainty->relative_spread, 6.06 / 3030.06);
    EXPECT_EQ(source.uncertainty->repetitions, 4);
    // The plain load bandwidth stays its own field.
    EXPECT_DOUBLE_EQ(dram->sustained_bandwidth_gbs->value, 3000);
}

TEST(MachineFromProbe, TlbLevelsInOrderUntilTheFirstGap) {
    ProbeAnalysis a = device_only("g", 9, 0);
    a.values.push_back(probed("l1_tlb", "reach_bytes", 32.0 * 2097152));
    a.values.push_back(probed("l1_tlb", "page_bytes", 2097152));
    a.values.push_back(probed("l2_tlb", "miss_latency_cycles", 612.25));
    a.values.push_back(probed("l4_tlb", "reach_bytes", 1 << 30)); // no l3_tlb: not reached
    const MachineModel m = machine_from_probe(a, "r");
    ASSERT_EQ(m.tlbs.size(), 2u);
    EXPECT_EQ(m.tlbs[0].name, "l1_tlb");
    EXPECT_EQ(m.tlbs[0].shared_by, "");
    EXPECT_EQ(m.tlbs[0].reach_bytes->value, 32 * 2097152);
    EXPECT_EQ(m.tlbs[0].page_bytes->value, 2097152);
    EXPECT_FALSE(m.tlbs[0].miss_latency_cycles.has_value());
    EXPECT_EQ(m.tlbs[1].name, "l2_tlb");
    EXPECT_FALSE(m.tlbs[1].reach_bytes.has_value());
    EXPECT_DOUBLE_EQ(m.tlbs[1].miss_latency_cycles->value, 612.25);
    EXPECT_EQ(m.tlbs[1].miss_latency_cycles->source, "probe:l2_tlb.miss_latency_cycles");
}

TEST(MachineFromProbe, OutOfBoundsValuesAreLeftOut) {
    ProbeAnalysis a = device_only("g", 9, 0);
    ProbeValue wrapped = probed("l2", "latency_cycles", -4.0e9);
    wrapped.estimate.within_bounds = false;
    a.values.push_back(wrapped);
    ProbeValue clock = probed("", "sm_clock_mhz", 1e7);
    clock.estimate.within_bounds = false;
    a.values.push_back(clock);
    const MachineModel m = machine_from_probe(a, "r");
    EXPECT_EQ(m.level("l2"), nullptr); // nothing else known about it
    EXPECT_FALSE(m.compute.measured_sm_clock_mhz.has_value());
    EXPECT_EQ(m.sources.count("probe:l2.latency_cycles"), 0u);
}

TEST(MachineFromProbe, MachineModelCarriesMeasuredProvenance) {
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
    // The 4-byte chase measures what one miss fetches (the sector), the doubling strides the
    // line a tag covers.
    ASSERT_TRUE(l1->sector_bytes.has_value());
    EXPECT_EQ(l1->sector_bytes->value, truth.l1_sector_bytes);
    ASSERT_TRUE(l1->line_bytes.has_value());
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
    ASSERT_TRUE(m.mwp_cwp.issue_cycles.has_value());
    EXPECT_NEAR(m.mwp_cwp.issue_cycles->value, truth.issue_cycles, 1e-9);
    EXPECT_EQ(m.sources.at(m.mwp_cwp.issue_cycles->source).kind, SourceKind::measured);
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
    const auto& mixes = m.level("dram")->mixed_bandwidth_by_store_fraction;
    ASSERT_TRUE(mixes.has_value());
    ASSERT_EQ(mixes->value.size(), truth.dram_mix_gbs.size());
    EXPECT_EQ(mixes->value.front().store_fraction, 0.0);
    EXPECT_NEAR(mixes->value.front().bandwidth_gbs, 3030 / 1.004, 0.05);
    EXPECT_EQ(mixes->value[3].store_fraction, 0.3333);
    EXPECT_NEAR(mixes->value[3].bandwidth_gbs, 2860 / 1.004, 0.05);
    EXPECT_EQ(mixes->value.back().store_fraction, 1.0);
    // The L2's mixes: its own table on the l2 level, the DRAM's untouched.
    const auto& l2_mixes = l2->mixed_bandwidth_by_store_fraction;
    ASSERT_TRUE(l2_mixes.has_value());
    ASSERT_EQ(l2_mixes->value.size(), truth.l2_mix_gbs.size());
    EXPECT_EQ(l2_mixes->value[1].store_fraction, 0.2);
    EXPECT_NEAR(l2_mixes->value[1].bandwidth_gbs, 7200 / 1.004, 0.05);
    EXPECT_NEAR(l2_mixes->value.back().bandwidth_gbs, 3600 / 1.004, 0.05);
    EXPECT_NE(m.sources.at(l2_mixes->source).citation.find("L2 streams of load/store mixes"),
              std::string::npos);

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

TEST(MachineFromProbe, MachineFileRoundTripsThroughTheMachineFormat) {
    const MachineModel m = machine_from_probe(analyse_probe_record(synthetic_record()), "run");
    EXPECT_NO_THROW(validate_machine(m, "probed machine"));
    const std::string text = machine_to_json(m).dump(2);
    const MachineModel parsed = parse_machine_json(text, "probed.json");
    EXPECT_EQ(machine_to_json(parsed), machine_to_json(m));
}

} // namespace
} // namespace kerncast::probe
