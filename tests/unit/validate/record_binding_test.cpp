// Records bound to kernel files: by name or generated symbol, their declared integer parameters
// as overrides, the registers' precedence, and records made from another version of the file.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/record_binding.hpp"
#include "record_fixtures.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::validate;

using namespace kerncast::validate::test;

TEST(RecordBinding, ByNameOrGeneratedSymbol) {
    kernel::KernelSpec spec;
    spec.name = "star3d-r4.v2";
    for (const char* name : {"star3d-r4.v2", "star3d_r4_v2", "kc_star3d_r4_v2"})
        EXPECT_TRUE(record_is_of(spec, record_of(name, {32, 1, 1}, {1, 1, 1}, {}))) << name;
    for (const char* name : {"star3d_r4", "kc_star3d-r4.v2", "STAR3D_R4_V2"})
        EXPECT_FALSE(record_is_of(spec, record_of(name, {32, 1, 1}, {1, 1, 1}, {}))) << name;
}

TEST(RecordBinding, OnlyDeclaredIntegerParametersOverride) {
    const auto spec = example("star3d_r4"); // declares nx, ny, nz
    const auto record =
        record_of("star3d_r4", {32, 1, 1}, {1, 1, 1},
                  {{"nx", std::int64_t{328}}, {"ny", 2.5}, {"unknown", std::int64_t{7}}});
    EXPECT_EQ(record_parameter_overrides(spec, record),
              (std::vector<std::pair<std::string, std::int64_t>>{{"nx", 328}}));
}

TEST(RecordBinding, RegistersFromTheRecordElseTheKernelFile) {
    auto spec = example("star3d_r4");
    auto record = record_of("star3d_r4", {32, 1, 1}, {1, 1, 1}, {});
    spec.registers_per_thread.reset();
    EXPECT_EQ(record_register_count(spec, record).source, models::RegisterSource::unknown);
    spec.registers_per_thread = 40;
    EXPECT_EQ(record_register_count(spec, record).per_thread, 40);
    EXPECT_EQ(record_register_count(spec, record).source, models::RegisterSource::kernel_file);
    record.registers_per_thread = 64;
    EXPECT_EQ(record_register_count(spec, record).per_thread, 64);
    EXPECT_EQ(record_register_count(spec, record).source,
              models::RegisterSource::measurement_record);
}

TEST(RecordBinding, RecordsFromAnotherKernelFileAreNamed) {
    const std::string path = KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml";
    const auto spec = kernel::load_kernel_file(path);
    std::vector<runtime::LoadedRecord> records(4);
    records[0].path = "same.json"; // recorded from this very file
    records[0].measurement.kernel.name = "star3d_r4";
    records[0].measurement.kernel.file_sha256 = sha256_file_hex(path);
    records[1].path = "other.json"; // same kernel name, another file
    records[1].measurement.kernel.name = "star3d_r4";
    records[1].measurement.kernel.file_sha256 = std::string(64, '0');
    records[2].path = "unhashed.json"; // no hash recorded: not compared
    records[2].measurement.kernel.name = "star3d_r4";
    records[3].path = "another_kernel.json";
    records[3].measurement.kernel.name = "box2d_r1";
    records[3].measurement.kernel.file_sha256 = std::string(64, '0');
    EXPECT_EQ(kernel_file_mismatches(spec, path, records),
              std::vector<std::string>{
                  "other.json was recorded from a kernel file with another SHA-256 than " + path});
}
