// Staged arrays (`stage: shared`) written out for one launch: the tile, the staging statement and
// the rewritten reads, derived by hand for Kernel Tuner's convolution, and the refusals.
#include "../../../src/support/isl_support.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/bound_kernel.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/kernel_writer.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <tuple>

using namespace kerncast;

namespace {

kernel::KernelSpec convolution() {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                    "/examples/autotuning/kt_convolution_shared.yaml");
}

// A small staged kernel: `body` is the statements' text, `domain` the isl set.
std::string staged_kernel(const std::string& domain, const std::string& statements,
                          const std::string& threads = "{x: x, y: y}") {
    return "name: k\nparams: {n: 64}\narrays:\n"
           "  a: {dtype: f32, shape: [n + 8, n + 8], stage: shared}\n"
           "  b: {dtype: f32, shape: [n, n]}\n"
           "domain: \"" +
           domain + "\"\nthreads: " + threads + "\nlaunch: {block: [16, 4]}\nstatements:\n" +
           statements;
}

std::string refusal(const std::string& text, const kernel::LaunchConfig& launch) {
    try {
        const kernel::KernelSpec spec = kernel::parse_kernel_text(text, "k.yaml");
        analysis::stage_in_shared_memory(spec, launch);
    } catch (const Error& e) {
        return e.message();
    }
    return "";
}

const kernel::LaunchConfig block16x4{{16, 4, 1}, {1, 1, 1}};

// staged_kernel(domain, statements) staged at block 16x4.
kernel::KernelSpec staged_at_16x4(const std::string& domain, const std::string& statements) {
    return analysis::stage_in_shared_memory(
        kernel::parse_kernel_text(staged_kernel(domain, statements), "k.yaml"), block16x4);
}

} // namespace

TEST(SharedStaging, ConvolutionTileAtAFoldedLaunch) {
    // Block 32x2, tiles 2 (x) by 4 (y) a block apart: a block covers 64 x 8 outputs and reads
    // rows 0 .. 8 + filter_height - 2 and columns 0 .. 64 + filter_width - 2 of its part of
    // the input, so the tile is (filter_height + 7) x (filter_width + 63); two rows of threads
    // load it row by row, 32 lanes a row, in the first fold instance only.
    const kernel::LaunchConfig launch{{32, 2, 1}, {2, 4, 1}, kernel::FoldPlacement::strided};
    const kernel::KernelSpec staged = analysis::stage_in_shared_memory(convolution(), launch);
    const kernel::ArrayDecl* tile = staged.find_array("input_shared");
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->space, kernel::MemorySpace::shared);
    ASSERT_EQ(tile->shape.size(), 2u);
    EXPECT_EQ(kernel::to_string(*tile->shape[0]), "filter_height + 7");
    EXPECT_EQ(kernel::to_string(*tile->shape[1]), "filter_width + 63");
    EXPECT_FALSE(staged.find_array("input")->stage_in_shared);
    ASSERT_EQ(staged.statements.size(), 3u);
    const kernel::StatementSpec& stage = staged.statements[0];
    EXPECT_EQ(stage.text, "input_shared[2*input_l0 + ty, 32*input_l1 + tx] = "
                          "input[2*input_l0 + y, 32*input_l1 + x]");
    EXPECT_EQ(stage.within, (std::vector<std::string>{"input_l0", "input_l1"}));
    EXPECT_EQ(stage.condition_text, "2*input_l0 + ty < filter_height + 7 && 32*input_l1 + tx < "
                                    "filter_width + 63 && fx == 0 && fy == 0");
    EXPECT_EQ(staged.statements[1].kind, kernel::StatementKind::barrier);
    EXPECT_EQ(kernel::to_string(*staged.statements[2].parsed.value),
              "sum(i, sum(j, input_shared[2 * fy + i + ty, 32 * fx + j + tx] * d_filter[i, j]))");
    EXPECT_EQ(staged.indices.back(), "input_l1");
    EXPECT_EQ(staged.launch, launch);
    // The blocks must tile the image: a requirement with its reason, since the image's size
    // is a parameter; the binding checks it.
    EXPECT_EQ(staged.assumptions.size(), 4u);
    ASSERT_EQ(staged.requirements.size(), 2u);
    EXPECT_EQ(staged.requirements[0].text, "image_width % 64 == 0");
    EXPECT_EQ(staged.requirements[1].text, "image_height % 8 == 0");
    EXPECT_NE(staged.requirements[1].reason.find("along y a block covers 8 points"),
              std::string::npos);
    try {
        kernel::BoundKernel::bind(staged, launch, {{"image_height", 4100}});
        ADD_FAILURE() << "bound a launch whose blocks do not tile the image";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("needs image_height % 8 == 0, which does not hold"),
                  std::string::npos)
            << e.message();
    }
}

TEST(SharedStaging, TheStagedKernelIsAValidKernelFile) {
    // Written out and read back, the staged kernel is the same kernel (every generated text
    // parses, names only what it declares) and has nothing left to stage.
    const kernel::LaunchConfig launch{{16, 8, 1}, {1, 2, 1}};
    const kernel::KernelSpec staged = analysis::stage_in_shared_memory(convolution(), launch);
    const kernel::KernelSpec read =
        kernel::parse_kernel_text(kernel::write_kernel_yaml(staged), "staged.yaml");
    ASSERT_EQ(read.statements.size(), staged.statements.size());
    for (size_t k = 0; k < read.statements.size(); ++k) {
        EXPECT_EQ(read.statements[k].text, staged.statements[k].text);
        EXPECT_EQ(read.statements[k].condition_text, staged.statements[k].condition_text);
    }
    EXPECT_EQ(read.indices, staged.indices);
    EXPECT_EQ(analysis::stage_in_shared_memory(read, launch).statements.size(),
              read.statements.size());
    // The file form of the kernel keeps its mark.
    EXPECT_NE(kernel::write_kernel_yaml(convolution()).find("stage: shared"), std::string::npos);
}

TEST(SharedStaging, ATileLargerThanItsBlockLoopsAndGuards) {
    // Reads a[y + 1, x] and a[y, x + 2] of a 16 x 4 block: rows 0 .. 4, columns 0 .. 17 of
    // the block's part, a 5 x 18 tile: 18 > 16 columns take a loop of two and a guard, and
    // the 5 rows a loop over the 4 thread rows.
    const kernel::KernelSpec staged =
        staged_at_16x4("[n] -> { [y, x] : 0 <= y < n and 0 <= x < n }",
                       "  - \"b[y, x] = a[y + 1, x] + a[y, x + 2]\"\n");
    EXPECT_EQ(kernel::to_string(*staged.find_array("a_shared")->shape[0]), "5");
    EXPECT_EQ(kernel::to_string(*staged.find_array("a_shared")->shape[1]), "18");
    EXPECT_EQ(staged.statements[0].text,
              "a_shared[4*a_l0 + ty, 16*a_l1 + tx] = a[4*a_l0 + y, 16*a_l1 + x]");
    EXPECT_EQ(staged.statements[0].condition_text, "4*a_l0 + ty < 5 && 16*a_l1 + tx < 18");
    EXPECT_EQ(staged.statements[2].text, "b[y, x] = a_shared[ty + 1, tx] + a_shared[ty, tx + 2]");
}

TEST(SharedStaging, ARequirementOnACompoundExtentKeepsItsParentheses) {
    // y runs over 2 .. n - 3: n - 4 values, which 4-high blocks divide at the default n = 64
    // (x's 16-wide ones do not: its blocks are staged whole, below). Without its parentheses
    // "n - 4 % 4 == 0" would hold only at n = 4.
    const kernel::KernelSpec staged = staged_at_16x4(
        "[n] -> { [y, x] : 2 <= y < n - 2 and 2 <= x < n - 2 }", "  - \"b[y, x] = a[y, x]\"\n");
    ASSERT_EQ(staged.requirements.size(), 1u);
    EXPECT_EQ(staged.requirements[0].text, "(n - 4) % 4 == 0");
    EXPECT_NO_THROW(kernel::BoundKernel::bind(staged, block16x4, {{"n", 68}}));
    EXPECT_THROW(kernel::BoundKernel::bind(staged, block16x4, {{"n", 66}}), Error);
}

TEST(SharedStaging, BlocksThatDoNotTileTheDomainAreStagedWhole) {
    // 60 columns in 16-wide blocks: the staged domain takes x over 4 whole blocks (0 .. 63),
    // the kernel file's statement keeps x's own bound as a guard, and the staging (a tile of
    // 4 x 16, a[y, x + 2] of each thread) is clipped to the array's n + 8 columns.
    const kernel::KernelSpec staged = staged_at_16x4(
        "[n] -> { [y, x] : 0 <= y < n and 0 <= x < 60 }", "  - \"b[y, x] = a[y, x + 2]\"\n");
    ASSERT_EQ(staged.requirements.size(), 1u); // y: n values in 4-high blocks, at n = 64
    EXPECT_EQ(staged.requirements[0].text, "n % 4 == 0");
    EXPECT_EQ(staged.statements[2].condition_text, "x <= 59");
    EXPECT_EQ(staged.statements[0].condition_text,
              "0 <= y && y < n + 8 && 0 <= x + 2 && x + 2 < n + 8");
    kerncast::isl::Context ctx;
    const ::isl::set domain = kerncast::isl::parse_set(ctx, staged.domain);
    EXPECT_EQ(kerncast::isl::to_int64(domain.dim_max_val(1).get()), 63);
}

TEST(SharedStaging, AFoldLargerThanTheDomainIsRefusedAsUnstaged) {
    // 60 columns, fold 64: the unstaged kernel's fold check refuses it; the staged domain,
    // extended to whole blocks, would take it, so the staging refuses it alike.
    const std::string text =
        "name: f\nparams: {n: 60}\narrays:\n  a: {dtype: f32, shape: [n + 1], stage: shared}\n"
        "  b: {dtype: f32, shape: [n]}\ndomain: \"[n] -> { [x] : 0 <= x < 60 }\"\n"
        "threads: {x: x}\nstatements:\n  - \"b[x] = a[x] + a[x + 1]\"\n";
    EXPECT_NE(refusal(text, {{1, 1, 1}, {64, 1, 1}})
                  .find("the fold 64 along x is larger than the "
                        "domain, whose index x takes 60 values"),
              std::string::npos);
    EXPECT_EQ(refusal(text, {{1, 1, 1}, {48, 1, 1}}), ""); // partial blocks, staged whole
}

TEST(SharedStaging, PerPointFiguresCountTheKernelFilesPoints) {
    // 48-wide blocks over 4096 columns: the staged domain reaches 86 x 48 = 4128 columns, but
    // the launch computes the file's 4096 x 4096 points, as the plain kernel does; its floating
    // point work a point and its DRAM stores a point are the plain kernel's.
    const MachineModel machine = builtin_machine("a100-sxm4-40gb");
    const kernel::LaunchConfig launch{{48, 2, 1}, {1, 1, 1}};
    const models::VolumePrediction staged =
        models::predict_launch(convolution(), launch, {}, machine);
    const models::VolumePrediction plain = models::predict_launch(
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/kt_convolution.yaml"),
        launch, {}, machine);
    EXPECT_EQ(plain.points, 4096 * 4096);
    EXPECT_EQ(staged.points, plain.points);
    EXPECT_DOUBLE_EQ(staged.fp.flops_per_point, plain.fp.flops_per_point);
    EXPECT_DOUBLE_EQ(staged.dram_store_bytes, plain.dram_store_bytes);
}

TEST(SharedStaging, AnArrayNoStatementReadsIsLeftAsItIs) {
    const kernel::KernelSpec staged =
        staged_at_16x4("[n] -> { [y, x] : 0 <= y < n and 0 <= x < n }", "  - \"b[y, x] = 1\"\n");
    EXPECT_EQ(staged.statements.size(), 1u);
    EXPECT_EQ(staged.find_array("a_shared"), nullptr);
    EXPECT_FALSE(staged.find_array("a")->stage_in_shared);
}

TEST(SharedStaging, RefusesKernelsItCannotStageAtEveryLaunch) {
    const std::string box = "[n] -> { [y, x] : 0 <= y < n and 0 <= x < n }";
    // Written: not an input.
    EXPECT_NE(refusal(staged_kernel(box, "  - \"a[y, x] = b[y, x]\"\n"), block16x4)
                  .find("this statement writes it"),
              std::string::npos);
    // Names the launch: written for one launch.
    EXPECT_NE(refusal(staged_kernel(box, "  - \"b[y, x] = a[y, x + tx]\"\n"), block16x4)
                  .find("names the launch index 'tx'"),
              std::string::npos);
    // Reads that move apart as the block moves: no tile of one size.
    EXPECT_NE(refusal(staged_kernel("[n] -> { [y, x] : 0 <= y < n and 0 <= x < n }",
                                    "  - \"b[y, x] = a[y, 2*x] + a[y, x]\"\n"),
                      block16x4)
                  .find("move differently with the block along dimension 1"),
              std::string::npos);
    // A triangle: threads of a block lie outside the domain.
    EXPECT_NE(refusal(staged_kernel("[n] -> { [y, x] : 0 <= y < n and 0 <= x <= y }",
                                    "  - \"b[y, x] = a[y, x]\"\n"),
                      block16x4)
                  .find("do not span a box"),
              std::string::npos);
    // Blocks that do not tile x (60 columns, 16-wide blocks) where x bounds another index.
    EXPECT_NE(refusal(staged_kernel("[n] -> { [y, x, k] : 0 <= y < n and 0 <= x < 60 and 0 <= "
                                    "k <= x }",
                                    "  - \"b[y, x] = sum(k, a[y, k])\"\n"),
                      block16x4)
                  .find("the domain's thread-mapped indices bound its other indices"),
              std::string::npos);
    // Only global arrays, and only `stage: shared`.
    std::string shared = staged_kernel(box, "  - \"b[y, x] = a[y, x]\"\n");
    shared.replace(shared.find("stage: shared"), 13, "space: shared, stage: shared");
    EXPECT_NE(refusal(shared, block16x4).find("only a global array can be staged"),
              std::string::npos);
    std::string other = staged_kernel(box, "  - \"b[y, x] = a[y, x]\"\n");
    other.replace(other.find("stage: shared"), 13, "stage: registers");
    EXPECT_NE(refusal(other, block16x4).find("stage must be 'shared'"), std::string::npos);
}

TEST(SharedStaging, StagedConvolutionCountsWhatTheHandWrittenTileCounts) {
    // At block 16x16 and a 17 x 17 filter the staged kernel is kt_convolution_shared16.yaml's
    // hand-written tile (32 x 32, four loads a thread): the same accesses, counts and
    // operations.
    const kernel::KernelSpec hand = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/examples/autotuning/kt_convolution_shared16.yaml");
    const analysis::KernelAnalysis by_hand = analysis::analyze(hand);
    const analysis::KernelAnalysis staged =
        analysis::analyze(convolution(), kernel::LaunchConfig{{16, 16, 1}, {1, 1, 1}});
    const std::vector<std::int64_t> values{4096, 4096, 17, 17}; // staged: with the filter
    const std::vector<std::int64_t> hand_values{4096, 4096};
    ASSERT_EQ(staged.accesses.size(), by_hand.accesses.size());
    for (size_t k = 0; k < staged.accesses.size(); ++k) {
        const analysis::AccessInfo& a = staged.accesses[k];
        const analysis::AccessInfo& b = by_hand.accesses[k];
        EXPECT_EQ(a.space, b.space) << a.text;
        EXPECT_EQ(a.direction, b.direction) << a.text;
        EXPECT_EQ(a.count.evaluate(values), b.count.evaluate(hand_values)) << a.text;
        EXPECT_EQ(a.footprint_elements.evaluate(values), b.footprint_elements.evaluate(hand_values))
            << a.text;
    }
    ASSERT_EQ(staged.operations.size(), by_hand.operations.size());
    for (size_t k = 0; k < staged.operations.size(); ++k)
        EXPECT_EQ(staged.operations[k].count.evaluate(values),
                  by_hand.operations[k].count.evaluate(hand_values));
}

TEST(SharedStaging, TheStagingLoadsFootprintIsTheUnionOfTheTiles) {
    // The analysis counts the staging load's elements over the launch from the union of the
    // blocks' tiles; the oracle images the access's launch-wide domain through its subscripts
    // at the parameter values and counts the points (what it does for any other access).
    const auto hotspot = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                                  "/examples/autotuning/bat_hotspot_shared.yaml");
    using kernel::FoldPlacement;
    const std::vector<
        std::tuple<kernel::KernelSpec, kernel::LaunchConfig, kernel::ParameterOverrides>>
        cases{{convolution(),
               {{32, 2, 1}, {2, 4, 1}, FoldPlacement::strided},
               {{"image_width", 128},
                {"image_height", 32},
                {"filter_width", 5},
                {"filter_height", 5}}},
              {convolution(),
               {{16, 4, 1}, {1, 1, 1}},
               {{"image_width", 64},
                {"image_height", 8},
                {"filter_width", 17},
                {"filter_height", 3}}},
              {hotspot,
               {{32, 2, 1}, {2, 3, 1}, FoldPlacement::strided},
               {{"grid_width", 128}, {"grid_height", 24}}},
              // Blocks that do not tile the image (48 columns, 6 rows at the default 4096):
              // staged whole, their tiles clipped to the input.
              {convolution(),
               {{16, 2, 1}, {3, 3, 1}, FoldPlacement::strided},
               {{"image_width", 100},
                {"image_height", 50},
                {"filter_width", 5},
                {"filter_height", 5}}}};
    for (const auto& [spec, launch, values] : cases) {
        const analysis::KernelAnalysis a = analysis::analyze(spec, launch);
        const kernel::BoundKernel bound = analysis::bind(a, values);
        const analysis::AccessInfo& load = a.accesses.front();
        ASSERT_EQ(load.space, kernel::MemorySpace::global);
        ASSERT_FALSE(a.spec.statements[0].staged_elements.empty());
        kerncast::isl::Context ctx;
        std::vector<std::string> subscripts;
        for (const kernel::AffineForm& s : load.subscripts)
            subscripts.push_back(s.to_string());
        std::string params;
        for (const auto& [name, value] : bound.named_values())
            params += (params.empty() ? "" : ", ") + name;
        const ::isl::map map = kerncast::isl::parse_map(
            ctx, "[" + params + "] -> { [" +
                     fmt::format("{}", fmt::join(load.domain_variables, ", ")) + "] -> [" +
                     fmt::format("{}", fmt::join(subscripts, ", ")) + "] }");
        ::isl::set image = kerncast::isl::parse_set(ctx, load.domain).apply(map);
        for (const auto& [name, value] : bound.named_values()) {
            // The position first: the order in which a call's arguments are evaluated is
            // unspecified, and release() empties the set.
            const int position = isl_set_find_dim_by_name(image.get(), isl_dim_param, name.c_str());
            image = ::isl::manage(
                isl_set_fix_si(image.release(), isl_dim_param, position, static_cast<int>(value)));
        }
        EXPECT_EQ(load.footprint_elements.evaluate(bound.values()),
                  kerncast::isl::count_points(ctx, image))
            << spec.name;
    }
}

TEST(SharedStaging, TheStagingIsJudgedAtTheValuesItIsBoundTo) {
    // 64-wide blocks tile the 4096 columns of the defaults, not 4100: judged at the defaults the
    // launch needs image_width % 64 == 0 and a binding at 4100 is refused; judged at 4100 the
    // blocks are staged whole (65 of them along x, the last one clipped) and the binding holds.
    const kernel::LaunchConfig launch{{64, 2, 1}, {1, 1, 1}};
    const kernel::ParameterOverrides values{{"image_width", 4100}};
    const analysis::KernelAnalysis at_defaults = analysis::analyze(convolution(), launch);
    EXPECT_THROW(analysis::bind(at_defaults, values), Error);
    const kernel::KernelSpec judged = analysis::staging_judged_at(convolution(), values);
    EXPECT_EQ(judged.find_param("image_width")->default_value, 4100);
    EXPECT_EQ(judged.find_param("image_height")->default_value, 4096);
    const analysis::KernelAnalysis analysis = analysis::analyze(judged, launch);
    EXPECT_FALSE(analysis.spec.points_domain.empty());
    const kernel::BoundKernel bound = analysis::bind(analysis, values);
    EXPECT_EQ(analysis.thread_blocks.evaluate(bound.values()), 65 * (4096 / 2));
    // A kernel that stages nothing keeps its defaults.
    const kernel::KernelSpec plain =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/kt_convolution.yaml");
    EXPECT_EQ(analysis::staging_judged_at(plain, values).find_param("image_width")->default_value,
              plain.find_param("image_width")->default_value);
}
