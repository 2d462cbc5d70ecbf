// The CPU reference interpreter against results computed by hand-written loops on the same
// deterministic inputs (runtime/deterministic_init.hpp), on small sizes.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/half.hpp"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
}

kernel::KernelSpec autotuning_example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/" + name + ".yaml");
}

float input_f32(const char* array, std::int64_t element) {
    return runtime::initial_f32(runtime::buffer_seed(array), static_cast<std::uint64_t>(element));
}
double input_f64(const char* array, std::int64_t element) {
    return runtime::initial_f64(runtime::buffer_seed(array), static_cast<std::uint64_t>(element));
}

// Naive matmul of the hashed a (n x m) and b (m x l), in double.
std::vector<double> matmul(const char* a, const char* b, int n, int m, int l) {
    std::vector<double> c(static_cast<size_t>(n * l));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < l; ++j) {
            double sum = 0;
            for (int k = 0; k < m; ++k)
                sum += double(input_f32(a, i * m + k)) * double(input_f32(b, k * l + j));
            c[static_cast<size_t>(i * l + j)] = sum;
        }
    return c;
}

void expect_close(const std::vector<double>& actual, const std::vector<double>& expected,
                  double tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t k = 0; k < actual.size(); ++k)
        ASSERT_NEAR(actual[k], expected[k], tolerance) << "element " << k;
}

} // namespace

TEST(ReferenceInterpreter, MatmulNaive) {
    const auto spec = example("matmul_naive");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 32}});
    const ReferenceResult r = run_reference(s);
    // f32 stores of f32 sums of 32 products of values in [-1, 1): the accumulator is f32.
    expect_close(r.buffers.at("c"), matmul("a", "b", 32, 32, 32), 1e-4);
    // Inputs are untouched.
    EXPECT_EQ(r.buffers.at("a")[5], double(input_f32("a", 5)));
}

// A fold keeps what a kernel computes under either placement: a ragged grid (48 columns, 32 a
// block; 48 rows, 12 a block) at 2 x 3 points a thread, consecutive and block-cyclic.
TEST(ReferenceInterpreter, FoldedMatmulEqualsTheProductUnderBothPlacements) {
    const auto spec = example("matmul_naive");
    const auto expected = matmul("a", "b", 48, 48, 48);
    for (const auto placement :
         {kernel::FoldPlacement::consecutive, kernel::FoldPlacement::strided}) {
        SCOPED_TRACE(kernel::fold_placement_name(placement));
        const kernel::LaunchConfig launch{{16, 4, 1}, {2, 3, 1}, placement};
        const Schedule s = lower_kernel(spec, launch, {{"n", 48}});
        EXPECT_EQ(s.grid, (kernel::Dim3{2, 4, 1}));
        expect_close(run_reference(s).buffers.at("c"), expected, 1e-4);
    }
}

// The autotuning examples (examples/autotuning) compute the same at their file's launch, at
// strided and consecutive folds of 2 x 2 (or 3 along x) and unfolded, on small sizes with
// ragged blocks.
TEST(ReferenceInterpreter, AutotuningExamplesComputeTheSameUnderEveryFold) {
    const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::int64_t>>>>
        examples{{"kt_convolution",
                  {{"image_width", 37},
                   {"image_height", 21},
                   {"filter_width", 5},
                   {"filter_height", 3}}},
                 {"kt_matmul", {{"width", 40}}},
                 {"kt_pnpoly", {{"n", 300}, {"vertices", 7}}},
                 {"kt_stencil", {{"domain_width", 45}, {"domain_height", 19}}},
                 {"kt_transpose", {{"h", 19}, {"w", 45}}},
                 {"kt_vector_add", {{"n", 333}}},
                 {"ktt_bicg_q", {{"nx", 70}, {"ny", 9}}},
                 {"ktt_bicg_s", {{"nx", 9}, {"ny", 70}}},
                 {"ktt_coulomb_sum_aos", {{"grid_size", 11}, {"atoms", 5}}},
                 {"ktt_coulomb_sum_soa", {{"grid_size", 11}, {"atoms", 5}}},
                 {"bat_hotspot", {{"grid_width", 37}, {"grid_height", 21}}}};
    for (const auto& [name, params] : examples) {
        SCOPED_TRACE(name);
        const auto spec =
            kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/" + name + ".yaml");
        const bool two_d = !spec.threads.global[1].empty();
        const bool three_d = !spec.threads.global[2].empty();
        const kernel::Dim3 block = three_d ? kernel::Dim3{4, 2, 2}
                                   : two_d ? kernel::Dim3{8, 4, 1}
                                           : kernel::Dim3{32, 1, 1};
        const kernel::Dim3 fold = three_d ? kernel::Dim3{1, 2, 3}
                                  : two_d ? kernel::Dim3{2, 2, 1}
                                          : kernel::Dim3{3, 1, 1};
        const auto unfolded = run_reference(lower_kernel(spec, {block, {1, 1, 1}}, params));
        for (const kernel::LaunchConfig& launch :
             {spec.launch, kernel::LaunchConfig{block, fold, kernel::FoldPlacement::strided},
              kernel::LaunchConfig{block, fold}}) {
            const auto folded = run_reference(lower_kernel(spec, launch, params));
            for (const auto& [array, values] : unfolded.buffers)
                expect_close(folded.buffers.at(array), values, 1e-9);
        }
    }
}

TEST(ReferenceInterpreter, StagedConvolutionComputesThePlainOne) {
    // The shared-memory-staged convolution (its one launch, block 16x16) against the
    // plain-global one on the same inputs: the same 17 x 17 filter over a 48 x 32 image.
    const auto staged = autotuning_example("kt_convolution_shared16");
    const auto plain = autotuning_example("kt_convolution");
    const auto staged_out = run_reference(
        lower_kernel(staged, staged.launch, {{"image_width", 48}, {"image_height", 32}}));
    const auto plain_out = run_reference(lower_kernel(
        plain, {{16, 16, 1}, {1, 1, 1}},
        {{"image_width", 48}, {"image_height", 32}, {"filter_width", 17}, {"filter_height", 17}}));
    ASSERT_EQ(staged_out.buffers.at("output").size(), 48u * 32u);
    expect_close(staged_out.buffers.at("output"), plain_out.buffers.at("output"), 1e-9);
}

TEST(ReferenceInterpreter, StagedArraysComputeWhatTheKernelComputes) {
    // kt_convolution_shared.yaml is kt_convolution.yaml with its input staged in shared memory
    // (`stage: shared`): at every launch, folded either way, whole blocks or not, the staged
    // kernel kerncast writes out computes the plain one's output (a 5 x 5 filter over a 64 x 32
    // image).
    const auto staged = autotuning_example("kt_convolution_shared");
    const auto plain = autotuning_example("kt_convolution");
    const kernel::ParameterOverrides values{
        {"image_width", 64}, {"image_height", 32}, {"filter_width", 5}, {"filter_height", 5}};
    using kernel::FoldPlacement;
    for (const kernel::LaunchConfig& launch :
         {kernel::LaunchConfig{{16, 16, 1}, {1, 1, 1}},
          kernel::LaunchConfig{{32, 2, 1}, {2, 4, 1}, FoldPlacement::strided},
          kernel::LaunchConfig{{8, 4, 1}, {2, 2, 1}, FoldPlacement::consecutive},
          kernel::LaunchConfig{{64, 1, 1}, {1, 2, 1}, FoldPlacement::strided},
          // Blocks that do not tile the 64 x 32 image (48 and 3 x 16 columns, 3 rows).
          kernel::LaunchConfig{{48, 2, 1}, {1, 1, 1}},
          kernel::LaunchConfig{{16, 1, 1}, {3, 3, 1}, FoldPlacement::strided},
          kernel::LaunchConfig{{16, 2, 1}, {3, 1, 1}, FoldPlacement::consecutive}}) {
        const auto staged_out = run_reference(lower_kernel(staged, launch, values));
        const auto plain_out = run_reference(lower_kernel(plain, launch, values));
        ASSERT_EQ(staged_out.buffers.at("output").size(), 64u * 32u);
        expect_close(staged_out.buffers.at("output"), plain_out.buffers.at("output"), 1e-9);
    }
    // A 3-D stencil of range 4 with its source staged, folded along z (consecutive points).
    const auto star = example("star3d_r4");
    std::ifstream file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const std::string plain_src = "src: {dtype: f64, shape: [nz, ny, nx], offset: 4}";
    ASSERT_NE(text.find(plain_src), std::string::npos);
    text.replace(text.find(plain_src), plain_src.size(),
                 "src: {dtype: f64, shape: [nz, ny, nx], offset: 4, stage: shared}");
    const auto star_staged = kernel::parse_kernel_text(text, "star3d_r4_staged.yaml");
    const kernel::ParameterOverrides box{{"nx", 40}, {"ny", 16}, {"nz", 16}};
    const kernel::LaunchConfig star_launch{{16, 4, 2}, {1, 1, 2}};
    expect_close(run_reference(lower_kernel(star_staged, star_launch, box)).buffers.at("dst"),
                 run_reference(lower_kernel(star, star_launch, box)).buffers.at("dst"), 1e-12);
    // The hotspot step with its temperature staged (a halo of one around the block's points).
    const auto hotspot = autotuning_example("bat_hotspot_shared");
    const auto hotspot_plain = autotuning_example("bat_hotspot");
    const kernel::ParameterOverrides grid{{"grid_width", 64}, {"grid_height", 24}};
    const kernel::LaunchConfig launch{{32, 2, 1}, {2, 3, 1}, FoldPlacement::strided};
    expect_close(run_reference(lower_kernel(hotspot, launch, grid)).buffers.at("temp_dst"),
                 run_reference(lower_kernel(hotspot_plain, launch, grid)).buffers.at("temp_dst"),
                 1e-9);
}

TEST(ReferenceInterpreter, StagedReadsOfEveryShapeComputeTheUnstagedKernel) {
    // Small kernels read through strided, reversed and offset subscripts and inside a
    // reduction, two arrays staged at once: staged and unstaged, the same outputs.
    struct Case {
        std::string arrays, domain, threads, statement; // statement: a YAML list item
        kernel::ParameterOverrides values;
        std::vector<kernel::LaunchConfig> launches;
    };
    using kernel::FoldPlacement;
    const std::vector<Case> cases{
        {"  a: {dtype: f32, shape: [n]STAGE}\n  b: {dtype: f32, shape: [n]}\n",
         "[n] -> { [x] : 0 <= x < n }",
         "{x: x}",
         "{do: \"b[x] = a[x - 1] + a[x]\", where: \"x >= 1\"}", // clipped at a[-1]
         {{"n", 128}},
         {{{32, 1, 1}, {1, 1, 1}}, {{32, 1, 1}, {2, 1, 1}, FoldPlacement::strided}}},
        {"  a: {dtype: f32, shape: [2*n + 1]STAGE}\n  b: {dtype: f32, shape: [n]}\n",
         "[n] -> { [x] : 0 <= x < n }",
         "{x: x}",
         "\"b[x] = a[2*x] + a[2*x + 1] - a[2*x + 2]\"",
         {{"n", 128}},
         {{{32, 1, 1}, {1, 1, 1}},
          {{64, 1, 1}, {2, 1, 1}, FoldPlacement::strided},
          {{32, 1, 1}, {4, 1, 1}}}},
        {"  a: {dtype: f32, shape: [n + 3]STAGE}\n  b: {dtype: f32, shape: [n]}\n",
         "[n] -> { [x] : 0 <= x < n }",
         "{x: x}",
         "\"b[x] = a[n + 2 - x] * a[n - x]\"",
         {{"n", 96}},
         {{{32, 1, 1}, {1, 1, 1}}, {{16, 1, 1}, {2, 1, 1}, FoldPlacement::strided}}},
        {"  a: {dtype: f32, shape: [n, n]STAGE}\n  w: {dtype: f32, shape: [n, n]STAGE}\n"
         "  c: {dtype: f32, shape: [n, n]}\n",
         "[n] -> { [y, x, k] : 0 <= y < n and 0 <= x < n and 0 <= k < n }",
         "{x: x, y: y}",
         "\"c[y, x] = sum(k, a[y, k] * w[k, x])\"",
         {{"n", 16}},
         {{{8, 4, 1}, {1, 1, 1}},
          {{4, 2, 1}, {2, 2, 1}, FoldPlacement::strided},
          {{8, 2, 1}, {1, 2, 1}}}}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.statement);
        const auto kernel_of = [&](const std::string& stage) {
            std::string arrays = c.arrays;
            for (size_t at; (at = arrays.find("STAGE")) != std::string::npos;)
                arrays.replace(at, 5, stage);
            return kernel::parse_kernel_text(
                "name: k\nparams: {n: 8}\narrays:\n" + arrays + "domain: \"" + c.domain +
                    "\"\nthreads: " + c.threads + "\nstatements:\n  - " + c.statement + "\n",
                "k.yaml");
        };
        const auto staged = kernel_of(", stage: shared");
        const auto plain = kernel_of("");
        const std::string output = plain.statements[0].parsed.target->name;
        for (const kernel::LaunchConfig& launch : c.launches) {
            SCOPED_TRACE(kernel::fold_text(launch));
            ASSERT_NE(analysis::analyze(staged, launch).spec.find_array("a_shared"), nullptr);
            expect_close(run_reference(lower_kernel(staged, launch, c.values)).buffers.at(output),
                         run_reference(lower_kernel(plain, launch, c.values)).buffers.at(output),
                         1e-9);
        }
    }
}

TEST(ReferenceInterpreter, MatmulTiledEqualsTheNaiveProduct) {
    // Shared-memory tiles, two barriers per k tile: the tile loop must be fused for this to
    // hold (a wrong schedule multiplies only the last tile).
    const auto spec = example("matmul_tiled16");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 32}, {"m", 48}, {"l", 16}});
    expect_close(run_reference(s).buffers.at("c"), matmul("a", "b", 32, 48, 16), 1e-4);
}

TEST(ReferenceInterpreter, HongKimMatmulEqualsTheNaiveProduct) {
    const auto spec = example("hk_matmul");
    const Schedule s = lower_kernel(spec, spec.launch, {{"hM", 32}, {"wM", 32}, {"wN", 16}});
    expect_close(run_reference(s).buffers.at("P"), matmul("M", "N", 32, 32, 16), 1e-4);
}

TEST(ReferenceInterpreter, DgDifferentiationVariantsAgree) {
    // res[m, k, i] = sum(j, diff_mat[m, i, j] * u[k, j]) (Stevens & Klöckner 8.4); variant 4
    // stores u and res transposed.
    const int nel = 32, nm = 3, nn = 32;
    std::vector<double> expected(static_cast<size_t>(nm * nel * nn)), transposed(expected.size());
    for (int m = 0; m < nm; ++m)
        for (int k = 0; k < nel; ++k)
            for (int i = 0; i < nn; ++i) {
                double sum = 0, sum_t = 0;
                for (int j = 0; j < nn; ++j) {
                    sum += double(input_f32("diff_mat", (m * nn + i) * nn + j)) *
                           double(input_f32("u", k * nn + j));
                    sum_t += double(input_f32("diff_mat", (m * nn + i) * nn + j)) *
                             double(input_f32("u", j * nel + k));
                }
                expected[static_cast<size_t>((m * nel + k) * nn + i)] = sum;
                transposed[static_cast<size_t>((m * nn + i) * nel + k)] = sum_t;
            }
    const std::vector<std::pair<std::string, std::int64_t>> params{{"nelements", nel},
                                                                   {"nunit_nodes", nn}};
    for (const char* variant : {"dg_diff_1", "dg_diff_2", "dg_diff_3"}) {
        SCOPED_TRACE(variant);
        const auto spec = example(variant);
        expect_close(run_reference(lower_kernel(spec, spec.launch, params)).buffers.at("res"),
                     expected, 1e-4);
    }
    const auto spec4 = example("dg_diff_4");
    expect_close(run_reference(lower_kernel(spec4, spec4.launch, params)).buffers.at("res"),
                 transposed, 1e-4);
}

TEST(ReferenceInterpreter, FiniteDifferenceHaloTiles) {
    // res[i, j] = u[i, j+1] + u[i+1, j] - 4 u[i+1, j+1] + u[i+1, j+2] + u[i+2, j+1] (8.5) for
    // every i, j < n, both tile sizes; n = 20 is not a multiple of 14 or 16 (partial tiles).
    const int n = 20, w = n + 2;
    auto u = [&](int i, int j) { return double(input_f32("u", i * w + j)); };
    for (const char* variant : {"fd5pt_16", "fd5pt_18"}) {
        SCOPED_TRACE(variant);
        const auto spec = example(variant);
        const auto res =
            run_reference(lower_kernel(spec, spec.launch, {{"n", n}})).buffers.at("res");
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                ASSERT_NEAR(res[static_cast<size_t>(i * n + j)],
                            u(i, j + 1) + u(i + 1, j) - 4 * u(i + 1, j + 1) + u(i + 1, j + 2) +
                                u(i + 2, j + 1),
                            1e-5)
                    << i << "," << j;
    }
}

TEST(ReferenceInterpreter, Star2dWithPrivateCoefficientsAndPartialBlocks) {
    // c0, c1 are private scalars that start with the hash of (name, 0); points outside the
    // interior keep their initial values.
    const int nx = 300, ny = 7;
    const auto spec = example("star2d_r1");
    const auto dst =
        run_reference(lower_kernel(spec, spec.launch, {{"nx", nx}, {"ny", ny}})).buffers.at("dst");
    const double c0 = input_f64("c0", 0), c1 = input_f64("c1", 0);
    auto src = [&](int y, int x) { return input_f64("src", y * nx + x); };
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const bool interior = x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1;
            const double expected =
                interior ? c0 * src(y, x) +
                               c1 * (src(y, x - 1) + src(y, x + 1) + src(y - 1, x) + src(y + 1, x))
                         : input_f64("dst", y * nx + x);
            ASSERT_NEAR(dst[static_cast<size_t>(y * nx + x)], expected, 1e-12) << y << "," << x;
        }
}

TEST(ReferenceInterpreter, FoldedStar3dWritesEveryInteriorPointOnce) {
    const int nx = 12, ny = 11, nz = 13;
    const auto spec = example("star3d_r4");
    const Schedule s = lower_kernel(spec, spec.launch, {{"nx", nx}, {"ny", ny}, {"nz", nz}});
    const auto dst = run_reference(s).buffers.at("dst");
    const double c[5] = {input_f64("c0", 0), input_f64("c1", 0), input_f64("c2", 0),
                         input_f64("c3", 0), input_f64("c4", 0)};
    auto src = [&](int z, int y, int x) { return input_f64("src", 4 + (z * ny + y) * nx + x); };
    for (int z = 4; z < nz - 4; ++z)
        for (int y = 4; y < ny - 4; ++y)
            for (int x = 4; x < nx - 4; ++x) {
                double expected = c[0] * src(z, y, x);
                for (int r = 1; r <= 4; ++r)
                    expected += c[r] * (src(z, y, x - r) + src(z, y, x + r) + src(z, y - r, x) +
                                        src(z, y + r, x) + src(z - r, y, x) + src(z + r, y, x));
                ASSERT_NEAR(dst[static_cast<size_t>(4 + (z * ny + y) * nx + x)], expected, 1e-12);
            }
    // A boundary point keeps its initial value.
    EXPECT_EQ(dst[4], input_f64("dst", 4));
}

TEST(ReferenceInterpreter, HistogramReadsPackedBytes) {
    // image is u8 [n, 4], packed into u32 words hashed per word: byte b of word w is byte b of
    // initial_integer(seed, w) (values < 1024: bytes 2 and 3 are zero).
    const auto spec = example("histogram");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 256}});
    const ArrayStorage* image = s.find_array("image");
    const auto bytes = initial_buffer_bytes(*image);
    ASSERT_EQ(bytes.size(), 1024u);
    const std::int64_t word3 = runtime::initial_integer(runtime::buffer_seed("image"), 3);
    EXPECT_EQ(bytes[12], word3 & 0xff);
    EXPECT_EQ(bytes[13], (word3 >> 8) & 0xff);
    EXPECT_EQ(bytes[14], 0);
    EXPECT_NO_THROW(run_reference(s)); // every bin index stays inside smem
}

TEST(ReferenceInterpreter, OutOfBoundsAccessIsAnInputError) {
    const char* text = R"yaml(
name: shifted
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n]}, b: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["b[i] = a[i + 1]"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "shifted.yaml");
    try {
        run_reference(lower_kernel(spec, spec.launch));
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        // Refused when the kernel is bound (analysis/array_bounds.hpp), before the interpreter's
        // own check of every element it touches.
        EXPECT_NE(std::string(e.what()).find("'a[i + 1]' reads a[8], outside the array's extents "
                                             "[8] at i = 7"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ReferenceInterpreter, DeviceTestCasesStayInsideTheirBuffers) {
    // The sizes of tests/device/codegen_reference_test.cpp: the reference must run them, and
    // every access stays inside its buffer (an out-of-bounds access is an Error).
    const std::vector<std::pair<const char*, std::vector<std::pair<std::string, std::int64_t>>>>
        cases = {{"box2d_r2", {{"nx", 70}, {"ny", 20}}},
                 {"box2d_r3", {{"nx", 70}, {"ny", 20}}},
                 {"lbm_d3q15_pull", {{"nx", 20}, {"ny", 9}, {"nz", 7}}},
                 {"hk_matmul", {}},
                 {"fd5pt_18", {{"n", 45}}},
                 {"histogram_reordered", {{"n", 5000}}},
                 {"absmax_f32", {{"n", 100000}}},
                 {"colnorm_matvec", {{"n", 100}}}};
    for (const auto& [name, params] : cases) {
        SCOPED_TRACE(name);
        const auto spec = example(name);
        const ReferenceResult r = run_reference(lower_kernel(spec, spec.launch, params));
        EXPECT_FALSE(r.buffers.empty());
    }
}

namespace {

kernel::KernelSpec data_kernel(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/tests/unit/codegen/data/" + name +
                                    ".yaml");
}

// An array's contents before the kernel runs, as element values.
std::vector<double> initial(const Schedule& s, const std::string& array) {
    const ArrayStorage& layout = *s.find_array(array);
    return decode_buffer(layout, initial_buffer_bytes(layout));
}

} // namespace

TEST(ReferenceInterpreter, NestedReductionsWithATriangularInnerLoop) {
    // c[i] = sum(k, a[i, k] * sum(l <= k, b[k, l])), p[i] = sum(k, a[i, k] + prod(l <= k, ...)),
    // t[i] = sum(k, b[i, k]) * sum(k, sum(l <= k, a[k, l] * b[i, l]) - a[i, k]) (an f32 target:
    // f32 accumulators).
    const auto spec = data_kernel("nested_reductions");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 10}});
    const int n = 10;
    auto a = [](int i, int k) { return input_f64("a", i * 10 + k); };
    auto b = [](int i, int k) { return input_f64("b", i * 10 + k); };
    std::vector<double> c(n), p(n), t(n);
    for (int i = 0; i < n; ++i) {
        double row_b = 0, nested = 0;
        for (int k = 0; k < n; ++k) {
            double inner_sum = 0, inner_prod = 1, inner_dot = 0;
            for (int l = 0; l <= k; ++l) {
                inner_sum += b(k, l);
                inner_prod *= 1 + 0.1 * b(k, l);
                inner_dot += a(k, l) * b(i, l);
            }
            c[static_cast<size_t>(i)] += a(i, k) * inner_sum;
            p[static_cast<size_t>(i)] += a(i, k) + inner_prod;
            row_b += b(i, k);
            nested += inner_dot - a(i, k);
        }
        t[static_cast<size_t>(i)] = row_b * nested;
    }
    const ReferenceResult r = run_reference(s);
    expect_close(r.buffers.at("c"), c, 1e-12);
    expect_close(r.buffers.at("p"), p, 1e-12);
    expect_close(r.buffers.at("t"), t, 1e-3); // f32 sums of about ten terms of size 1..10
}

TEST(ReferenceInterpreter, CompareAndSwapAndRealExtremaFollowTheirDefinitions) {
    const auto spec = data_kernel("cas_and_real_extrema");
    const Schedule s = lower_kernel(spec, spec.launch);
    const ReferenceResult r = run_reference(s);
    const int n = 16;
    const auto a = initial(s, "a"), d = initial(s, "d"), fmax = initial(s, "fmax"),
               dmin = initial(s, "dmin"), c = initial(s, "c"), w = initial(s, "w"),
               e = initial(s, "e"), fc = initial(s, "fc"), dc = initial(s, "dc");
    // atomic_max(fmax[1], a[r, j]); atomic_min(dmin[2], d[r, j]); atomic_max(dmin[0], d[r, j])
    EXPECT_EQ(r.buffers.at("fmax")[0], fmax[0]);
    EXPECT_EQ(r.buffers.at("fmax")[1], std::max(fmax[1], *std::max_element(a.begin(), a.end())));
    EXPECT_EQ(r.buffers.at("dmin")[2], std::min(dmin[2], *std::min_element(d.begin(), d.end())));
    EXPECT_EQ(r.buffers.at("dmin")[0], std::max(dmin[0], *std::max_element(d.begin(), d.end())));
    EXPECT_EQ(r.buffers.at("dmin")[1], dmin[1]);
    int swapped = 0, kept = 0;
    for (int row = 0; row < 4; ++row)
        for (int j = 0; j < n; ++j) {
            const auto k = static_cast<size_t>(row * n + j);
            SCOPED_TRACE("r = " + std::to_string(row) + ", j = " + std::to_string(j));
            // atomic_cas(c[r, j], select(j % 3 == 0, c[r, j], 5000), j + 7): values 0..1023
            // never equal 5000.
            EXPECT_EQ(r.buffers.at("c")[k], j % 3 == 0 ? j + 7 : c[k]);
            // atomic_cas(w[r, j], select(r == 1, w[r, j], 7), 1 + r)
            const double w_compare = row == 1 ? w[k] : 7;
            EXPECT_EQ(r.buffers.at("w")[k], w[k] == w_compare ? 1 + row : w[k]);
            EXPECT_EQ(r.buffers.at("e")[k], -j); // atomic_cas(e[r, j], e[r, j], -j)
            // atomic_cas(fc[r, j], select(j % 2 == 0, fc[r, j], 2.0), 0.5*j): reals in [-1, 1)
            EXPECT_EQ(r.buffers.at("fc")[k], j % 2 == 0 ? 0.5 * j : fc[k]);
            EXPECT_EQ(r.buffers.at("dc")[k], row < 2 ? -0.25 * j : dc[k]);
            (r.buffers.at("c")[k] == c[k] ? kept : swapped)++;
        }
    EXPECT_EQ(swapped, 4 * 6); // j = 0, 3, ..., 15 in each row
    EXPECT_EQ(kept, 4 * 10);
}

TEST(ReferenceInterpreter, OneAndTwoByteAtomicsWrapLikeTheirTypes) {
    const auto spec = data_kernel("one_and_two_byte_atomics");
    const Schedule s = lower_kernel(spec, spec.launch);
    const ReferenceResult r = run_reference(s);
    const auto h = initial(s, "h"), g = initial(s, "g"), k = initial(s, "k"), q = initial(s, "q"),
               y = initial(s, "y");
    for (int j = 0; j < 16; ++j) {
        const auto e = static_cast<size_t>(j);
        SCOPED_TRACE("j = " + std::to_string(j));
        // Four threads (r = 0..3) per element.
        EXPECT_EQ(r.buffers.at("h")[e], (static_cast<int>(h[e]) + 3 + 63 + 123 + 183) % 256);
        EXPECT_EQ(r.buffers.at("g")[e], static_cast<std::int8_t>(static_cast<int>(g[e]) - 200));
        EXPECT_EQ(r.buffers.at("k")[e], std::max(k[e], 3000.0 + j));
        EXPECT_EQ(r.buffers.at("q")[e], static_cast<int>(q[e]) ^ 1 ^ 4 ^ 7 ^ 10);
        EXPECT_EQ(r.buffers.at("x")[e], 7 * j + 1);
        EXPECT_EQ(r.buffers.at("y")[e], j % 2 == 0 ? -j : y[e]);
        EXPECT_EQ(r.buffers.at("out")[e], j - 50);   // min(100, 10 - 20 r + j)
        EXPECT_EQ(r.buffers.at("out")[16 + e], 254); // 250 + 4 increments
    }
}

TEST(ReferenceInterpreter, HalfStoresRoundToNearestEven) {
    const char* text = R"yaml(
name: half_rounding
params: {n: 64}
arrays:
  x: {dtype: f16, shape: [n]}
  y: {dtype: f16, shape: [n]}
  z: {dtype: f16, shape: [n]}
  ties: {dtype: f16, shape: [4]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [32]}
statements:
  - "y[i] = x[i] * 0.1"
  - "z[i] += 3000*x[i]"
  - "ties[0] = 2049"
  - "ties[1] = 2051"
  - "ties[2] = 1 + 0.00048828125"
  - "ties[3] = 70000"
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "half_rounding.yaml");
    const Schedule s = lower_kernel(spec, spec.launch);
    const ReferenceResult r = run_reference(s);
    // The compiler's binary16 (_Float16) as an independent oracle: one rounding from double.
    // Where the compiler has none (clang 14 on x86-64), kerncast's own conversion, which
    // Half.* checks against every half value.
#if defined(__FLT16_MAX__)
    auto half = [](double v) { return static_cast<double>(static_cast<_Float16>(v)); };
#else
    auto half = [](double v) { return runtime::round_to_half(v); };
#endif
    const auto x = initial(s, "x"), z = initial(s, "z");
    int rounded = 0;
    for (size_t i = 0; i < 64; ++i) {
        EXPECT_EQ(x[i], half(runtime::initial_f32(runtime::buffer_seed("x"), i)));
        EXPECT_EQ(r.buffers.at("y")[i], half(x[i] * 0.1)) << i;
        EXPECT_EQ(r.buffers.at("z")[i], half(z[i] + 3000 * x[i])) << i;
        rounded += r.buffers.at("y")[i] != x[i] * 0.1;
    }
    EXPECT_GT(rounded, 32); // the test sees rounding at all
    // Ties go to the even neighbour; beyond 65520 is infinity.
    EXPECT_EQ(r.buffers.at("ties")[0], 2048);
    EXPECT_EQ(r.buffers.at("ties")[1], 2052);
    EXPECT_EQ(r.buffers.at("ties")[2], 1.0); // 1 + 2^-11: halfway to 1 + 2^-10
    EXPECT_TRUE(std::isinf(r.buffers.at("ties")[3]));
}

TEST(ReferenceInterpreter, AbsmaxIsTheLargestMagnitude) {
    // Per-block shared atomic_max from 0, then one global atomic_max per block: the largest
    // |x| or amax's initial value, whichever is larger.
    const auto spec = example("absmax_f32");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", 1000}});
    double expected = input_f32("amax", 0);
    for (int i = 0; i < 1000; ++i)
        expected = std::max(expected, std::fabs(double(input_f32("x", i))));
    ASSERT_GT(expected, input_f32("amax", 0)); // the inputs decide, not the initial value
    EXPECT_EQ(run_reference(s).buffers.at("amax")[0], expected);
}

TEST(ReferenceInterpreter, ColumnNormalisedMatvecNestsTheNormInTheProduct) {
    const int n = 32;
    const auto spec = example("colnorm_matvec");
    const Schedule s = lower_kernel(spec, spec.launch, {{"n", n}});
    auto a = [&](int i, int j) { return double(input_f32("a", i * n + j)); };
    std::vector<double> y(n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double norm2 = 0;
            for (int k = 0; k < n; ++k)
                norm2 += a(k, j) * a(k, j);
            y[static_cast<size_t>(i)] += a(i, j) * double(input_f32("x", j)) / std::sqrt(norm2);
        }
    expect_close(run_reference(s).buffers.at("y"), y, 1e-4); // f32 accumulators
}
