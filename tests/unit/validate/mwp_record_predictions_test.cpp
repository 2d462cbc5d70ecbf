// MWP-CWP predictions of recorded configurations: records of the kernel are predicted with their
// launch and parameters, others are not; throughputs divide the volume model's flops.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/validate/mwp_record_predictions.hpp"

#include <gtest/gtest.h>

namespace kerncast::validate {
using namespace models::mwp_cwp;
namespace {

TEST(RecordPredictions, LaunchAndParametersFromTheRecord) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/hk_mat_naive.yaml");
    runtime::KernelRecord record;
    record.name = "hk_mat_naive";
    record.launch.block = {16, 8, 1};
    record.parameters["n"] = std::int64_t{256};
    const auto p = predict_record_mwp(spec, resolve_machine("gtx280"), record);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->derived.workload.threads_per_block, 128);
    EXPECT_DOUBLE_EQ(p->derived.workload.mem_insts(), 2 * 256 + 1);
    // 2 flops per multiply-add term of the sum (the volume model's count): 2 n^3.
    EXPECT_DOUBLE_EQ(p->flops, 2.0 * 256 * 256 * 256);

    record.name = "another_kernel";
    EXPECT_FALSE(predict_record_mwp(spec, resolve_machine("gtx280"), record).has_value());
}

TEST(RecordPredictions, SourceGivesTimeAndFlops) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/hk_mat_naive.yaml");
    const auto source = mwp_record_predictions({spec}, resolve_machine("fx5600"), Variant::classic);
    runtime::KernelRecord record;
    record.name = "hk_mat_naive";
    record.launch.block = {16, 16, 1};
    const auto prediction = source(record);
    ASSERT_TRUE(prediction.has_value());
    EXPECT_GT(prediction->time_s, 0);
    ASSERT_TRUE(prediction->flops.has_value());
    EXPECT_DOUBLE_EQ(*prediction->flops, 2.0 * 2000 * 2000 * 2000);
    EXPECT_TRUE(prediction->counters.empty());
}

} // namespace
} // namespace kerncast::validate
