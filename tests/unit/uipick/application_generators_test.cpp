// The application generators (Stevens & Klöckner sec. 8) against the hand-written kernels of
// examples/kernels/: at the same sizes, every operation and memory access count, footprint and
// barrier count is equal. And examples/kernels/uipick/ holds what `kerncast gen` writes now.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <tuple>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

const std::string source_dir = KERNCAST_SOURCE_DIR;

using Row = std::tuple<std::string, std::string, std::string, std::int64_t, std::int64_t>;

// Every count of a kernel, independent of names of the kernel and its shared arrays.
std::vector<Row> counts(const kernel::KernelSpec& spec,
                        const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
    const analysis::KernelAnalysis a = analysis::analyze(spec);
    const auto params = analysis::bind(a, overrides).values();
    std::vector<Row> rows;
    for (const auto& op : a.operations)
        rows.emplace_back("op", kernel::data_type_name(op.dtype), op.operation,
                          op.count.evaluate(params), 0);
    for (const auto& access : a.accesses) {
        const bool on_chip = access.space == kernel::MemorySpace::shared;
        rows.emplace_back(on_chip ? "shared" : access.array,
                          analysis::direction_name(access.direction), access.tag,
                          access.count.evaluate(params),
                          on_chip ? 0 : access.footprint_elements.evaluate(params));
    }
    std::int64_t barriers = 0;
    for (const auto& barrier : a.barriers)
        barriers += barrier.per_work_item.evaluate(params);
    rows.emplace_back("barriers", "", "", barriers, a.thread_blocks.evaluate(params));
    std::sort(rows.begin(), rows.end());
    return rows;
}

kernel::KernelSpec generated(const std::vector<std::string>& tags) {
    const Generation g = generate_kernels(all_generators(), parse_filter_tags(tags));
    EXPECT_EQ(g.kernels.size(), 1u);
    return g.kernels.at(0).spec;
}

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(source_dir + "/examples/kernels/" + name + ".yaml");
}

} // namespace

TEST(ApplicationGenerators, MatmulEqualsTheExamples) {
    const auto tiled = generated({"matmul_sq", "dtype:float32", "prefetch:True", "n:512"});
    EXPECT_EQ(counts(tiled, {}), counts(example("matmul_tiled16"), {{"m", 512}, {"l", 512}}));
    const auto naive = generated({"matmul_sq", "dtype:float32", "prefetch:False", "n:2048"});
    EXPECT_EQ(counts(naive, {}), counts(example("matmul_naive"), {}));
}

TEST(ApplicationGenerators, DgDifferentiationEqualsTheExamples) {
    for (int variant = 1; variant <= 4; ++variant) {
        SCOPED_TRACE(variant);
        const auto spec =
            generated({"dg_diff", "variant:" + std::to_string(variant), "nelements:131072"});
        EXPECT_EQ(counts(spec, {}), counts(example("dg_diff_" + std::to_string(variant)), {}));
        EXPECT_EQ(counts(spec, {{"nelements", 4096}, {"nmatrices", 2}}),
                  counts(example("dg_diff_" + std::to_string(variant)),
                         {{"nelements", 4096}, {"nmatrices", 2}}));
    }
}

TEST(ApplicationGenerators, FiniteDifferencesEqualTheExamples) {
    for (int size : {16, 18}) {
        SCOPED_TRACE(size);
        const std::string s = std::to_string(size);
        const auto spec = generated({"finite_diff", "lsize_0:" + s, "lsize_1:" + s, "n:4096"});
        EXPECT_EQ(counts(spec, {}), counts(example("fd5pt_" + s), {}));
        EXPECT_EQ(counts(spec, {{"n", 1000}}), counts(example("fd5pt_" + s), {{"n", 1000}}));
    }
}

// examples/kernels/uipick/*.yaml are exactly the files of the tag sets in gen-tags.txt.
TEST(ApplicationGenerators, UipickExamplesAreCurrent) {
    const std::filesystem::path dir = source_dir + "/examples/kernels/uipick";
    std::ifstream list(dir / "gen-tags.txt");
    ASSERT_TRUE(list.good());
    std::set<std::string> expected_files;
    std::string line;
    while (std::getline(list, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream words(line);
        std::vector<std::string> tags;
        for (std::string tag; words >> tag;)
            tags.push_back(tag);
        for (const auto& kernel :
             generate_kernels(all_generators(), parse_filter_tags(tags)).kernels) {
            expected_files.insert(kernel.file_name);
            std::ifstream file(dir / kernel.file_name);
            ASSERT_TRUE(file.good()) << kernel.file_name << " is missing: run "
                                     << "scripts/regen-uipick-examples";
            std::stringstream text;
            text << file.rdbuf();
            EXPECT_EQ(text.str(), kernel.yaml)
                << kernel.file_name << " is out of date: run scripts/regen-uipick-examples";
        }
    }
    std::set<std::string> present;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".yaml")
            present.insert(entry.path().filename().string());
    EXPECT_EQ(present, expected_files);
    EXPECT_EQ(present.size(), 22u);
}
