// The generated CUDA source and launch description: arguments, sizes, the code for tiles,
// barriers, folds, guards and atomics.
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
}

GeneratedKernel generate(const std::string& name,
                         const std::vector<std::pair<std::string, std::int64_t>>& params = {}) {
    const auto spec = example(name);
    return generate_cuda(lower_kernel(spec, spec.launch, params), {"k.yaml", "abc123"});
}

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

const runtime::BufferSpec& buffer(const GeneratedKernel& g, size_t k) {
    return std::get<runtime::BufferSpec>(g.arguments.at(k));
}

} // namespace

TEST(CudaCodegen, Star3dLaunchAndBuffers) {
    const GeneratedKernel g = generate("star3d_r4", {{"nx", 41}, {"ny", 16}, {"nz", 24}});
    EXPECT_EQ(g.kernel_name, "star3d_r4");
    EXPECT_EQ(g.block, (runtime::Dim3{32, 4, 4}));
    EXPECT_EQ(g.fold, (runtime::Dim3{1, 1, 2}));
    EXPECT_EQ(g.grid, (runtime::Dim3{2, 2, 2})); // 33 interior x / 32, 8 y / 4, 16 z / (4*2)
    ASSERT_EQ(g.arguments.size(), 2u);           // src, dst; the coefficients are private
    EXPECT_EQ(runtime::to_string(buffer(g, 0)), "src:f64:15748:hash"); // 4 + 41*16*24
    EXPECT_EQ(runtime::to_string(buffer(g, 1)), "dst:f64:15748:hash");
    const std::string& src = g.cuda_source;
    EXPECT_NE(src.find("// kernel file sha256: abc123"), std::string::npos);
    EXPECT_NE(src.find("extern \"C\" __global__ void __launch_bounds__(512)\nstar3d_r4("),
              std::string::npos);
    EXPECT_NE(src.find("const double* __restrict__ src"), std::string::npos);
    EXPECT_NE(src.find("for (int fz = 0; fz < 2; ++fz)"), std::string::npos);
    EXPECT_NE(src.find("const int z = 8 * bz + fz + 2 * tz + 4;"), std::string::npos);
    EXPECT_NE(src.find("if (x <= 36)"), std::string::npos);
    EXPECT_NE(src.find("dst[4 + ((z * 16 + y) * 41 + x)] = c0 * src[4 + ((z * 16 + y) * 41 + x)]"),
              std::string::npos);
    EXPECT_NE(src.find("double c0 = kc_initial_f64("), std::string::npos);
}

TEST(CudaCodegen, TiledMatmulHasSharedTilesAndTwoBarriersPerTile) {
    const GeneratedKernel g = generate("matmul_tiled16");
    const std::string& src = g.cuda_source;
    EXPECT_EQ(g.static_shared_memory_bytes, 2 * 16 * 16 * 4);
    EXPECT_NE(src.find("__shared__ float a_tile[256];"), std::string::npos);
    EXPECT_EQ(occurrences(src, "__syncthreads();"), 2);
    EXPECT_NE(src.find("for (int ko = 0; ko <= 15; ++ko) {"), std::string::npos);
    EXPECT_NE(src.find("acc_c += a_tile[ty * 16 + kk] * b_tile[kk * 16 + tx];"), std::string::npos);
    EXPECT_NE(src.find("c[i * 128 + j] = acc_c;"), std::string::npos);
}

TEST(CudaCodegen, HistogramPacksBytesAndUsesSharedAtomics) {
    const GeneratedKernel g = generate("histogram_reordered", {{"n", 1000}});
    ASSERT_EQ(g.arguments.size(), 1u);
    EXPECT_EQ(runtime::to_string(buffer(g, 0)), "image:u32:1000:hash"); // 4000 bytes
    EXPECT_EQ(g.grid, (runtime::Dim3{4, 1, 1}));                        // ceil(1000/256)
    const std::string& src = g.cuda_source;
    EXPECT_NE(src.find("const unsigned char* __restrict__ image"), std::string::npos);
    EXPECT_NE(src.find("atomicAdd(&smem[256 * kc_mod(c + tx, 4) + offsets[kc_mod(c + tx, 4)]], "
                       "static_cast<unsigned int>(1));"),
              std::string::npos);
    EXPECT_NE(src.find("if (p <= 999)"), std::string::npos);
}

TEST(CudaCodegen, ConstantSubscriptsFoldAndRealLiteralsFollowTheirOperand) {
    const std::string box = generate("box2d_r1").cuda_source;
    EXPECT_NE(box.find("w[5] * src[y * 15000 + (x + 1)]"), std::string::npos); // w[1, 2]
    const std::string lbm =
        generate("lbm_d3q15_pull", {{"nx", 8}, {"ny", 8}, {"nz", 8}}).cuda_source;
    EXPECT_NE(lbm.find("(1.0 - omega)"), std::string::npos);
    const char* text = R"yaml(
name: scale32
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["a[i] = 0.5*a[i] + sqrt(a[i])"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "scale32.yaml");
    const std::string src = generate_cuda(lower_kernel(spec, spec.launch)).cuda_source;
    EXPECT_NE(src.find("a[i] = 0.5f * a[i] + sqrt(a[i]);"), std::string::npos) << src;
}

TEST(CudaCodegen, ArraysBeyondTwoBillionElementsIndexIn64Bits) {
    const char* text = R"yaml(
name: big
params: {n: 50000}
arrays: {a: {dtype: f32, shape: [n, n]}, b: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["b[i] = a[i, i]"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "big.yaml");
    const GeneratedKernel g = generate_cuda(lower_kernel(spec, spec.launch));
    EXPECT_EQ(runtime::to_string(buffer(g, 0)), "a:f32:2500000000:hash");
    EXPECT_NE(g.cuda_source.find("b[i] = a[static_cast<long long>(i) * 50000 + i];"),
              std::string::npos)
        << g.cuda_source;
}
