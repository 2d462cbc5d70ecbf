#include "kerncast/machine/catalogue.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kind_test_support.hpp"

#include <utility>
#include <vector>

namespace kerncast::probe::testing {
namespace {

TEST(BandwidthBenchmark, BestLaunchShapeGivesTheBandwidth) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"bandwidth"});
    EXPECT_NEAR(value_of(a, "dram", "load_bandwidth_gbs"), truth.dram_load_gbs / 1.004, 1e-6);
    EXPECT_NEAR(value_of(a, "l1", "store_bandwidth_gbs"), truth.l1_store_gbs / 1.002, 1e-6);
    EXPECT_NEAR(value_of(a, "shared", "store_bandwidth_gbs"), truth.shared_store_gbs / 1.002, 1e-6);
}

TEST(BandwidthBenchmark, DirectionAndUnitAreChecked) {
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.load_bandwidth").direction = "sideways";
    EXPECT_NE(analysis_error(record, {"bandwidth"}).find("\"load\" or \"store\""),
              std::string::npos);
    record = synthetic_record();
    benchmark_named(record, "dram.load_bandwidth").unit = "cycles";
    EXPECT_NE(analysis_error(record, {"bandwidth"}).find("milliseconds"), std::string::npos);
}

// One value per load/store mix and memory, in order of store fraction (stores over loads plus
// stores): the best launch shape's bytes over its median launch; the DRAM's mixes, then the
// L2's.
TEST(BandwidthBenchmark, MixedBandwidthIsOneValuePerMix) {
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"mixed_bandwidth"});
    ASSERT_EQ(a.values.size(), 16u);
    const std::vector<double> all_fractions{0.0, 0.2, 0.25, 1.0 / 3, 0.4, 0.5, 2.0 / 3, 1.0};
    for (const auto& [memory, expected] :
         {std::pair{std::string("dram"),
                    std::vector<double>{3030, 2990, 2960, 2860, 2855, 2820, 2765, 3115}},
          std::pair{std::string("l2"),
                    std::vector<double>{6400, 7200, 7300, 6900, 6000, 5200, 4200, 3600}}}) {
        std::vector<double> fractions, gbs;
        for (const auto& v : a.values) {
            if (v.memory != memory)
                continue;
            EXPECT_EQ(v.quantity, "mixed_bandwidth_gbs");
            EXPECT_EQ(v.benchmark, memory + ".mixed_bandwidth");
            fractions.push_back(v.store_fraction);
            gbs.push_back(v.estimate.value);
        }
        EXPECT_EQ(fractions, all_fractions) << memory;
        // The 1024-thread shape; the median launch is the third, 1.004 times the first.
        ASSERT_EQ(gbs.size(), expected.size()) << memory;
        for (size_t k = 0; k < gbs.size(); ++k)
            EXPECT_NEAR(gbs[k], expected[k] / 1.004, 1e-6) << memory << " " << fractions[k];
    }
    EXPECT_EQ(a.values[2].detail, "3 load(s) and 1 store(s) a point; best of 2 launch shapes: "
                                  "264 blocks x 1024 threads, 4294967296 B");
    EXPECT_EQ(a.values[10].detail, "3 load(s) and 1 store(s) a point; best of 2 launch shapes: "
                                   "264 blocks x 1024 threads, 52428800 B");
}

TEST(BandwidthBenchmark, MixedBandwidthLabelMustBeAMix) {
    for (const char* label : {"", "2", "2:", ":1", "0:0", "-1:2", "1:2x", "a:b"}) {
        ProbeRecord record = synthetic_record();
        benchmark_named(record, "dram.mixed_bandwidth").series.front().label = label;
        const std::string error = analysis_error(record, {"mixed_bandwidth"});
        EXPECT_NE(error.find("dram.mixed_bandwidth"), std::string::npos) << error;
        EXPECT_NE(error.find("LOADS:STORES"), std::string::npos) << label << ": " << error;
    }
    ProbeRecord record = synthetic_record();
    benchmark_named(record, "dram.mixed_bandwidth").unit = "cycles";
    EXPECT_NE(analysis_error(record, {"mixed_bandwidth"}).find("milliseconds"), std::string::npos);
}

// The probe's own runs on an H100 and an H200 (data/measured/*-2026-11-27b, mix_stream: 16-byte
// vectors) replay into tables that agree with the machine files' tables, which
// tools/research/l1_wavefronts.cu dram-mix measured with 8-byte elements in an earlier session:
// within 4 % at every store fraction, and both see a 1:1 mix at least 5 % below loads alone.
TEST(BandwidthBenchmark, HopperProbeRunsAgreeWithTheMachineFilesMixes) {
    for (const auto& [id, run] :
         {std::pair{"h100-sxm5-80gb", "data/measured/h100-2026-11-27b/probe-bandwidth-mix/run1"},
          std::pair{"h200-sxm-141gb", "data/measured/h200-2026-11-27b/probe-bandwidth-mix/run1"}}) {
        SCOPED_TRACE(id);
        const MachineModel probed = machine_from_probe(
            analyse_probe_record(read_probe_record(std::string(KERNCAST_SOURCE_DIR) + "/" + run)),
            run);
        const MachineModel file = resolve_machine(id);
        const auto& measured = probed.level("dram")->mixed_bandwidth_by_store_fraction->value;
        const auto& known = file.level("dram")->mixed_bandwidth_by_store_fraction->value;
        ASSERT_EQ(measured.size(), known.size());
        for (size_t k = 0; k < measured.size(); ++k) {
            EXPECT_EQ(measured[k].store_fraction, known[k].store_fraction);
            EXPECT_NEAR(measured[k].bandwidth_gbs / known[k].bandwidth_gbs, 1.0, 0.04)
                << measured[k].store_fraction;
        }
        for (const auto* table : {&measured, &known})
            EXPECT_LT((*table)[5].bandwidth_gbs, 0.95 * table->front().bandwidth_gbs); // 1:1
    }
}

} // namespace
} // namespace kerncast::probe::testing
