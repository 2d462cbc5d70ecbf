// The committed published V100 records (data/published/v100-warpspeed/records, written by
// scripts/import-published from ../shared/reference/measured/*.csv): kerncast reads every one
// and writes it back byte for byte, and a few values checked by hand against the CSV rows.
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/measurement_records.hpp"
#include "kerncast/validate/validation.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace kerncast::runtime {
namespace {

namespace fs = std::filesystem;

const std::string records_dir =
    std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/records";

std::string read_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

Measurement record(const std::string& set, const std::string& name) {
    return load_measurement_file(records_dir + "/" + set + "/" + name);
}

double counter(const Measurement& m, const std::string& metric) {
    return m.counters.at(metric).value;
}

TEST(PublishedRecords, EveryRecordIsPublishedAndRoundTripsByteForByte) {
    const std::map<std::string, std::size_t> expected_counts = {
        {"star3d-r2-folding", 90}, {"box2d-volumes", 10}, {"box2d-gflops", 272}};
    for (const auto& [set, count] : expected_counts) {
        const auto records = load_measurement_directory(records_dir + "/" + set);
        EXPECT_EQ(records.size(), count) << set;
        for (const auto& r : records) {
            ASSERT_TRUE(r.measurement.published()) << r.path;
            EXPECT_EQ(r.measurement.provenance->kind, "published");
            EXPECT_EQ(r.measurement.provenance->repository, "te42kyfo/warpspeed");
            EXPECT_NE(r.measurement.provenance->device.find("Tesla V100"), std::string::npos);
            EXPECT_EQ(measurement_to_json(r.measurement).dump(2) + "\n", read_text(r.path))
                << r.path;
        }
    }
}

// CSV line 2: 4,16,16,1,32,10.20,8.00,30.17,8.00,10.09,28.00 (596 x 596 x 508 points).
TEST(PublishedRecords, StarRowByHand) {
    const Measurement m = record("star3d-r2-folding", "star3d_r2_block4x16x16_fold1x1x1.json");
    const double points = 596.0 * 596 * 508; // 180 449 728
    EXPECT_EQ(*m.provenance->normalisation_points, 180449728);
    EXPECT_EQ(m.provenance->commit, "c85e496");
    EXPECT_EQ(m.provenance->notebook, "blocking_test.ipynb");
    EXPECT_EQ(m.provenance->cell, "8");
    EXPECT_EQ(m.kernel.name, "star3d_r2");
    EXPECT_EQ(m.kernel.launch.block, (Dim3{4, 16, 16}));
    EXPECT_EQ(m.kernel.launch.fold, (Dim3{1, 1, 1}));
    EXPECT_EQ(m.kernel.launch.grid, (Dim3{149, 38, 32})); // 596/4, ceil(596/16), ceil(508/16)
    EXPECT_EQ(*m.kernel.registers_per_thread, 32);
    EXPECT_DOUBLE_EQ(counter(m, "dram__bytes_read.sum"), 1840587225.6); // 10.20 x points
    EXPECT_DOUBLE_EQ(counter(m, "dram__bytes_write.sum"), 8.0 * points);
    EXPECT_DOUBLE_EQ(counter(m, "lts__t_sectors_op_read.sum"), 170130259.18); // 30.17 x p / 32
    EXPECT_DOUBLE_EQ(counter(m, "lts__t_sectors_op_write.sum"), 8.0 * points / 32);
    EXPECT_EQ(m.counters.at("lts__t_sectors_op_read.sum").unit, "sector");
    EXPECT_DOUBLE_EQ(m.provenance->published_values.at("l2_load_B"), 30.17);
    EXPECT_DOUBLE_EQ(m.provenance->peer_predictions.at("peer_pred_dram_load_B"), 10.09);
    EXPECT_DOUBLE_EQ(m.provenance->peer_predictions.at("peer_pred_l2_load_B"), 28.0);
    // The peer's predictions as counters: per point x points (L2: / 32 B).
    const auto peer = validate::peer_counter_predictions(m);
    EXPECT_DOUBLE_EQ(peer.at("dram__bytes_read.sum"), 10.09 * points);
    EXPECT_DOUBLE_EQ(peer.at("lts__t_sectors_op_read.sum"), 28.0 * points / 32);
    EXPECT_EQ(peer.size(), 2u);
    EXPECT_FALSE(m.method);
    EXPECT_FALSE(m.has_times());
}

// 4,16,16,4,31,27.52,8.01,59.61,8.00,10.59,26.50: fold 4 along z, 31 registers.
TEST(PublishedRecords, FoldedStarRowByHand) {
    const Measurement m = record("star3d-r2-folding", "star3d_r2_block4x16x16_fold1x1x4.json");
    EXPECT_EQ(m.kernel.launch.fold, (Dim3{1, 1, 4}));
    EXPECT_EQ(m.kernel.launch.grid, (Dim3{149, 38, 8})); // ceil(508 / (16 x 4))
    EXPECT_EQ(*m.kernel.registers_per_thread, 31);
    EXPECT_DOUBLE_EQ(counter(m, "dram__bytes_read.sum"), 4965976514.56);      // 27.52 x p
    EXPECT_DOUBLE_EQ(counter(m, "lts__t_sectors_op_read.sum"), 336144008.94); // 59.61 x p / 32
    EXPECT_DOUBLE_EQ(counter(m, "dram__bytes_write.sum"), 1445402321.28);     // 8.01 x p
}

// Box volumes, range 9: 8.005,7.972,45.146,7.986,16.992,45.500 per 15000^2 points.
TEST(PublishedRecords, BoxRowByHand) {
    const Measurement m = record("box2d-volumes", "box2d_r9_block32x8x1.json");
    EXPECT_EQ(m.kernel.name, "box2d_r9_v100");
    EXPECT_EQ(m.provenance->commit, "78606c1");
    EXPECT_EQ(m.provenance->cell, "3");
    EXPECT_EQ(*m.provenance->normalisation_points, 225000000);
    EXPECT_EQ(m.kernel.launch.grid, (Dim3{469, 1873, 1})); // 14982 interior: /32, /8 rounded up
    EXPECT_FALSE(m.kernel.registers_per_thread);
    EXPECT_DOUBLE_EQ(counter(m, "dram__bytes_read.sum"), 1801125000.0);      // 8.005 x 15000^2
    EXPECT_DOUBLE_EQ(counter(m, "lts__t_sectors_op_read.sum"), 317432812.5); // 45.146 x .. / 32
    EXPECT_DOUBLE_EQ(counter(m, "lts__t_sectors_op_write.sum"), 56151562.5); // 7.986 x .. / 32
    EXPECT_DOUBLE_EQ(validate::peer_counter_predictions(m).at("lts__t_sectors_op_read.sum"),
                     45.5 * 225000000 / 32);
}

// Throughput rows: cell 7 "7,dram,1,1,32,98" and cell 5 "5,l1only,1,1,32,141".
TEST(PublishedRecords, ThroughputRowsByHand) {
    const Measurement dram = record("box2d-gflops", "box2d_r1_dram_cell7_block1x32x1.json");
    EXPECT_EQ(dram.kernel.name, "box2d_r1_v100");
    EXPECT_EQ(dram.provenance->cell, "7");
    EXPECT_DOUBLE_EQ(dram.results.throughput.at("flops").value, 98e9);
    EXPECT_EQ(dram.results.throughput.at("flops").unit, "flop/s");
    EXPECT_TRUE(dram.counters.empty());
    EXPECT_TRUE(dram.kernel.parameters.empty()); // the domain is not public
    EXPECT_FALSE(dram.kernel.launch.grid);
    EXPECT_FALSE(dram.provenance->normalisation_points);
    const Measurement l1 = record("box2d-gflops", "box2d_r1_l1only_cell5_block1x32x1.json");
    EXPECT_EQ(l1.kernel.name, "box2d_r1_v100_l1only"); // no kernel file: never predicted
    EXPECT_DOUBLE_EQ(l1.results.throughput.at("flops").value, 141e9);
    EXPECT_DOUBLE_EQ(l1.provenance->published_values.at("measured_gflops"), 141.0);
}

} // namespace
} // namespace kerncast::runtime
