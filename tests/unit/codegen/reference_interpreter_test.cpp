// The CPU reference interpreter against results computed by hand-written loops on the same
// deterministic inputs (runtime/deterministic_init.hpp), on small sizes.
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/deterministic_init.hpp"

#include <cmath>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
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
    const ArrayLayout* image = s.find_array("image");
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
        EXPECT_NE(std::string(e.what()).find("a[i + 1] reaches element 8"), std::string::npos)
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
                 {"histogram_reordered", {{"n", 5000}}}};
    for (const auto& [name, params] : cases) {
        SCOPED_TRACE(name);
        const auto spec = example(name);
        const ReferenceResult r = run_reference(lower_kernel(spec, spec.launch, params));
        EXPECT_FALSE(r.buffers.empty());
    }
}
