// evaluate_counts: a kernel analysis evaluated at one set of parameter values, checked against
// counts worked out by hand for a small element-wise kernel (launch shape, operations, accesses,
// byte addresses, access-to-footprint ratios, warp and block footprints, patterns, barriers).
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/counts/count_report.hpp"

#include <algorithm>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using namespace kerncast::models::counts;

namespace {

// c = a + b over an n x n grid, one thread per point, 32 x 4 blocks; b is shifted by one
// element, so its rows start 4 bytes into a 32-byte sector.
const std::string add_text = R"yaml(name: add
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n], offset: 1}
  c: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: j, y: i}
launch: {block: [32, 4]}
statements:
  - "c[i, j] = a[i, j] + b[i, j]"
)yaml";

struct AddCounts {
    CountReport report;
    const AccessRow& access(const std::string& array) const {
        const auto found = std::find_if(report.accesses.begin(), report.accesses.end(),
                                        [&](const AccessRow& row) { return row.array == array; });
        if (found == report.accesses.end())
            throw std::runtime_error("no access to " + array);
        return *found;
    }
};

AddCounts count_add(std::int64_t n, bool footprints_enabled = true) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(add_text, "add.yaml");
    const KernelAnalysis analysis = analyze(spec);
    FootprintOptions footprints{{32, 128}, 32, footprints_enabled};
    return {evaluate_counts(analysis, kerncast::analysis::bind(analysis, {{"n", n}}), footprints)};
}

} // namespace

TEST(CountReport, LaunchShapeAndParameters) {
    const CountReport r = count_add(64).report;
    EXPECT_EQ(r.kernel, "add");
    EXPECT_EQ(r.file, "add.yaml");
    EXPECT_EQ(r.threads_per_block, 128);
    EXPECT_EQ(r.subgroups_per_block, 4); // 128 threads / 32
    EXPECT_EQ(r.subgroup_size, 32);
    EXPECT_EQ(r.thread_blocks, 2 * 16); // 64/32 x 64/4
    EXPECT_EQ(r.kernel_launches, 1);
    ASSERT_EQ(r.parameters.size(), 1u);
    EXPECT_EQ(r.parameters[0].name, "n");
    EXPECT_EQ(r.parameters[0].value, 64);
    EXPECT_FALSE(r.parameters[0].representative);
    EXPECT_EQ(r.granule_bytes, (std::vector<std::int64_t>{32, 128}));
    EXPECT_TRUE(r.barriers.empty());
}

TEST(CountReport, OneAdditionAndThreeAccessesPerPoint) {
    const AddCounts counts = count_add(64);
    const CountReport& r = counts.report;
    ASSERT_EQ(r.operations.size(), 1u);
    EXPECT_EQ(r.operations[0].dtype, "f32");
    EXPECT_EQ(r.operations[0].operation, "add");
    // Arithmetic is counted per sub-group (a warp issues it once): 4096 points / 32.
    EXPECT_EQ(r.operations[0].granularity, "sub-group");
    EXPECT_EQ(r.operations[0].count, 64 * 64 / 32);
    EXPECT_TRUE(r.operations[0].closed_form);
    ASSERT_EQ(r.accesses.size(), 3u);
    for (const char* array : {"a", "b", "c"}) {
        const AccessRow& row = counts.access(array);
        // Accesses are counted per work item: one per point.
        EXPECT_EQ(row.granularity, "work-item") << array;
        EXPECT_EQ(row.count, 64 * 64) << array;
        EXPECT_EQ(row.count_per_work_item, 64 * 64) << array;
        EXPECT_EQ(row.space, "global");
        EXPECT_EQ(row.dtype, "f32");
        EXPECT_FALSE(row.indirect);
        // j = 32 bx + tx, i = 4 by + ty: one element per tx, a row of 64 per ty.
        EXPECT_EQ(row.strides.thread, (std::array<std::int64_t, 3>{1, 64, 0})) << array;
        EXPECT_EQ(row.strides.block, (std::array<std::int64_t, 3>{32, 256, 0})) << array;
        // Every element is touched once: 4096 accesses / 4096 footprint elements.
        ASSERT_TRUE(row.access_to_footprint.has_value());
        EXPECT_DOUBLE_EQ(*row.access_to_footprint, 1.0);
    }
    EXPECT_EQ(counts.access("a").direction, "load");
    EXPECT_EQ(counts.access("c").direction, "store");
    EXPECT_EQ(counts.access("a").text, "a[i, j]");
}

TEST(CountReport, ByteAddressesCarryTheOffset) {
    const AddCounts counts = count_add(64);
    // 4 bytes per element: 4 tx + 128 bx + 256 ty + 1024 by, and b one element further.
    const std::string a = counts.access("a").address;
    const std::string b = counts.access("b").address;
    EXPECT_EQ(b, a + " + 4");
    for (const char* term : {"4*tx", "128*bx", "256*ty", "1024*by"})
        EXPECT_NE(a.find(term), std::string::npos) << a;
}

TEST(CountReport, WarpAndBlockFootprintsInGranules) {
    const AddCounts counts = count_add(64);
    // Warp 0: 32 consecutive floats = 128 bytes: four 32-byte sectors and one 128-byte line
    // when aligned (a), five sectors and two lines when shifted by 4 bytes (b).
    const AccessRow& a = counts.access("a");
    ASSERT_TRUE(a.warp.has_value());
    EXPECT_EQ(a.warp->accesses, 32);
    EXPECT_EQ(a.warp->elements, 32);
    EXPECT_EQ(a.warp->granules, (std::vector<std::int64_t>{4, 1}));
    const AccessRow& b = counts.access("b");
    ASSERT_TRUE(b.warp.has_value());
    EXPECT_EQ(b.warp->granules, (std::vector<std::int64_t>{5, 2}));
    // Block 0: four such rows, 256 bytes apart.
    ASSERT_TRUE(a.block.has_value());
    EXPECT_EQ(a.block->elements, 128);
    EXPECT_EQ(a.block->granules, (std::vector<std::int64_t>{16, 4}));
    EXPECT_EQ(b.block->granules, (std::vector<std::int64_t>{20, 8}));
}

TEST(CountReport, FootprintsOffLeavesThemOut) {
    const AddCounts counts = count_add(64, false);
    for (const auto& row : counts.report.accesses) {
        EXPECT_FALSE(row.warp.has_value());
        EXPECT_FALSE(row.block.has_value());
    }
    EXPECT_EQ(counts.access("a").count, 4096); // the counts are still there
}

TEST(CountReport, AccessesWithOnePatternAreSummed) {
    // Both loads share space, dtype, direction, strides and ratio; the store differs.
    const CountReport r = count_add(64).report;
    ASSERT_EQ(r.patterns.size(), 2u);
    EXPECT_EQ(r.patterns[0].direction, "load");
    EXPECT_EQ(r.patterns[0].accesses, 2);
    EXPECT_EQ(r.patterns[0].count, 2 * 4096);
    EXPECT_EQ(r.patterns[1].direction, "store");
    EXPECT_EQ(r.patterns[1].accesses, 1);
    EXPECT_EQ(r.patterns[1].count, 4096);
    EXPECT_EQ(r.patterns[0].thread_strides, (std::array<std::int64_t, 3>{1, 64, 0}));
}

TEST(CountReport, CountsFollowTheParameterValues) {
    const CountReport r = count_add(128, false).report;
    EXPECT_EQ(r.thread_blocks, 4 * 32);
    EXPECT_EQ(r.operations[0].count, 128 * 128 / 32);
    EXPECT_EQ(r.parameters[0].value, 128);
}
