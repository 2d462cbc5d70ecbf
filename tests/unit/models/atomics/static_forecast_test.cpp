// The static forecast of the paper's kernels: exact counts, resident warps, and e against a
// brute-force oracle (the expected largest bank load of 32 uniform threads).
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/atomics/static_forecast.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace kerncast::models::atomics {
namespace {

AtomicForecast forecast(const std::string& kernel, InputDistribution distribution,
                        const std::string& block = "",
                        const std::vector<std::pair<std::string, std::int64_t>>& defines = {}) {
    const auto spec =
        kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" + kernel);
    const auto launch = kernel::override_launch(spec.launch, block, "");
    const auto analysis = analysis::analyze(spec, launch);
    ForecastOptions options;
    options.distribution = distribution;
    return forecast_atomics(analysis, analysis::bind(analysis, defines),
                            builtin_machine("h100-sxm5-80gb"), options);
}

// E[max bin load] of m balls thrown uniformly into b bins, exactly:
// P(max <= k) = m! / b^m [x^m] (sum_{i<=k} x^i / i!)^b.
double expected_max_load(int m, int b) {
    double expected = 0;
    for (int k = 0; k < m; ++k) {
        std::vector<long double> poly(static_cast<std::size_t>(m + 1), 0);
        poly[0] = 1;
        for (int bin = 0; bin < b; ++bin) {
            std::vector<long double> next(poly.size(), 0);
            for (int i = 0; i <= m; ++i) {
                long double term = 1;
                for (int j = 0; j <= k && i + j <= m; ++j) {
                    if (j > 0)
                        term /= j;
                    next[static_cast<std::size_t>(i + j)] +=
                        poly[static_cast<std::size_t>(i)] * term;
                }
            }
            poly = next;
        }
        long double p = poly[static_cast<std::size_t>(m)];
        for (int i = 1; i <= m; ++i)
            p *= static_cast<long double>(i) / b;
        expected += static_cast<double>(1 - p);
    }
    return expected;
}

TEST(AtomicStaticForecast, HistogramSolidCountsAndContention) {
    const AtomicForecast f = forecast("histogram.yaml", InputDistribution::solid);
    ASSERT_EQ(f.accesses.size(), 1u);
    // n = 4194304 pixels x 4 channels, one atomic per channel per thread: 524288 warps x 4.
    EXPECT_EQ(f.accesses[0].warp_instructions, 4194304 / 32 * 4);
    EXPECT_DOUBLE_EQ(f.jobs, 4194304.0 / 32 * 4);
    EXPECT_DOUBLE_EQ(f.cas_jobs, 0);
    EXPECT_TRUE(f.accesses[0].data_dependent);
    EXPECT_DOUBLE_EQ(f.accesses[0].active_threads, 32); // one address for the whole warp
    // 256 threads, 4 KiB shared: 8 blocks of 8 warps fill the 64 warps of an H100 SM.
    EXPECT_DOUBLE_EQ(f.resident_warps, 64);
    EXPECT_EQ(f.sms_used, 132);
    EXPECT_EQ(f.operation, "popc_inc"); // integer +1, result unused, CC 9.0
    EXPECT_DOUBLE_EQ(f.input.sms[0].fetch_and_op_warps, 4194304.0 / 32 * 4 / 132);
}

TEST(AtomicStaticForecast, ReorderedHistogramSpreadsASolidColour) {
    // chan = (c + tx) % 4: 8 threads per channel, each channel's bin in its own bank.
    const AtomicForecast f = forecast("histogram_reordered.yaml", InputDistribution::solid);
    EXPECT_DOUBLE_EQ(f.accesses[0].active_threads, 8);
}

TEST(AtomicStaticForecast, UniformImageMatchesTheBallsInBinsOracle) {
    const double oracle = expected_max_load(32, 32);
    EXPECT_NEAR(oracle, 3.5329, 1e-4);
    for (const char* kernel : {"histogram.yaml", "histogram_reordered.yaml"}) {
        const AtomicForecast f = forecast(kernel, InputDistribution::uniform);
        EXPECT_NEAR(f.accesses[0].active_threads, oracle, 0.03) << kernel;
    }
}

TEST(AtomicStaticForecast, SmallBlocksLeaveTheSmPartlyEmpty) {
    // 32 threads per block: 32 blocks per SM at most (H100) -> 32 resident warps.
    const AtomicForecast f = forecast("histogram.yaml", InputDistribution::solid, "32");
    EXPECT_DOUBLE_EQ(f.resident_warps, 32);
}

TEST(AtomicStaticForecast, ImagesSmallerThanABlockCountOnlyTheirWarps) {
    // 32 pixels in a block of 256: one warp runs, 4 atomics (one per channel).
    AtomicForecast f = forecast("histogram.yaml", InputDistribution::solid, "", {{"n", 32}});
    EXPECT_EQ(f.accesses[0].warp_instructions, 4);
    EXPECT_DOUBLE_EQ(f.resident_warps, 1);
    EXPECT_EQ(f.sms_used, 1);
    // 16 pixels: half a warp, so at most 16 threads on one bank.
    f = forecast("histogram.yaml", InputDistribution::solid, "", {{"n", 16}});
    EXPECT_EQ(f.accesses[0].warp_instructions, 4);
    EXPECT_DOUBLE_EQ(f.accesses[0].active_threads, 16);
    // 1000 pixels in blocks of 256: 4 blocks, ceil(1000 / 32) = 32 warps run the atomics.
    f = forecast("histogram.yaml", InputDistribution::solid, "", {{"n", 1000}});
    EXPECT_EQ(f.accesses[0].warp_instructions, 32 * 4);
}

TEST(AtomicStaticForecast, AbsmaxIsCompareAndSwap) {
    const AtomicForecast f = forecast("absmax_f32.yaml", InputDistribution::solid);
    ASSERT_EQ(f.accesses.size(), 1u); // the global atomic is not the shared unit's
    EXPECT_TRUE(f.accesses[0].compare_and_swap);
    EXPECT_FALSE(f.accesses[0].data_dependent);
    EXPECT_DOUBLE_EQ(f.accesses[0].active_threads, 32);
    EXPECT_DOUBLE_EQ(f.cas_jobs, 16777216.0 / 32);
    EXPECT_DOUBLE_EQ(f.jobs, f.cas_jobs);
    EXPECT_EQ(f.operation, "add");
}

TEST(AtomicStaticForecast, KernelWithoutSharedAtomicsIsAnError) {
    EXPECT_THROW(forecast("matmul_naive.yaml", InputDistribution::solid), Error);
}

} // namespace
} // namespace kerncast::models::atomics
