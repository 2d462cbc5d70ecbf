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
    std::vector<const ProbeValue*> mixed;
    for (const auto& v : a.values)
        if (v.quantity == "mixed_bandwidth_gbs")
            mixed.push_back(&v);
    ASSERT_EQ(mixed.size(), 16u);
    const std::vector<double> all_fractions{0.0, 0.2, 0.25, 1.0 / 3, 0.4, 0.5, 2.0 / 3, 1.0};
    for (const auto& [memory, expected] :
         {std::pair{std::string("dram"),
                    std::vector<double>{3030, 2990, 2960, 2860, 2855, 2820, 2765, 3115}},
          std::pair{std::string("l2"),
                    std::vector<double>{6400, 7200, 7300, 6900, 6000, 5200, 4200, 3600}}}) {
        std::vector<double> fractions, gbs;
        for (const ProbeValue* v : mixed) {
            if (v->memory != memory)
                continue;
            EXPECT_EQ(v->benchmark, memory + ".mixed_bandwidth");
            EXPECT_EQ(v->loads_in_flight_bytes_per_sm, -1);
            fractions.push_back(v->store_fraction);
            gbs.push_back(v->estimate.value);
        }
        EXPECT_EQ(fractions, all_fractions) << memory;
        // The 1024-thread shape; the median launch is the third, 1.004 times the first.
        ASSERT_EQ(gbs.size(), expected.size()) << memory;
        for (size_t k = 0; k < gbs.size(); ++k)
            EXPECT_NEAR(gbs[k], expected[k] / 1.004, 1e-6) << memory << " " << fractions[k];
    }
    EXPECT_EQ(mixed[2]->detail, "3 load(s) and 1 store(s) a point; best of 3 launch shapes: "
                                "264 blocks x 1024 threads, 4294967296 B");
    EXPECT_EQ(mixed[10]->detail, "3 load(s) and 1 store(s) a point; best of 3 launch shapes: "
                                 "264 blocks x 1024 threads, 52428800 B");
}

TEST(BandwidthBenchmark, InFlightBandwidthIsEachDramLaunchOfOneBlockAnSm) {
    // The synthetic record's launches of one block an SM (132 x 256 threads) reach 0.7 of each
    // DRAM mix's bandwidth; a thread keeps loads x 4 steps x 16 B in flight. Stores alone keep
    // none, and the L2's mixes give no value.
    const SyntheticTruth truth;
    const ProbeAnalysis a = analyse_kinds(synthetic_record(truth), {"mixed_bandwidth"});
    std::vector<const ProbeValue*> in_flight;
    for (const auto& v : a.values)
        if (v.quantity == "in_flight_bandwidth_gbs")
            in_flight.push_back(&v);
    ASSERT_EQ(in_flight.size(), 7u);
    const std::vector<std::pair<double, double>> expected{
        {0.0, 256 * 64},     {0.2, 256 * 4 * 64}, {0.25, 256 * 3 * 64}, {1.0 / 3, 256 * 2 * 64},
        {0.4, 256 * 3 * 64}, {0.5, 256 * 64},     {2.0 / 3, 256 * 64}};
    for (size_t k = 0; k < in_flight.size(); ++k) {
        const ProbeValue& v = *in_flight[k];
        EXPECT_EQ(v.memory, "dram");
        EXPECT_EQ(v.benchmark, "dram.mixed_bandwidth");
        EXPECT_DOUBLE_EQ(v.store_fraction, expected[k].first) << k;
        EXPECT_DOUBLE_EQ(v.loads_in_flight_bytes_per_sm, expected[k].second) << k;
        EXPECT_NEAR(v.estimate.value, truth.dram_mix_gbs[k].second * 0.7 / 1.004, 1e-6) << k;
    }
    EXPECT_EQ(in_flight[1]->detail, "4 load(s) and 1 store(s) a point, 132 blocks x 256 threads: "
                                    "65536 B of loads in flight an SM");
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

// The probe's own runs on an H100 and an H200 (lab/measured/*-2026-11-27b, mix_stream: 16-byte
// vectors) replay into tables that agree with the machine files' tables, which
// lab/research/l1_wavefronts.cu dram-mix measured with 8-byte elements in an earlier session:
// within 4 % at every store fraction, and both see a 1:1 mix at least 5 % below loads alone.
TEST(BandwidthBenchmark, HopperProbeRunsAgreeWithTheMachineFilesMixes) {
    for (const auto& [id, run] :
         {std::pair{"h100-sxm5-80gb", "lab/measured/h100-2026-11-27b/probe-bandwidth-mix/run1"},
          std::pair{"h200-sxm-141gb", "lab/measured/h200-2026-11-27b/probe-bandwidth-mix/run1"}}) {
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
