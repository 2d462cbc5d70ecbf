// UIPICK generation: the Cartesian products of sec. 7.1's examples, determinism, the written
// files parse back to the same kernels, every variant of the whole collection passes
// kerncast's own checks (the exact counts of `kerncast count` and the CUDA of `kerncast
// codegen`), and the microbenchmarks contain exactly the work they are designed for.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/kernel_writer.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

Generation generate(const std::vector<std::string>& tags,
                    MatchCondition condition = MatchCondition::superset) {
    return generate_kernels(all_generators(), parse_filter_tags(tags), condition);
}

const std::vector<std::string> paper_tags = {
    "matmul_sq",  "dtype:float32",   "prefetch:True",        "lsize_0:16",
    "lsize_1:16", "groups_fit:True", "n:2048,2560,3072,3584"};

ErrorKind error_kind_of(const std::vector<std::string>& tags) {
    try {
        (void)generate(tags);
    } catch (const Error& e) {
        return e.kind();
    }
    return ErrorKind::internal;
}

std::int64_t param(const kernel::KernelSpec& spec, const std::string& name) {
    return spec.find_param(name)->default_value;
}

} // namespace

// Sec. 7.1: "four measurement kernels will be generated ... all four kernels produced will
// perform the same square matmul with a different value of n".
TEST(KernelCollection, PaperExampleGivesFourKernels) {
    const Generation g = generate(paper_tags);
    ASSERT_EQ(g.kernels.size(), 4u);
    EXPECT_EQ(g.matched_generators, std::vector<std::string>{"matmul_sq"});
    const std::vector<std::int64_t> sizes = {2048, 2560, 3072, 3584};
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(g.kernels[k].file_name,
                  "matmul_sq.dtype-float32.prefetch-True.lsize_0-16.lsize_1-16.groups_fit-True.n-" +
                      std::to_string(sizes[k]) + ".yaml");
        EXPECT_EQ(param(g.kernels[k].spec, "n"), sizes[k]);
        EXPECT_NE(g.kernels[k].spec.find_array("a_tile"), nullptr); // prefetching
        EXPECT_EQ(g.kernels[k].spec.launch.block, (std::array<std::int64_t, 3>{16, 16, 1}));
        EXPECT_EQ(g.kernels[k].spec.find_array("a")->dtype, kernel::DataType::f32);
    }
}

// Sec. 7.1: "If we were to omit, for example, the tag prefetch:True, we would instead obtain
// 8 kernels; for each problem size UIPICK would generate one kernel that performs prefetching
// and one that does not."
TEST(KernelCollection, OmittingPrefetchGivesEight) {
    std::vector<std::string> tags = paper_tags;
    tags.erase(tags.begin() + 2);
    const Generation g = generate(tags);
    ASSERT_EQ(g.kernels.size(), 8u);
    int prefetching = 0;
    for (const auto& kernel : g.kernels)
        prefetching += kernel.spec.find_array("a_tile") != nullptr;
    EXPECT_EQ(prefetching, 4);
    // Product order: the first argument varies slowest (prefetch before n).
    EXPECT_EQ(value_of(g.kernels[0].values, "prefetch"), "True");
    EXPECT_EQ(value_of(g.kernels[3].values, "prefetch"), "True");
    EXPECT_EQ(value_of(g.kernels[4].values, "prefetch"), "False");
    EXPECT_EQ(value_of(g.kernels[4].values, "n"), "2048");
}

TEST(KernelCollection, CartesianProductOfAllowedValues) {
    // gmem_pattern: dtype 2 x lsize_0 1 x lsize_1 1 x layout 2 x narrays 2 x n 2 by default.
    const Generator& gmem = all_generators().front();
    ASSERT_EQ(gmem.name, "gmem_pattern");
    EXPECT_EQ(expand_variants(gmem, parse_filter_tags({})).size(), 16u);
    // Narrowed: 1 x 1 x 1 x 2 x 3 x 1.
    const auto variants = expand_variants(
        gmem, parse_filter_tags({"dtype:float64", "narrays:1,3,4", "n:1024", "lsize_0:32"}));
    ASSERT_EQ(variants.size(), 6u);
    EXPECT_EQ(variants[0], (VariantValues{{"dtype", "float64"},
                                          {"lsize_0", "32"},
                                          {"lsize_1", "16"},
                                          {"layout", "xfast"},
                                          {"narrays", "1"},
                                          {"n", "1024"}}));
    EXPECT_EQ(value_of(variants[5], "layout"), "yfast");
    EXPECT_EQ(value_of(variants[5], "narrays"), "4");
    // A value the generator does not accept is dropped; here it leaves no variant at all.
    EXPECT_TRUE(expand_variants(gmem, parse_filter_tags({"narrays:9"})).empty());
}

TEST(KernelCollection, TagErrors) {
    // An argument of no matching generator, a value that no matching generator accepts, no
    // generator (matmul_sq has no 'nelements'; finite_diff takes no float128).
    EXPECT_EQ(error_kind_of({"matmul_sq", "nelements:5"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"finite_diff", "dtype:float128"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"matmul_sq", "n:-5"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"matmul_sq", "groups_fit:False"}), ErrorKind::usage);
    EXPECT_TRUE(generate({"no_such_generator"}).matched_generators.empty());
}

TEST(KernelCollection, SkippedVariantsSayWhy) {
    const Generation g = generate(
        {"matmul_sq", "lsize_0:16,32", "lsize_1:16", "n:2048", "dtype:float32", "prefetch:True"});
    ASSERT_EQ(g.kernels.size(), 1u);
    ASSERT_EQ(g.skipped.size(), 1u);
    EXPECT_EQ(value_of(g.skipped[0].values, "lsize_0"), "32");
    EXPECT_NE(g.skipped[0].reason.find("lsize_0 == lsize_1"), std::string::npos);
    // A whole generator without an accepted value: matmul_sq_gmem keeps a, b or c, not u.
    const Generation h =
        generate({"matmul_sq_gmem", "dg_diff_gmem", "keep:u", "variant:1", "nelements:65536"},
                 MatchCondition::intersect);
    EXPECT_EQ(h.kernels.size(), 1u);
    ASSERT_EQ(h.skipped.size(), 1u);
    EXPECT_EQ(h.skipped[0].generator, "matmul_sq_gmem");
    EXPECT_NE(h.skipped[0].reason.find("'keep' (it takes a, b, c)"), std::string::npos);
}

TEST(KernelCollection, DeterministicAndRoundTrips) {
    const Generation first = generate({});
    const Generation second = generate({});
    ASSERT_EQ(first.kernels.size(), second.kernels.size());
    ASSERT_GE(first.kernels.size(), 100u);
    std::set<std::string> names;
    for (size_t k = 0; k < first.kernels.size(); ++k) {
        const auto& kernel = first.kernels[k];
        SCOPED_TRACE(kernel.file_name);
        EXPECT_EQ(kernel.file_name, second.kernels[k].file_name);
        EXPECT_EQ(kernel.yaml, second.kernels[k].yaml);
        EXPECT_TRUE(names.insert(kernel.spec.name).second) << "kernel names are unique";
        const kernel::KernelSpec reread = kernel::parse_kernel_text(kernel.yaml, kernel.file_name);
        EXPECT_EQ(reread.name, kernel.spec.name);
        EXPECT_EQ(kernel::write_kernel_yaml(reread), kernel::write_kernel_yaml(kernel.spec));
    }
}

// What `kerncast count` and `kerncast codegen` do, on every variant of every generator with
// their default values: exact counts at the default parameters, and CUDA source.
TEST(KernelCollection, EveryVariantPassesCountAndCodegen) {
    const Generation g = generate({});
    for (const auto& kernel : g.kernels) {
        SCOPED_TRACE(kernel.file_name);
        const kernel::KernelSpec spec = kernel::parse_kernel_text(kernel.yaml, kernel.file_name);
        const analysis::KernelAnalysis a = analysis::analyze(spec);
        const kernel::BoundKernel bound = analysis::bind(a);
        analysis::check_fold_within_domain(bound);
        const std::vector<std::int64_t>& params = bound.values();
        EXPECT_GT(a.thread_blocks.evaluate(params), 0);
        ASSERT_FALSE(a.accesses.empty());
        for (const auto& access : a.accesses)
            if (access.space == kernel::MemorySpace::global) {
                EXPECT_GT(access.count.evaluate(params), 0) << access.text;
            }
        for (const auto& operation : a.operations)
            EXPECT_GE(operation.count.evaluate(params), 0);
        const codegen::Schedule schedule = codegen::lower_kernel(spec, spec.launch);
        const codegen::GeneratedKernel cuda = codegen::generate_cuda(schedule);
        EXPECT_NE(cuda.cuda_source.find("__global__"), std::string::npos);
    }
}

// Sec. 7.1.2: the AFR-1 global pattern kernels touch every element exactly once, with the
// strides their layout names.
TEST(KernelCollection, GlobalPatternsHaveAfrOneAndTheirStrides) {
    const Generation g = generate({"gmem_pattern", "n:512", "narrays:2", "dtype:float32"});
    ASSERT_EQ(g.kernels.size(), 2u);
    for (const auto& kernel : g.kernels) {
        const bool xfast = value_of(kernel.values, "layout") == "xfast";
        const analysis::KernelAnalysis a = analysis::analyze(kernel.spec);
        const auto params = analysis::bind(a).values();
        ASSERT_EQ(a.accesses.size(), 3u); // in0, in1 loads, out store
        for (const auto& access : a.accesses) {
            EXPECT_EQ(access.count_per_work_item.evaluate(params), 512 * 512);
            EXPECT_EQ(access.footprint_elements.evaluate(params), 512 * 512); // AFR 1
            const auto strides = analysis::access_strides(a, access, params);
            EXPECT_EQ(strides.thread[0], xfast ? 1 : 512);
            EXPECT_EQ(strides.thread[1], xfast ? 512 : 1);
            EXPECT_EQ(strides.block[0], xfast ? 16 : 16 * 512);
            EXPECT_EQ(strides.block[1], xfast ? 16 * 512 : 16);
        }
    }
}

// Exact work of the arithmetic, shared-memory, barrier and empty kernels.
TEST(KernelCollection, MicrobenchmarksContainTheirWork) {
    auto only = [](const std::vector<std::string>& tags) {
        const Generation g = generate(tags);
        EXPECT_EQ(g.kernels.size(), 1u);
        return analysis::analyze(g.kernels.at(0).spec);
    };
    const std::int64_t n = 8192, m = 10, subgroups = n / 32;
    {
        const auto a =
            only({"flops_madd_pattern", "dtype:float32", "nelements:8192", "m:10", "unroll:2"});
        const auto params = analysis::bind(a).values();
        std::int64_t madd = -1, add = -1, mul = -1;
        for (const auto& op : a.operations) {
            if (op.dtype != kernel::DataType::f32)
                continue;
            if (op.operation == "madd")
                madd = op.count.evaluate(params);
            if (op.operation == "add")
                add = op.count.evaluate(params);
            if (op.operation == "mul")
                mul = op.count.evaluate(params);
        }
        // 32 chains x 2 updates x m iterations per work-item, counted per sub-group; the adds
        // also count 31 for the initial values and 31 for the final sum.
        EXPECT_EQ(madd, subgroups * m * 64);
        EXPECT_EQ(mul, subgroups * m * 64);
        EXPECT_EQ(add, subgroups * (m * 64 + 31 + 31));
        ASSERT_EQ(a.accesses.size(), 2u); // x load, y store: private variables are registers
    }
    {
        const auto a = only({"lmem_pattern", "dtype:float32", "nelements:8192", "m:10", "rows:8"});
        const auto params = analysis::bind(a).values();
        std::int64_t shared_loads = 0, shared_stores = 0;
        for (const auto& access : a.accesses)
            if (access.space == kernel::MemorySpace::shared)
                (access.direction == analysis::Direction::load ? shared_loads : shared_stores) +=
                    access.count.evaluate(params);
        EXPECT_EQ(shared_loads, subgroups * (m * 8 + 1));  // 8 moves per iteration, final read
        EXPECT_EQ(shared_stores, subgroups * (m * 8 + 8)); // and the 8 initial stores
        std::int64_t barriers = 0;
        for (const auto& barrier : a.barriers)
            barriers += barrier.per_work_item.evaluate(params);
        EXPECT_EQ(barriers, 1 + 2 * m);
    }
    {
        // Sec. 7.4's overlap kernel: one global load and store around m iterations.
        const auto a = only({"lmem_overlap", "nelements:8192", "m:4"});
        const auto params = analysis::bind(a).values();
        std::int64_t shared = 0, global = 0;
        for (const auto& access : a.accesses)
            (access.space == kernel::MemorySpace::shared ? shared : global) +=
                access.count.evaluate(params);
        EXPECT_EQ(global, 2 * n);                                   // x load, y store
        EXPECT_EQ(shared, subgroups * ((4 * 2 + 1) + (4 * 2 + 2))); // 2 moves per iteration
    }
    {
        const auto a = only({"barrier_pattern", "nelements:8192", "m:10", "unroll:3"});
        const auto params = analysis::bind(a).values();
        std::int64_t barriers = 0;
        for (const auto& barrier : a.barriers)
            barriers += barrier.per_work_item.evaluate(params);
        EXPECT_EQ(barriers, 3 * m);
    }
    {
        const auto a = only({"empty_kernel", "ngroups:16"});
        const auto params = analysis::bind(a).values();
        EXPECT_EQ(a.thread_blocks.evaluate(params), 16);
        ASSERT_EQ(a.accesses.size(), 1u);
        EXPECT_EQ(a.accesses[0].count.evaluate(params), 1); // one store in the whole kernel
        EXPECT_TRUE(a.operations.empty());
    }
}

// Sec. 2.2's second tag list: peak madd throughput kernels with a 2048-element row store
// pattern, 4 sizes x 4 iteration counts.
TEST(KernelCollection, PaperFlopsExample) {
    const Generation g =
        generate({"flops_madd_pattern", "dtype:float32", "lsize_0:16", "lsize_1:16",
                  "groups_fit:True", "lid_stride_0:1", "lid_stride_1:2048",
                  "nelements:524288,786432,1048576,1310720", "m:1024,1152,1280,1408"});
    ASSERT_EQ(g.kernels.size(), 16u);
    EXPECT_TRUE(g.skipped.empty());
    const auto& last = g.kernels.back();
    EXPECT_EQ(value_of(last.values, "nelements"), "1310720");
    EXPECT_EQ(value_of(last.values, "m"), "1408");
    const analysis::KernelAnalysis a = analysis::analyze(last.spec);
    const auto params = analysis::bind(a).values();
    for (const auto& access : a.accesses) {
        const auto strides = analysis::access_strides(a, access, params);
        EXPECT_EQ(strides.thread[0], 1);
        EXPECT_EQ(strides.thread[1], 2048);
        EXPECT_EQ(access.count_per_work_item.evaluate(params), 1310720);
        EXPECT_EQ(access.footprint_elements.evaluate(params), 1310720);
    }
    for (const auto& op : a.operations)
        if (op.operation == "madd") {
            EXPECT_EQ(op.count.evaluate(params), 1310720LL / 32 * 1408 * 32 * 4);
        }
}
