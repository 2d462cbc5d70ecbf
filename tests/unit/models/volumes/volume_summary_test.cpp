// The volume model's prediction as models::Prediction: volumes per point x points in the
// Nsight Compute metrics' units, the L2 sector counters only with an L2 sector size, the L1
// load sectors only with the L1 estimate's sector size.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volume_summary.hpp"

#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

VolumePrediction volumes_of_1000_points() {
    VolumePrediction volumes;
    volumes.points = 1000;
    volumes.dram_load_bytes = 8;
    volumes.dram_store_bytes = 4;
    volumes.l2_load_bytes = 16;
    volumes.l2_store_bytes = 8;
    volumes.l1.cycles_per_point = 0.875;
    volumes.l1.load_request_bytes_per_point = 112;
    volumes.l1.sector_bytes = 32;
    volumes.fp.flops_per_point = 2;
    volumes.limiter.binding = Limiter::l2;
    volumes.limiter.seconds_per_launch = 1.5e-3;
    return volumes;
}

TEST(VolumeSummary, CountersAreVolumesTimesPointsInTheMetricsUnits) {
    const Prediction p = to_prediction(volumes_of_1000_points(), 32.0);
    EXPECT_EQ(p.model, "volumes");
    EXPECT_EQ(p.time_s, 1.5e-3);
    EXPECT_EQ(p.limiter, "L2");
    ASSERT_TRUE(p.flops.has_value());
    EXPECT_EQ(*p.flops, 2000);
    const std::map<std::string, double> expected = {
        {"dram__bytes_read.sum", 8000},
        {"dram__bytes_write.sum", 4000},
        {"l1tex__data_pipe_lsu_wavefronts.sum", 875},             // 0.875 x 1000
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 3500}, // 112 B x 1000 / 32 B
        {"lts__t_sectors_op_read.sum", 500},                      // 16 B x 1000 / 32 B
        {"lts__t_sectors_op_write.sum", 250},
        {"lts__t_sectors_srcunit_tex_op_read.sum", 500},
        {"lts__t_sectors_srcunit_tex_op_write.sum", 250}};
    EXPECT_EQ(p.counters, expected);
}

TEST(VolumeSummary, NoSectorSizeNoSectorCounters) {
    VolumePrediction volumes = volumes_of_1000_points();
    volumes.l1.sector_bytes = 0;
    const Prediction p = to_prediction(volumes, std::nullopt);
    EXPECT_EQ(p.counters.size(), 3u);
    EXPECT_EQ(p.counters.at("dram__bytes_read.sum"), 8000);
    EXPECT_EQ(p.counters.at("l1tex__data_pipe_lsu_wavefronts.sum"), 875);
    EXPECT_EQ(p.counters.count("lts__t_sectors_op_read.sum"), 0u);
    EXPECT_EQ(p.counters.count("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 0u);
}

TEST(VolumeSummary, OfAPredictedLaunch) {
    // star2d_r1 through the whole model on the V100 (32 B L2 sectors): the summary is the
    // prediction's limiter time and name and its volumes times the launch's points.
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star2d_r1.yaml");
    const MachineModel machine = resolve_machine("v100-pcie-32gb");
    const auto analysis = analysis::analyze(spec, spec.launch);
    const VolumePrediction volumes = predict_volumes(analysis, analysis::bind(analysis), machine);
    const Prediction p = to_prediction(volumes, 32.0);
    const auto points = static_cast<double>(volumes.points);
    EXPECT_EQ(p.time_s, volumes.limiter.seconds_per_launch);
    EXPECT_EQ(p.limiter, limiter_name(volumes.limiter.binding));
    EXPECT_EQ(p.counters.at("dram__bytes_read.sum"), volumes.dram_load_bytes * points);
    EXPECT_EQ(p.counters.at("lts__t_sectors_op_read.sum"), volumes.l2_load_bytes * points / 32);
    EXPECT_EQ(p.counters.at("l1tex__data_pipe_lsu_wavefronts.sum"),
              volumes.l1.cycles_per_point * points);
    // star2d_r1 at its file's launch (256 x 2, no array offset, so x = 1 starts 8 B into a
    // sector): 5 loads and a store of doubles per point at two wavefronts per warp
    // instruction of 32 x 8 B (sec. 4.2): 12 / 32 per point. A warp's 256 B span 9 sectors,
    // the x - 1 load's 8: 4 x 9 + 8 = 44 sectors of loads per 32 points, 44 B per point.
    EXPECT_DOUBLE_EQ(volumes.l1.cycles_per_point, 12.0 / 32);
    EXPECT_DOUBLE_EQ(volumes.l1.load_request_bytes_per_point, 44.0);
    EXPECT_EQ(volumes.l1.sector_bytes, 32);
    EXPECT_EQ(p.counters.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              volumes.l1.load_request_bytes_per_point * points / 32);
    EXPECT_EQ(*p.flops, volumes.fp.flops_per_point * points);
    EXPECT_GT(p.counters.at("dram__bytes_read.sum"), 0);
}

} // namespace
} // namespace kerncast::models
