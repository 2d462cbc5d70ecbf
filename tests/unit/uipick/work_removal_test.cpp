// Work removal (Stevens & Klöckner sec. 7.1.1, Algorithm 3), checked with kerncast's exact
// counts: the kept global accesses execute exactly as often as in the original kernel, with
// the same strides, and nothing else but the sink store remains.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/uipick/work_removal.hpp"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <tuple>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/" + name +
                                    ".yaml");
}

const analysis::AccessInfo& only_access(const analysis::KernelAnalysis& a,
                                        const std::string& array) {
    const analysis::AccessInfo* found = nullptr;
    for (const auto& access : a.accesses)
        if (access.array == array) {
            EXPECT_EQ(found, nullptr) << "two accesses to " << array;
            found = &access;
        }
    EXPECT_NE(found, nullptr) << "no access to " << array;
    return *found;
}

// The kept access has the same execution count and strides before and after removal.
void expect_same_access(const analysis::KernelAnalysis& before,
                        const analysis::KernelAnalysis& after, const std::string& array) {
    const auto params_before = analysis::bind(before).values();
    const auto params_after = analysis::bind(after).values();
    const auto& a = only_access(before, array);
    const auto& b = only_access(after, array);
    EXPECT_EQ(a.count_per_work_item.evaluate(params_before),
              b.count_per_work_item.evaluate(params_after));
    EXPECT_EQ(a.count.evaluate(params_before), b.count.evaluate(params_after));
    EXPECT_EQ(a.footprint_elements.evaluate(params_before),
              b.footprint_elements.evaluate(params_after));
    const auto sa = analysis::access_strides(before, a, params_before);
    const auto sb = analysis::access_strides(after, b, params_after);
    EXPECT_EQ(sa.thread, sb.thread);
    EXPECT_EQ(sa.block, sb.block);
    EXPECT_EQ(sa.sequential, sb.sequential);
    EXPECT_EQ(a.tag, b.tag);
}

} // namespace

// Sec. 7.1.1's example: the tiled matmul with only the loads of b kept. matmul_tiled16 has
// n = 512, m = 256, l = 128: b is loaded once per work-item and k tile,
// n*l*(m/16) = 1048576 times, and the sink holds one value per work-item, n*l = 65536.
TEST(WorkRemoval, TiledMatmulKeepsExactlyTheBLoadsAndTheSinkStore) {
    const kernel::KernelSpec original = example("matmul_tiled16");
    const kernel::KernelSpec removed = remove_work(original, {"b"});
    const auto before = analysis::analyze(original);
    const auto after = analysis::analyze(removed);
    const auto params = analysis::bind(after).values();
    ASSERT_EQ(after.accesses.size(), 2u);
    const auto& b = only_access(after, "b");
    EXPECT_EQ(b.direction, analysis::Direction::load);
    EXPECT_EQ(b.count_per_work_item.evaluate(params), 512 * 128 * (256 / 16));
    expect_same_access(before, after, "b");
    const auto& sink = only_access(after, "read_tgt_dest");
    EXPECT_EQ(sink.direction, analysis::Direction::store);
    EXPECT_EQ(sink.space, kernel::MemorySpace::global);
    EXPECT_EQ(sink.count_per_work_item.evaluate(params), 512 * 128);
    EXPECT_EQ(sink.footprint_elements.evaluate(params), 512 * 128); // one entry per work-item
    const auto sink_strides = analysis::access_strides(after, sink, params);
    EXPECT_EQ(sink_strides.thread[0], 1); // lid(0) stride 1, as the paper's sink
    EXPECT_TRUE(after.barriers.empty());
    // On-chip work is gone: the only arithmetic is read_tgt = read_tgt + b[...].
    ASSERT_EQ(after.operations.size(), 1u);
    EXPECT_EQ(after.operations[0].operation, "add");
    EXPECT_EQ(after.operations[0].count.evaluate(params), 512 * 128 / 32 * (256 / 16));
    // The loop structure stays: the b load is still inside the k-tile loop.
    EXPECT_EQ(analysis::access_strides(after, b, params).sequential.at("ko"), 16 * 128);
    // Keeping by the access tag is the same.
    const auto by_tag = analysis::analyze(remove_work(original, {"bLD"}));
    EXPECT_EQ(by_tag.accesses.size(), 2u);
    expect_same_access(after, by_tag, "b");
}

TEST(WorkRemoval, KeptStoreNeedsNoSink) {
    const kernel::KernelSpec original = example("matmul_naive");
    const auto before = analysis::analyze(original);
    const auto after = analysis::analyze(remove_work(original, {"a", "c"}));
    ASSERT_EQ(after.accesses.size(), 2u);
    expect_same_access(before, after, "a"); // inside the k reduction: n^3 loads
    expect_same_access(before, after, "c");
    const auto params = analysis::bind(after).values();
    EXPECT_EQ(only_access(after, "a").count_per_work_item.evaluate(params), 2048LL * 2048 * 2048);
}

// DG variant 1: u is read inside the j reduction and the m loop; the kept loads keep both.
TEST(WorkRemoval, LoadsInReductionsKeepTheirLoops) {
    const kernel::KernelSpec original = example("dg_diff_1");
    const auto before = analysis::analyze(original);
    const auto after = analysis::analyze(remove_work(original, {"u"}));
    ASSERT_EQ(after.accesses.size(), 2u);
    expect_same_access(before, after, "u");
    const auto params = analysis::bind(after).values();
    EXPECT_EQ(only_access(after, "u").count_per_work_item.evaluate(params), 3LL * 131072 * 64 * 64);
}

// fd5pt_16: explicit blocks and locals, guarded statements. The sink has one entry per
// work-item of the halo tiling (ceil(n/14)^2 blocks of 16x16), its shape a floor expression.
TEST(WorkRemoval, HaloTilesKeepGuardsAndSizeTheSink) {
    const kernel::KernelSpec original = example("fd5pt_16");
    const auto before = analysis::analyze(original);
    const kernel::KernelSpec removed = remove_work(original, {"u"});
    const auto after = analysis::analyze(removed);
    ASSERT_EQ(after.accesses.size(), 2u);
    expect_same_access(before, after, "u");
    for (std::int64_t n : {4096, 1000, 14, 15}) {
        const auto params = analysis::bind(after, {{"n", n}}).values();
        const std::int64_t blocks = (n + 13) / 14;
        EXPECT_EQ(only_access(after, "read_tgt_dest").count_per_work_item.evaluate(params),
                  blocks * blocks * 256)
            << n;
    }
    // Keeping the store instead: res with read_tgt = 0, under the stencil's guard.
    const auto stores = analysis::analyze(remove_work(original, {"res"}));
    ASSERT_EQ(stores.accesses.size(), 1u);
    expect_same_access(before, stores, "res");
}

TEST(WorkRemoval, UnknownNamesAreInputErrors) {
    const kernel::KernelSpec original = example("matmul_tiled16");
    try {
        (void)remove_work(original, {"a_tile"}); // shared: on-chip work, never kept
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("'a_tile'"), std::string::npos);
        ASSERT_FALSE(e.notes().empty());
        EXPECT_NE(e.notes()[0].find("a, aLD, b, bLD, c"), std::string::npos) << e.notes()[0];
        EXPECT_NE(e.where().file.find("matmul_tiled16.yaml"), std::string::npos);
    }
}

TEST(WorkRemoval, ReadTargetTypeFollowsTheKeptLoads) {
    const kernel::KernelSpec removed = remove_work(example("star2d_r1"), {"src"});
    EXPECT_EQ(removed.find_array("read_tgt")->dtype, kernel::DataType::f64);
    EXPECT_EQ(removed.find_array("read_tgt")->space, kernel::MemorySpace::private_);
    EXPECT_EQ(removed.name, "star2d_r1_keep_src");
}

// Every example kernel, every global or constant array kept alone: the kept array's accesses
// execute exactly as in the original (count, footprint, strides, direction, tag), the result
// has no shared accesses and no barriers, and kerncast can generate its CUDA.
TEST(WorkRemoval, EveryExampleKeepsEveryArrayExactly) {
    const std::filesystem::path dir = std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels";
    int checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".yaml")
            continue;
        const kernel::KernelSpec original = kernel::load_kernel_file(entry.path().string());
        const auto before = analysis::analyze(original);
        const auto params_before = analysis::bind(before).values();
        for (const auto& array : original.arrays) {
            if (array.space != kernel::MemorySpace::global &&
                array.space != kernel::MemorySpace::constant)
                continue;
            SCOPED_TRACE(entry.path().filename().string() + " keep " + array.name);
            const kernel::KernelSpec removed = remove_work(original, {array.name});
            const auto after = analysis::analyze(removed);
            const auto params_after = analysis::bind(after).values();
            using Row = std::tuple<std::string, std::string, std::int64_t, std::int64_t,
                                   std::vector<std::int64_t>>;
            auto rows = [](const analysis::KernelAnalysis& a, const std::vector<std::int64_t>& p,
                           const std::string& name) {
                std::vector<Row> out;
                for (const auto& access : a.accesses) {
                    if (access.array != name)
                        continue;
                    std::vector<std::int64_t> strides;
                    if (!access.indirect) {
                        const auto s = analysis::access_strides(a, access, p);
                        strides.insert(strides.end(), s.thread.begin(), s.thread.end());
                        strides.insert(strides.end(), s.block.begin(), s.block.end());
                    }
                    out.emplace_back(analysis::direction_name(access.direction), access.tag,
                                     access.count_per_work_item.evaluate(p),
                                     access.footprint_elements.evaluate(p), strides);
                }
                std::sort(out.begin(), out.end());
                return out;
            };
            EXPECT_EQ(rows(before, params_before, array.name),
                      rows(after, params_after, array.name));
            EXPECT_TRUE(after.barriers.empty());
            for (const auto& access : after.accesses)
                EXPECT_NE(access.space, kernel::MemorySpace::shared) << access.text;
            EXPECT_NO_THROW((void)codegen::lower_kernel(removed, removed.launch));
            ++checked;
        }
    }
    EXPECT_GE(checked, 40);
}
