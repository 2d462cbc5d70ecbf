// Feature values against brute-force oracles: the tiled matmul and the halo-tiled finite
// differences at small sizes, every access executed explicitly thread by thread, strides by
// differencing the subscripts, footprints as sets of elements.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/calibrated/feature.hpp"
#include "kerncast/models/calibrated/feature_values.hpp"

#include <gtest/gtest.h>
#include <set>

using namespace kerncast;
using namespace kerncast::models::calibrated;

namespace {

const std::string root = KERNCAST_SOURCE_DIR;

double value(const analysis::KernelAnalysis& analysis, const std::vector<std::int64_t>& params,
             const std::string& feature) {
    return feature_value(analysis, params, parse_feature(feature));
}

} // namespace

TEST(FeatureValues, TiledMatmulAgainstEnumeration) {
    const std::int64_t n = 32, m = 48, l = 64;
    const auto spec = kernel::load_kernel_file(root + "/examples/kernels/matmul_tiled16.yaml");
    const auto analysis = analysis::analyze(spec);
    const auto params = analysis::bind(analysis, {{"n", n}, {"m", m}, {"l", l}}).values();

    // Enumerate: thread (i, j) = (16 by + ty, 16 bx + tx), tile ko, inner kk.
    std::int64_t a_loads = 0, b_loads = 0, c_stores = 0, shared = 0, madds = 0, barriers = 0;
    std::set<std::pair<std::int64_t, std::int64_t>> a_elements, b_elements;
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < l; ++j) {
            const std::int64_t tx = j % 16, ty = i % 16;
            for (std::int64_t ko = 0; ko < m / 16; ++ko) {
                ++a_loads;
                a_elements.insert({i, 16 * ko + tx});
                ++b_loads;
                b_elements.insert({16 * ko + ty, j});
                shared += 2; // tile stores
                for (std::int64_t kk = 0; kk < 16; ++kk) {
                    shared += 2; // tile loads
                    ++madds;
                }
            }
            ++c_stores;
            if (i == 0 && j == 0)
                barriers = 2 * (m / 16);
        }
    // Flattened subscripts as functions of (bx, by, tx, ty, ko): strides by differences.
    auto a_index = [&](int bx, int by, int tx, int ty) { return m * (16 * by + ty) + tx + 0 * bx; };
    auto b_index = [&](int bx, int by, int tx, int ty) { return l * ty + 16 * bx + tx + 0 * by; };
    EXPECT_EQ(a_index(0, 0, 1, 0) - a_index(0, 0, 0, 0), 1);  // lid(0) stride
    EXPECT_EQ(a_index(0, 0, 0, 1) - a_index(0, 0, 0, 0), m);  // lid(1)
    EXPECT_EQ(a_index(1, 0, 0, 0) - a_index(0, 0, 0, 0), 0);  // gid(0)
    EXPECT_EQ(b_index(1, 0, 0, 0) - b_index(0, 0, 0, 0), 16); // gid(0)
    EXPECT_EQ(b_index(0, 0, 0, 1) - b_index(0, 0, 0, 0), l);  // lid(1)
    const double a_ratio = static_cast<double>(a_loads) / static_cast<double>(a_elements.size());
    const double b_ratio = static_cast<double>(b_loads) / static_cast<double>(b_elements.size());
    EXPECT_EQ(a_ratio, l / 16); // 4
    EXPECT_EQ(b_ratio, n / 16); // 2

    // Full, uniform warps of 32: per sub-group = per work-item / 32.
    EXPECT_EQ(value(analysis, params, "f_op_float32_madd"), madds / 32);
    EXPECT_EQ(value(analysis, params, "f_mem_access_local_float32"), shared / 32);
    EXPECT_EQ(value(analysis, params, "f_mem_access_tag:aLD"), a_loads);
    EXPECT_EQ(value(analysis, params, "f_mem_access_tag:bLD_global_load"), b_loads);
    // The two patterns of sec. 6.1.1 (Table 1).
    EXPECT_EQ(value(analysis, params,
                    "f_mem_access_global_float32_load_lstrides:{0:1;1:>15}_gstrides:{0:0}_afr:>1"),
              a_loads);
    EXPECT_EQ(value(analysis, params,
                    "f_mem_access_global_float32_load_lstrides:{0:1;1:>15}_gstrides:{0:16}_afr:>1"),
              b_loads);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_load_afr:>2.5"), a_loads);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_afr:1"), c_stores);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_float32_store"), c_stores);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global"), a_loads + b_loads + c_stores);
    EXPECT_EQ(value(analysis, params, "f_mem_access_float64"), 0);
    // Bounds by kernel parameters (sec. 6.1, "lstrides:{0:<n}").
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_lstrides:{1:m}"), a_loads);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_lstrides:{1:>=l}"), b_loads + c_stores);
    EXPECT_EQ(value(analysis, params, "f_sync_barrier_local"), barriers);
    EXPECT_EQ(value(analysis, params, "f_thread_groups"), (n / 16) * (l / 16));
    EXPECT_EQ(value(analysis, params, "f_sync_kernel_launch"), 1);
    EXPECT_THROW(value(analysis, params, "f_mem_access_lstrides:{0:<k}"), Error);
}

TEST(FeatureValues, HaloTilesWithGuardsAgainstEnumeration) {
    const std::int64_t n = 40;
    const auto spec = kernel::load_kernel_file(root + "/examples/kernels/fd5pt_16.yaml");
    const auto analysis = analysis::analyze(spec);
    const auto params = analysis::bind(analysis, {{"n", n}}).values();
    std::int64_t fetches = 0, stores = 0, blocks = 0;
    const std::int64_t tiles = (n + 13) / 14;
    for (std::int64_t bi = 0; bi < tiles; ++bi)
        for (std::int64_t bj = 0; bj < tiles; ++bj) {
            ++blocks;
            for (std::int64_t li = 0; li < 16; ++li)
                for (std::int64_t lj = 0; lj < 16; ++lj) {
                    if (14 * bi + li < n + 2 && 14 * bj + lj < n + 2)
                        ++fetches;
                    if (1 <= li && li <= 14 && 1 <= lj && lj <= 14 && 14 * bi + li <= n &&
                        14 * bj + lj <= n)
                        ++stores;
                }
        }
    EXPECT_EQ(stores, n * n);
    // u[14 bi + li, 14 bj + lj]: lid(0) stride 1, gid(0) stride 14 (sec. 8.5).
    EXPECT_EQ(
        value(analysis, params, "f_mem_access_global_float32_load_lstrides:{0:1}_gstrides:{0:14}"),
        fetches);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_float32_load_gstrides:{0:16}"), 0);
    EXPECT_EQ(value(analysis, params, "f_mem_access_global_float32_store_lstrides:{0:1}_afr:1"),
              stores);
    EXPECT_EQ(value(analysis, params, "f_thread_groups"), blocks);
    EXPECT_EQ(value(analysis, params, "f_sync_barrier_local"), 1);
}
