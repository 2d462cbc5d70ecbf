// The count report (evaluate_counts) and its view: values land in the right cells.
#include "../../view_test_support.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/counts/count_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using namespace kerncast::models::counts;

namespace {

using kerncast::test::column;

} // namespace

TEST(CountView, MatmulTiled16) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/matmul_tiled16.yaml");
    const KernelAnalysis analysis = analyze(spec);
    FootprintOptions footprints;
    footprints.granule_bytes = {32, 128};
    const CountReport r = evaluate_counts(analysis, kerncast::analysis::bind(analysis), footprints);
    EXPECT_EQ(r.thread_blocks, 256);
    EXPECT_EQ(r.kernel_launches, 1);
    ASSERT_EQ(r.barriers.size(), 2u);
    EXPECT_EQ(r.barriers[0].per_work_item, 16);
    EXPECT_EQ(r.barriers[0].total_work_items, 16 * 256 * 256);

    const report::Document doc = count_view(r);
    EXPECT_EQ(doc.schema, "kerncast.count/1");
    const report::Table& launch = doc.table_at("launch");
    EXPECT_EQ(std::get<std::int64_t>(launch.rows[0][column(launch, "thread_blocks")]), 256);
    const report::Table& accesses = doc.table_at("accesses");
    ASSERT_EQ(accesses.rows.size(), 7u);
    const auto& a_load = accesses.rows[0];
    EXPECT_EQ(std::get<std::string>(a_load[column(accesses, "access")]), "a$aLD[i, 16 * ko + tx]");
    EXPECT_EQ(std::get<std::string>(a_load[column(accesses, "tag")]), "aLD");
    EXPECT_EQ(std::get<std::int64_t>(a_load[column(accesses, "count")]), 1048576);
    EXPECT_EQ(std::get<std::int64_t>(a_load[column(accesses, "stride_ty")]), 256);
    EXPECT_EQ(std::get<std::int64_t>(a_load[column(accesses, "stride_by")]), 4096);
    EXPECT_DOUBLE_EQ(std::get<double>(a_load[column(accesses, "afr")]), 8.0);
    // Shared memory: no access-to-footprint ratio.
    EXPECT_TRUE(std::holds_alternative<std::monostate>(accesses.rows[1][column(accesses, "afr")]));
    const report::Table& fp = doc.table_at("footprints");
    EXPECT_EQ(std::get<std::int64_t>(fp.rows[0][column(fp, "warp_granules_32")]), 4);
    // Patterns: the two 16x16 tile loads differ in strides; the stores to a_tile and b_tile
    // share one pattern.
    ASSERT_EQ(r.patterns.size(), 6u);
    const report::Table& patterns = doc.table_at("access_patterns");
    bool tile_stores = false;
    for (const auto& row : patterns.rows)
        if (std::get<std::string>(row[column(patterns, "space")]) == "shared" &&
            std::get<std::string>(row[column(patterns, "direction")]) == "store") {
            tile_stores = true;
            EXPECT_EQ(std::get<std::int64_t>(row[column(patterns, "accesses")]), 2);
            EXPECT_EQ(std::get<std::int64_t>(row[column(patterns, "count")]), 65536);
            EXPECT_EQ(std::get<std::string>(row[column(patterns, "thread_strides")]), "1,16,0");
        }
    EXPECT_TRUE(tile_stores);
    const report::Table& formulas = doc.table_at("formulas");
    for (const auto& row : formulas.rows)
        EXPECT_TRUE(std::get<bool>(row[column(formulas, "closed_form")]));
}

TEST(CountView, IndirectAccessesHaveNoStrides) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/histogram.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const CountReport r = evaluate_counts(analysis, kerncast::analysis::bind(analysis),
                                          FootprintOptions{{32}, 32, true});
    const report::Document doc = count_view(r);
    const report::Table& accesses = doc.table_at("accesses");
    bool found = false;
    for (const auto& row : accesses.rows)
        if (std::get<std::string>(row[column(accesses, "direction")]) == "atomic:add") {
            found = true;
            EXPECT_TRUE(std::holds_alternative<std::monostate>(row[column(accesses, "stride_tx")]));
            EXPECT_EQ(std::get<std::int64_t>(row[column(accesses, "count")]), 4 * 4194304);
        }
    EXPECT_TRUE(found);
}
