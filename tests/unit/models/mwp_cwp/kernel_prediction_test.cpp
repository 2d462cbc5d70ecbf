// MWP-CWP from a kernel file (kernel_prediction.hpp): the classic variant is Hong & Kim's
// equations on the derived workload, the flops are the volume model's count (Ernst et al.
// sec. 4.1: adds, multiplies, divisions) checked against a hand count, and the cache-aware
// variant refuses a machine without caches.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

kernel::KernelSpec load(const std::string& kernel) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" +
                                    kernel + ".yaml");
}

TEST(KernelPrediction, ClassicIsTheEquationsOnTheDerivedWorkload) {
    const auto spec = load("hk_linear");
    const MachineModel machine = resolve_machine("8800gtx");
    const auto p = predict_kernel_mwp(spec, spec.launch, {{"w", 130}, {"h", 130}}, machine);
    EXPECT_EQ(p.kernel, "hk_linear");
    EXPECT_EQ(p.variant, Variant::classic);
    EXPECT_FALSE(p.cache_aware.has_value());
    const MwpCwpResult oracle = predict_mwp_cwp(p.derived.workload, machine);
    EXPECT_DOUBLE_EQ(p.model.exec_cycles_app, oracle.exec_cycles_app);
    EXPECT_EQ(p.model.mwp, oracle.mwp);
    EXPECT_DOUBLE_EQ(p.model.cwp, oracle.cwp);
    // 128 x 128 points, one thread each: 128 threads per block, 128 blocks.
    EXPECT_EQ(p.derived.workload.threads_per_block, 128);
    EXPECT_EQ(p.derived.workload.blocks, 128);
}

TEST(KernelPrediction, FlopsCountAddsAndDivisionsOfEveryPoint) {
    const auto spec = load("hk_linear");
    const auto p =
        predict_kernel_mwp(spec, spec.launch, {{"w", 130}, {"h", 130}}, resolve_machine("8800gtx"));
    // Three channels of (8 adds + 1 division) at each of (130 - 2)^2 points.
    EXPECT_DOUBLE_EQ(p.flops, 3.0 * 9.0 * 128.0 * 128.0);
}

TEST(KernelPrediction, CacheAwareNeedsCaches) {
    const auto spec = load("hk_linear");
    KernelMwpOptions options;
    options.variant = Variant::cache_aware;
    try {
        (void)predict_kernel_mwp(spec, spec.launch, {}, resolve_machine("8800gtx"), options);
        FAIL() << "expected an input error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("has no L1 or L2 cache"), std::string::npos)
            << error.message();
        ASSERT_FALSE(error.notes().empty());
        EXPECT_NE(error.notes().front().find("--mwp-model classic"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast::models::mwp_cwp
