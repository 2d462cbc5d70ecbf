// Measured volumes of records as fitting samples (volume_samples.hpp): the counters each
// metric comes from and their units, the decomposition check, the groups and the dataset
// hash.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/validate/volume_samples.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::validate;
using models::VolumeMetric;

namespace {

runtime::Measurement record_with(std::map<std::string, runtime::NamedValue> counters) {
    runtime::Measurement measurement = runtime::load_measurement_file(
        KERNCAST_SOURCE_DIR "/tests/unit/runtime/data/saxpy_record.json");
    measurement.counters = std::move(counters);
    return measurement;
}

const std::optional<MeasuredVolume>&
volume(const std::array<std::optional<MeasuredVolume>, models::volume_metrics>& volumes,
       VolumeMetric metric) {
    return volumes[static_cast<std::size_t>(metric)];
}

} // namespace

TEST(VolumeSamples, CountersBecomeBytesPerPoint) {
    const auto volumes =
        measured_volumes(record_with({{"dram__bytes_read.sum", {1000, "byte"}},
                                      {"dram__bytes_write.sum", {800, "byte"}},
                                      {"lts__t_sectors_op_read.sum", {50, "sector"}},
                                      {"lts__t_sectors_srcunit_tex_op_write.sum", {25, "sector"}},
                                      {"sm__cycles_active.avg", {7, "cycle"}}}),
                         100, 32, "r.json");
    ASSERT_TRUE(volume(volumes, VolumeMetric::dram_load));
    EXPECT_EQ(volume(volumes, VolumeMetric::dram_load)->bytes_per_point, 10.0);
    EXPECT_EQ(volume(volumes, VolumeMetric::dram_load)->counter, "dram__bytes_read.sum");
    EXPECT_EQ(volume(volumes, VolumeMetric::dram_store)->bytes_per_point, 8.0);
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_load)->bytes_per_point, 16.0); // 50 x 32 / 100
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_load)->counter, "lts__t_sectors_op_read.sum");
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_store)->bytes_per_point, 8.0);
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_store)->counter,
              "lts__t_sectors_srcunit_tex_op_write.sum");
}

TEST(VolumeSamples, L1RequestedSectorsArePreferredAndMissingCountersAreAbsent) {
    const auto volumes =
        measured_volumes(record_with({{"lts__t_sectors_op_read.sum", {50, "sector"}},
                                      {"lts__t_sectors_srcunit_tex_op_read.sum", {40, ""}}}),
                         100, 32, "r.json");
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_load)->bytes_per_point, 12.8);
    EXPECT_EQ(volume(volumes, VolumeMetric::l2_load)->counter,
              "lts__t_sectors_srcunit_tex_op_read.sum");
    EXPECT_FALSE(volume(volumes, VolumeMetric::dram_load));
    EXPECT_FALSE(volume(volumes, VolumeMetric::l2_store));
}

TEST(VolumeSamples, CountersInAnotherUnitOrNegativeAreInputErrors) {
    try {
        measured_volumes(record_with({{"dram__bytes_read.sum", {1, "Kbyte"}}}), 100, 32, "r.json");
        FAIL() << "a counter in Kbyte must be refused";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.where().file, "r.json");
        EXPECT_EQ(error.where().json_path, "/counters/dram__bytes_read.sum");
        EXPECT_EQ(error.message(),
                  "counter dram__bytes_read.sum is in \"Kbyte\"; fit-volumes reads it in \"byte\"");
    }
    try {
        measured_volumes(record_with({{"lts__t_sectors_op_write.sum", {-5, "sector"}}}), 100, 32,
                         "r.json");
        FAIL() << "a negative volume must be refused";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.where().json_path, "/counters/lts__t_sectors_op_write.sum");
    }
}

TEST(VolumeSamples, DecompositionsMustReproduceTheTotals) {
    const MachineModel machine = builtin_machine("v100-pcie-32gb");
    models::VolumePrediction prediction;
    prediction.l2_load_bytes =
        8.0 +
        10.0 * (1.0 - models::capacity_hit_rate(*machine.capacity_fits.l1_redundant_loads, 2.0));
    prediction.l2_store_bytes = 8.0;
    prediction.dram_load_bytes = 9.0;
    prediction.dram_store_bytes = 8.0;
    prediction.decompositions.l2_load = {
        8.0,
        {models::CapacityTerm{models::CapacityFitKind::l1_redundant_loads, 2.0, 10.0, std::nullopt,
                              0.0}}};
    prediction.decompositions.l2_store = {8.0, {}};
    prediction.decompositions.dram_load = {9.0, {}};
    prediction.decompositions.dram_store = {8.0, {}};
    EXPECT_NO_THROW(check_decompositions(prediction, machine.capacity_fits, "v100", "r.json"));
    EXPECT_EQ(&decomposition_of(prediction, VolumeMetric::dram_load),
              &prediction.decompositions.dram_load);

    prediction.decompositions.dram_load.base_bytes_per_point = 8.0; // 1 B short
    try {
        check_decompositions(prediction, machine.capacity_fits, "v100", "r.json");
        FAIL() << "a decomposition that is not the model must be refused";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::internal);
        EXPECT_NE(error.message().find("decomposition of dram_load (8.000000 B per point) does "
                                       "not reproduce its total (9.000000 B per point) for r.json"),
                  std::string::npos)
            << error.message();
    }
}

TEST(VolumeSamples, GroupIsKernelAndBlockShape) {
    EXPECT_EQ(sample_group("star3d_r2", {32, 4, 8}), "star3d_r2 block=32x4x8");
}

TEST(VolumeSamples, DatasetHashIsSha256sumOfTheListing) {
    const auto records = runtime::load_measurement_directory(KERNCAST_SOURCE_DIR
                                                             "/tests/golden/data/validate_star3d");
    ASSERT_EQ(records.size(), 6u);
    // Oracle: (cd tests/golden/data/validate_star3d && LC_ALL=C sha256sum *.json) | sha256sum
    EXPECT_EQ(dataset_sha256(records),
              "158a8622cd62715364df1f031717f09cf9377be4c5e470af3292835b9b000747");
}

TEST(VolumeSamples, RecordsOfNoGivenKernelAreSkipped) {
    const auto records = runtime::load_measurement_directory(KERNCAST_SOURCE_DIR
                                                             "/tests/golden/data/validate_star3d");
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star2d_r1.yaml");
    const RecordSamples samples =
        record_volume_samples(records, {spec}, builtin_machine("v100-pcie-32gb"));
    EXPECT_TRUE(samples.samples.empty());
    EXPECT_TRUE(samples.records.empty());
    ASSERT_EQ(samples.notes.size(), 6u);
    EXPECT_NE(samples.notes[0].find("no kernel file of kernel 'star3d_r4'"), std::string::npos)
        << samples.notes[0];
}

TEST(VolumeSamples, TwoKernelFilesOfOneNameAreAnInputError) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star2d_r1.yaml");
    try {
        record_volume_samples({}, {spec, spec}, builtin_machine("v100-pcie-32gb"));
        FAIL() << "ambiguous kernel files must be refused";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("two kernel files define the kernel 'star2d_r1'"),
                  std::string::npos);
    }
}
