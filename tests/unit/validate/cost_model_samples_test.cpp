// Samples from records: the record's launch and parameters select the analysis, records of
// other kernels are skipped with a note, two kernel files of one name are an input error.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/validate/cost_model_samples.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;
using namespace kerncast::validate;

namespace {

const std::string root = KERNCAST_SOURCE_DIR;

runtime::LoadedRecord record_of(const std::string& kernel, std::int64_t n, kernel::Dim3 block,
                                double time) {
    runtime::LoadedRecord r{
        "r" + std::to_string(n) + ".json",
        runtime::load_measurement_file(root + "/tests/unit/runtime/data/saxpy_record.json")};
    r.measurement.kernel.name = kernel;
    r.measurement.kernel.file_sha256 =
        sha256_file_hex(root + "/examples/kernels/matmul_naive.yaml");
    r.measurement.kernel.parameters = {{"n", n}};
    r.measurement.kernel.launch.block = block;
    r.measurement.results.median_s = time;
    return r;
}

} // namespace

TEST(CostModelSamples, LaunchAndParametersOfEachRecord) {
    const auto spec = kernel::load_kernel_file(root + "/examples/kernels/matmul_naive.yaml");
    const CostModel model = make_cost_model(
        "m", "f_time", "p_g * f_thread_groups + p_u * f_mem_access_global_load_lstrides:{0:0}");
    const std::vector<runtime::LoadedRecord> records{
        record_of("matmul_naive", 64, {16, 16, 1}, 1e-3),
        record_of("matmul_naive", 64, {32, 8, 1}, 2e-3), record_of("saxpy", 64, {256, 1, 1}, 1)};
    const CostModelSamples samples = cost_model_samples(model, records, {spec});
    ASSERT_EQ(samples.samples.size(), 2u);
    EXPECT_EQ(samples.samples[0].features[0], 16);    // (64/16)^2 blocks
    EXPECT_EQ(samples.samples[1].features[0], 2 * 8); // 64/32 x 64/8
    // a[i, k] is uniform along x (per sub-group): n^3 / 32 in both launches.
    EXPECT_EQ(samples.samples[0].features[1], 64 * 64 * 64 / 32);
    EXPECT_EQ(samples.samples[1].measured, 2e-3);
    EXPECT_EQ(samples.samples[1].configuration, "block=32x8x1 fold=1x1x1 n=64");
    ASSERT_EQ(samples.notes.size(), 1u);
    EXPECT_NE(samples.notes[0].find("saxpy"), std::string::npos);
    EXPECT_THROW(cost_model_samples(model, records, {spec, spec}), Error);
    // A record of another version of the kernel file: a note; a real value of an integer
    // parameter: an input error.
    auto changed = records;
    changed[0].measurement.kernel.file_sha256 = std::string(64, '0');
    const CostModelSamples noted = cost_model_samples(model, changed, {spec});
    ASSERT_EQ(noted.notes.size(), 2u);
    EXPECT_NE(noted.notes[0].find("SHA-256 differs"), std::string::npos);
    changed[0].measurement.kernel.parameters["n"] = 64.0;
    EXPECT_THROW(cost_model_samples(model, changed, {spec}), Error);
}
