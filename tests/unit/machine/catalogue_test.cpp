#include "expect_error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

const std::vector<std::string> expected_ids{
    "v100-pcie-32gb", "v100-sxm2-32gb", "titan-v",        "a100-sxm4-40gb", "a100-sxm4-80gb",
    "rtx-a6000",      "h100-sxm5-80gb", "h100-pcie-80gb", "h200-sxm-141gb", "hk-example",
    "8800gtx",        "fx5600",         "8800gt",         "gtx280"};

double value_or_nan(const Known<double>& known) {
    return known ? known->value : std::nan("");
}

} // namespace

TEST(Catalogue, HasExactlyTheIssueIdsInOrder) {
    EXPECT_EQ(builtin_machine_ids(), expected_ids);
}

TEST(Catalogue, EveryBuiltInLoadsValidatesAndRoundTrips) {
    for (const auto& id : builtin_machine_ids()) {
        SCOPED_TRACE(id);
        const MachineModel m = builtin_machine(id);
        EXPECT_EQ(m.identity.id, id);
        EXPECT_NO_THROW(validate_machine(m, id));
        const std::string text = machine_to_json(m).dump(2);
        const MachineModel back = parse_machine_json(text, id + " (round trip)");
        EXPECT_EQ(back, m);
        EXPECT_EQ(machine_to_json(back).dump(2), text);
        EXPECT_EQ(parse_machine_json(machine_json_text(m), id + " (text round trip)"), m);
        // The occupancy calculator needs these on every machine.
        EXPECT_TRUE(m.compute.sm_count && m.compute.warp_size && m.compute.max_threads_per_sm &&
                    m.compute.max_warps_per_sm && m.compute.max_blocks_per_sm &&
                    m.compute.registers_per_sm && m.compute.register_allocation_unit &&
                    m.compute.register_allocation_granularity &&
                    m.compute.shared_memory_per_sm_bytes &&
                    m.compute.shared_memory_allocation_unit_bytes);
        EXPECT_TRUE(m.compute.base_clock_mhz || m.compute.boost_clock_mhz);
        ASSERT_NE(m.level("dram"), nullptr);
        EXPECT_TRUE(m.level("dram")->peak_bandwidth_gbs);
        for (const auto& [key, provenance] : m.sources)
            EXPECT_FALSE(provenance.citation.empty()) << key;
    }
}

TEST(Catalogue, PaperValuesAreThoseThePapersUse) {
    // Hong & Kim 2009, sec. 3.6 (the Table 2 example machine).
    const MachineModel hk = builtin_machine("hk-example");
    EXPECT_EQ(hk.compute.sm_count->value, 16);
    EXPECT_EQ(hk.compute.base_clock_mhz->value, 1000.0);
    EXPECT_EQ(hk.level("dram")->peak_bandwidth_gbs->value, 80.0);
    EXPECT_EQ(hk.mwp_cwp.mem_ld_cycles->value, 420.0);
    EXPECT_EQ(hk.mwp_cwp.departure_del_uncoal_cycles->value, 10.0);
    EXPECT_EQ(hk.mwp_cwp.departure_del_coal_cycles->value, 4.0);
    EXPECT_EQ(hk.mwp_cwp.issue_cycles->value, 4.0);
    EXPECT_EQ(hk.compute.warp_size->value, 32);
    EXPECT_EQ(hk.compute.max_blocks_per_sm->value, 8); // "up to 8 blocks" (sec. 3.6, fn. 9)
    EXPECT_TRUE(hk.identity.incomplete);
    EXPECT_EQ(hk.sources.at(hk.compute.sm_count->source).kind, SourceKind::paper);

    // Hong & Kim 2009, Tables 3 and 6.
    const MachineModel gtx280 = builtin_machine("gtx280");
    EXPECT_EQ(gtx280.compute.sm_count->value, 30);
    EXPECT_EQ(gtx280.identity.cc_major * 10 + gtx280.identity.cc_minor, 13);
    EXPECT_EQ(gtx280.level("dram")->peak_bandwidth_gbs->value, 141.7);
    EXPECT_EQ(gtx280.mwp_cwp.mem_ld_cycles->value, 450.0);
    EXPECT_EQ(gtx280.mwp_cwp.departure_del_uncoal_cycles->value, 40.0);
    EXPECT_EQ(gtx280.compute.registers_per_sm->value, 16384);
    EXPECT_EQ(builtin_machine("fx5600").level("dram")->peak_bandwidth_gbs->value, 76.8);
    EXPECT_EQ(builtin_machine("8800gt").compute.sm_count->value, 14);
    EXPECT_EQ(builtin_machine("8800gtx").compute.base_clock_mhz->value, 1350.0);

    // Ernst et al. 2023, Table 1 and sec. 3.
    const MachineModel v100 = builtin_machine("v100-pcie-32gb");
    EXPECT_EQ(v100.compute.sm_count->value, 80);
    EXPECT_EQ(v100.compute.boost_clock_mhz->value, 1380.0);
    EXPECT_EQ(value_or_nan(v100.level("dram")->sustained_bandwidth_gbs), 800.0);
    EXPECT_EQ(v100.level("l2")->size_bytes->value, 6 << 20);
    const MachineModel a100 = builtin_machine("a100-sxm4-40gb");
    EXPECT_EQ(a100.compute.sm_count->value, 108);
    EXPECT_EQ(value_or_nan(a100.level("dram")->sustained_bandwidth_gbs), 1400.0);
    EXPECT_EQ(value_or_nan(a100.level("l2")->sustained_bandwidth_gbs), 5000.0);
    EXPECT_EQ(a100.level("l2")->size_bytes->value, std::int64_t{40} << 20);
    EXPECT_EQ(a100.level("l2")->effective_size_bytes->value, std::int64_t{20} << 20);
    EXPECT_EQ(a100.level("l2")->partitions->value, 2);
    EXPECT_EQ(a100.level("l1")->size_bytes->value, 192 * 1024);
    // The other machines' bandwidths: BandwidthsComeFromThePublishedFigures below.

    // Dong & Pai 2025, sec. 4.1.
    EXPECT_EQ(builtin_machine("titan-v").compute.sm_count->value, 80);
    EXPECT_EQ(builtin_machine("rtx-a6000").compute.sm_count->value, 84);
}

TEST(Catalogue, BandwidthsComeFromThePublishedFigures) {
    // docs/machine-format.md, "Bandwidths and L2 sizes from published figures": each value, the
    // kind of its source and the file its citation names. dram_gbs 0: no sustained value (a
    // model uses the datasheet peak).
    struct Expected {
        const char* id;
        double l2_gbs;
        SourceKind l2_kind;
        const char* l2_cites;
        double dram_gbs;
        SourceKind dram_kind;
        const char* dram_cites;
    };
    using K = SourceKind;
    for (const Expected& e :
         {Expected{"v100-pcie-32gb", 2500, K::paper, "Table 1", 800, K::paper, "Table 1"},
          Expected{"v100-sxm2-32gb", 2500, K::derived, "measured on the V100-PCIe-32GB", 800,
                   K::derived, "measured on the V100-PCIe-32GB"},
          Expected{"a100-sxm4-40gb", 5000, K::paper, "Table 1", 1400, K::paper, "Table 1"},
          Expected{"a100-sxm4-80gb", 5000, K::derived, "gpu-l2-cache/a100_80.txt L3-L27", 1732,
                   K::benchmark, "gpu-stream/a100_80.txt, last row"},
          Expected{"rtx-a6000", 2440.1, K::derived, "gpu-cache/a40.txt L64", 0, K::datasheet, ""},
          Expected{"h100-sxm5-80gb", 6415.0, K::measured, "ld.global.cg", 3115.4, K::measured,
                   "DRAM load bandwidth 3115.4 GB/s"},
          Expected{"h100-pcie-80gb", 6892.2, K::benchmark, "gpu-l2-cache/h100_pcie.txt L31", 1704,
                   K::benchmark, "gpu-stream/h100_pcie.txt, last row"},
          Expected{"h200-sxm-141gb", 7292.6, K::measured, "ld.global.cg", 4656.3, K::measured,
                   "DRAM load bandwidth 4656.3 GB/s"}}) {
        SCOPED_TRACE(e.id);
        const MachineModel m = builtin_machine(e.id);
        const auto& l2 = m.level("l2")->sustained_bandwidth_gbs;
        ASSERT_TRUE(l2);
        EXPECT_EQ(l2->value, e.l2_gbs);
        EXPECT_EQ(m.sources.at(l2->source).kind, e.l2_kind);
        EXPECT_NE(m.sources.at(l2->source).citation.find(e.l2_cites), std::string::npos);
        const auto& dram = m.level("dram")->sustained_bandwidth_gbs;
        if (e.dram_gbs == 0) {
            EXPECT_FALSE(dram);
            continue;
        }
        ASSERT_TRUE(dram);
        EXPECT_EQ(dram->value, e.dram_gbs);
        EXPECT_LE(dram->value, m.level("dram")->peak_bandwidth_gbs->value);
        EXPECT_EQ(m.sources.at(dram->source).kind, e.dram_kind);
        EXPECT_NE(m.sources.at(dram->source).citation.find(e.dram_cites), std::string::npos);
    }

    // L2 sizes: the H200's were measured on one (2026-11-26: the device query's 60 MiB, the
    // probe's 30343168 B seen from one SM), and so was the H100 SXM5's partition.
    const MachineModel h200 = builtin_machine("h200-sxm-141gb");
    EXPECT_FALSE(h200.identity.incomplete);
    const MemoryLevel& h200_l2 = *h200.level("l2");
    EXPECT_EQ(h200_l2.size_bytes->value, std::int64_t{60} << 20);
    EXPECT_EQ(h200.sources.at(h200_l2.size_bytes->source).kind, SourceKind::measured);
    EXPECT_NE(h200.sources.at(h200_l2.size_bytes->source).citation.find("cudaDevAttrL2CacheSize"),
              std::string::npos);
    EXPECT_EQ(h200_l2.effective_size_bytes->value, 30343168);
    EXPECT_EQ(h200.sources.at(h200_l2.effective_size_bytes->source).kind, SourceKind::measured);
    EXPECT_EQ(h200.level("l1")->ways->value, 4);
    EXPECT_EQ(h200_l2.partitions->value, 2);
    const MachineModel h100 = builtin_machine("h100-sxm5-80gb");
    const auto& h100_effective = h100.level("l2")->effective_size_bytes;
    EXPECT_EQ(h100_effective->value, 25886720); // the probe's, on an H100 SXM5 (2026-11-26)
    EXPECT_EQ(h100.sources.at(h100_effective->source).kind, SourceKind::measured);
    EXPECT_NE(h100.sources.at(h100_effective->source).citation.find("(25886720, 25952256] B"),
              std::string::npos);
    EXPECT_EQ(h100.level("l1")->ways->value, 4);
}

TEST(Catalogue, BenchmarkSourcesNameTheSuiteCommitAndFile) {
    // A value from a benchmark suite says which suite, at which commit, in which file.
    for (const auto& id : builtin_machine_ids()) {
        const MachineModel m = builtin_machine(id);
        for (const auto& [key, provenance] : m.sources) {
            if (provenance.kind != SourceKind::benchmark)
                continue;
            SCOPED_TRACE(id + " " + key);
            const std::string& c = provenance.citation;
            // (v100.txt is stored at a7dc559, the A100 and H200 tables at 1c36d50)
            EXPECT_TRUE(c.find("te42kyfo/gpu-benches@1c36d50") != std::string::npos ||
                        c.find("te42kyfo/gpu-benches@a7dc559") != std::string::npos ||
                        c.find("caps-tum/mt4g@4cc5566") != std::string::npos);
            EXPECT_TRUE(c.find(".txt") != std::string::npos ||
                        c.find(".json") != std::string::npos);
            // and the measured value with its unit (a bandwidth or a latency)
            EXPECT_TRUE(c.find("GB/s") != std::string::npos ||
                        c.find(" cycles") != std::string::npos);
        }
    }
}

TEST(Catalogue, OccupancyLimitsFollowTheComputeCapability) {
    struct Expected {
        const char* id;
        int threads, warps, blocks, shared_kib, unit;
        const char* granularity;
    };
    for (const Expected& e : {Expected{"v100-sxm2-32gb", 2048, 64, 32, 96, 256, "warp"},
                              Expected{"a100-sxm4-80gb", 2048, 64, 32, 164, 256, "warp"},
                              Expected{"rtx-a6000", 1536, 48, 16, 100, 256, "warp"},
                              Expected{"h200-sxm-141gb", 2048, 64, 32, 228, 256, "warp"},
                              Expected{"8800gtx", 768, 24, 8, 16, 256, "block"},
                              Expected{"gtx280", 1024, 32, 8, 16, 512, "block"}}) {
        SCOPED_TRACE(e.id);
        const MachineModel m = builtin_machine(e.id);
        EXPECT_EQ(m.compute.max_threads_per_sm->value, e.threads);
        EXPECT_EQ(m.compute.max_warps_per_sm->value, e.warps);
        EXPECT_EQ(m.compute.max_blocks_per_sm->value, e.blocks);
        EXPECT_EQ(m.compute.shared_memory_per_sm_bytes->value, e.shared_kib * 1024);
        EXPECT_EQ(m.compute.register_allocation_unit->value, e.unit);
        EXPECT_EQ(m.compute.register_allocation_granularity->value, e.granularity);
    }
    const MachineModel a100 = builtin_machine("a100-sxm4-40gb");
    EXPECT_EQ(a100.compute.reserved_shared_memory_per_block_bytes->value, 1024);
    EXPECT_EQ(a100.compute.max_registers_per_thread->value, 255);
    EXPECT_EQ(builtin_machine("8800gt").compute.warp_allocation_granularity->value, 2);
    EXPECT_EQ(builtin_machine("8800gt").shared_memory_banks.banks->value, 16);
    EXPECT_EQ(a100.shared_memory_banks.banks->value, 32);
}

TEST(Catalogue, UnknownIdNamesTheClosestIds) {
    const auto error = caught_error([] { builtin_machine("a100"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->message(), "unknown machine id 'a100'");
    EXPECT_TRUE(has_note(*error, "closest built-in ids: 'a100-sxm4-40gb', 'a100-sxm4-80gb'"));

    const auto typo = caught_error([] { builtin_machine("v100-pcie-32g"); });
    ASSERT_TRUE(typo);
    EXPECT_TRUE(has_note(*typo, "closest built-in ids: 'v100-pcie-32gb'"));
}

TEST(Catalogue, ResolveTakesIdsAndFiles) {
    EXPECT_EQ(resolve_machine("gtx280").identity.id, "gtx280");
    const auto missing = caught_error([] { resolve_machine("no/such/machine.json"); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "cannot open machine file: No such file or directory");
    EXPECT_EQ(missing->where().file, "no/such/machine.json");
    const auto unknown = caught_error([] { resolve_machine("h100"); });
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->message(), "unknown machine id 'h100'");
    const MachineModel from_file =
        resolve_machine(std::string(KERNCAST_SOURCE_DIR) + "/machines/titan-v.json");
    EXPECT_EQ(from_file, builtin_machine("titan-v"));
}

TEST(Catalogue, ResolveMachineTextGivesTheTextResolveParses) {
    const std::string path = std::string(KERNCAST_SOURCE_DIR) + "/machines/titan-v.json";
    const MachineText builtin = resolve_machine_text("titan-v");
    EXPECT_EQ(builtin.origin, "built-in machine 'titan-v' (machines/titan-v.json)");
    const MachineText file = resolve_machine_text(path);
    EXPECT_EQ(file.origin, path);
    EXPECT_EQ(builtin.text, file.text); // the embedded copy is the file
    EXPECT_EQ(parse_machine_json(builtin.text, builtin.origin), resolve_machine("titan-v"));
    const auto missing = caught_error([] { resolve_machine_text("no/such/machine.json"); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "cannot open machine file: No such file or directory");
    const auto unknown = caught_error([] { resolve_machine_text("h100"); });
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->message(), "unknown machine id 'h100'");
}

TEST(Catalogue, BuiltInsAreFoundByTheCudaDeviceName) {
    // The names the CUDA runtime gave the GPUs kerncast probed (lab/measured/*/probe), the
    // V100 of the published device table and those public logs show (docs/machine-format.md).
    EXPECT_EQ(builtin_for_device("NVIDIA H100 80GB HBM3", 9, 0), "h100-sxm5-80gb");
    EXPECT_EQ(builtin_for_device("NVIDIA H200", 9, 0), "h200-sxm-141gb");
    EXPECT_EQ(builtin_for_device("Tesla V100-PCIE-32GB", 7, 0), "v100-pcie-32gb");
    EXPECT_EQ(builtin_for_device("Tesla V100-SXM2-32GB", 7, 0), "v100-sxm2-32gb");
    EXPECT_EQ(builtin_for_device("NVIDIA A100-SXM4-40GB", 8, 0), "a100-sxm4-40gb");
    EXPECT_EQ(builtin_for_device("NVIDIA A100-SXM4-80GB", 8, 0), "a100-sxm4-80gb");
    EXPECT_EQ(builtin_for_device("NVIDIA H100 PCIe", 9, 0), "h100-pcie-80gb");
    EXPECT_EQ(builtin_for_device("NVIDIA RTX A6000", 8, 6), "rtx-a6000");
    EXPECT_EQ(builtin_for_device("NVIDIA H200", 8, 0), std::nullopt); // another compute capability
    EXPECT_EQ(builtin_for_device("NVIDIA TITAN V", 7, 0), std::nullopt); // no built-in lists it
}
