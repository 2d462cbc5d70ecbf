// The volume model's predictions of recorded configurations: the model at the recorded launch,
// its counters in the Nsight Compute metrics' units, several kernel files matched by name.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/volume_predictions.hpp"
#include "record_fixtures.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::validate;

using namespace kerncast::validate::test;

TEST(VolumePredictions, PredictionIsTheVolumeModelAtTheRecordedConfiguration) {
    const auto spec = example("star3d_r4");
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    const auto record = record_of(
        "star3d_r4", {64, 4, 1}, {1, 1, 2},
        {{"nx", std::int64_t{328}}, {"ny", std::int64_t{200}}, {"nz", std::int64_t{136}}});
    const auto prediction = predict_record(spec, machine, record);
    ASSERT_TRUE(prediction.has_value());

    // The same numbers straight from the model.
    kernel::LaunchConfig launch{{64, 4, 1}, {1, 1, 2}};
    const auto analysis = analysis::analyze(spec, launch);
    const auto bound = analysis::bind(analysis, {{"nx", 328}, {"ny", 200}, {"nz", 136}});
    const auto volumes = models::predict_volumes(analysis, bound, machine);
    const double points = 320.0 * 192 * 128; // the interior, 4 cells off every face
    EXPECT_EQ(volumes.points, 320 * 192 * 128);
    EXPECT_DOUBLE_EQ(prediction->time_s, volumes.limiter.seconds_per_launch);
    EXPECT_DOUBLE_EQ(prediction->counters.at("dram__bytes_read.sum"),
                     volumes.dram_load_bytes * points);
    EXPECT_DOUBLE_EQ(prediction->counters.at("dram__bytes_write.sum"),
                     volumes.dram_store_bytes * points);
    EXPECT_DOUBLE_EQ(prediction->counters.at("lts__t_sectors_srcunit_tex_op_read.sum"),
                     volumes.l2_load_bytes * points / 32);
    // Every point stores one double: 8 bytes per point reach L2, in 32-byte A100 sectors.
    EXPECT_DOUBLE_EQ(prediction->counters.at("lts__t_sectors_srcunit_tex_op_write.sum"),
                     8.0 * points / 32);
}

TEST(VolumePredictions, AllUnitL2SectorsFlopsAndRegistersFromTheRecord) {
    // The published V100 star: the record's registers (31) are what the occupancy uses, over
    // the kernel file's 32; the lts__t_sectors_op_* metrics equal the srcunit_tex ones.
    const auto spec = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    const MachineModel machine = resolve_machine("v100-pcie-32gb");
    auto record = record_of("star3d_r2", {32, 4, 8}, {1, 1, 1}, {});
    const auto with_file_registers = predict_record(spec, machine, record);
    record.registers_per_thread = 64;
    const auto with_record_registers = predict_record(spec, machine, record);
    ASSERT_TRUE(with_file_registers && with_record_registers);
    for (const auto* p : {&*with_file_registers, &*with_record_registers}) {
        EXPECT_DOUBLE_EQ(p->counters.at("lts__t_sectors_op_read.sum"),
                         p->counters.at("lts__t_sectors_srcunit_tex_op_read.sum"));
        EXPECT_DOUBLE_EQ(p->counters.at("lts__t_sectors_op_write.sum"),
                         p->counters.at("lts__t_sectors_srcunit_tex_op_write.sum"));
    }

    kernel::LaunchConfig launch{{32, 4, 8}, {1, 1, 1}};
    const auto analysis = analysis::analyze(spec, launch);
    const auto bound = analysis::bind(analysis, {});
    models::VolumeOptions options;
    options.registers.per_thread = 64;
    const auto volumes = models::predict_volumes(analysis, bound, machine, options);
    EXPECT_EQ(volumes.points, 596 * 596 * 508);
    EXPECT_DOUBLE_EQ(with_record_registers->time_s, volumes.limiter.seconds_per_launch);
    EXPECT_DOUBLE_EQ(with_record_registers->counters.at("dram__bytes_read.sum"),
                     volumes.dram_load_bytes * static_cast<double>(volumes.points));
    // 13 additions and one multiplication per point.
    EXPECT_DOUBLE_EQ(*with_record_registers->flops,
                     volumes.fp.flops_per_point * static_cast<double>(volumes.points));
    // 64 registers x 1024 threads fill one V100 SM's 64 K registers: one block per SM, where
    // 32 registers allow two, so a smaller wave.
    options.registers.per_thread = 32;
    const auto thirty_two = models::predict_volumes(analysis, bound, machine, options);
    EXPECT_LT(volumes.placement.wave_blocks, thirty_two.placement.wave_blocks);
    EXPECT_DOUBLE_EQ(with_file_registers->time_s, thirty_two.limiter.seconds_per_launch);
}

TEST(VolumePredictions, SeveralKernelFilesMatchRecordsByName) {
    std::vector<kernel::KernelSpec> specs;
    for (const char* r : {"box2d_r1", "box2d_r2"})
        specs.push_back(kernel::load_kernel_file(
            std::string(KERNCAST_SOURCE_DIR "/data/published/v100-warpspeed/kernels/") + r +
            ".yaml"));
    const MachineModel machine = resolve_machine("v100-pcie-32gb");
    const auto source = volume_model_predictions(specs, machine);
    const auto r1 = source(record_of("box2d_r1_v100", {32, 8, 1}, {1, 1, 1}, {}));
    const auto r2 = source(record_of("box2d_r2_v100", {32, 8, 1}, {1, 1, 1}, {}));
    ASSERT_TRUE(r1 && r2);
    EXPECT_DOUBLE_EQ(
        r1->counters.at("dram__bytes_read.sum"),
        predict_record(specs[0], machine, record_of("box2d_r1_v100", {32, 8, 1}, {1, 1, 1}, {}))
            ->counters.at("dram__bytes_read.sum"));
    EXPECT_NE(r1->counters.at("lts__t_sectors_op_read.sum"),
              r2->counters.at("lts__t_sectors_op_read.sum"));
    EXPECT_FALSE(source(record_of("box2d_r1_v100_l1only", {32, 8, 1}, {1, 1, 1}, {})));
}

TEST(VolumePredictions, RecordsOfOtherKernelsAreNotPredicted) {
    const auto spec = example("star3d_r4");
    const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    EXPECT_FALSE(
        predict_record(spec, machine, record_of("saxpy", {256, 1, 1}, {1, 1, 1}, {})).has_value());
}
