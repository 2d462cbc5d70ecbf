// The generated CUDA source and launch description: arguments, sizes, the code for tiles,
// barriers, folds, guards and atomics.
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>
#include <regex>

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
    EXPECT_EQ(g.block, (kernel::Dim3{32, 4, 4}));
    EXPECT_EQ(g.fold, (kernel::Dim3{1, 1, 2}));
    EXPECT_EQ(g.grid, (kernel::Dim3{2, 2, 2})); // 33 interior x / 32, 8 y / 4, 16 z / (4*2)
    ASSERT_EQ(g.arguments.size(), 2u);          // src, dst; the coefficients are private
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
    EXPECT_EQ(g.grid, (kernel::Dim3{4, 1, 1}));                         // ceil(1000/256)
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

namespace {

GeneratedKernel generate_data_kernel(const std::string& name) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/tests/unit/codegen/data/" + name + ".yaml");
    return generate_cuda(lower_kernel(spec, spec.launch));
}

} // namespace

TEST(CudaCodegen, CompareAndSwapAndRealMinMax) {
    const std::string src = generate_data_kernel("cas_and_real_extrema").cuda_source;
    // Integers: atomicCAS (64-bit signed through unsigned long long); compare, then value.
    EXPECT_NE(src.find("atomicCAS(&c[r * 16 + j], static_cast<int>((kc_mod(j, 3) == 0 ? "
                       "c[r * 16 + j] : 5000)), static_cast<int>(j + 7));"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("atomicCAS(reinterpret_cast<unsigned long long*>(&e[r * 16 + j]), "
                       "static_cast<unsigned long long>("),
              std::string::npos);
    // Reals: one compare-and-swap-loop helper per (type, kind), defined once.
    EXPECT_NE(src.find("kc_atomic_max_f32(&fmax[1], static_cast<float>(a[r * 16 + j]));"),
              std::string::npos);
    EXPECT_NE(src.find("kc_atomic_cas_f64(&dc[r * 16 + j], static_cast<double>((r < 2 ? "
                       "dc[r * 16 + j] : 2.0)), static_cast<double>(-0.25 * j));"),
              std::string::npos);
    for (const char* helper : {"float kc_atomic_max_f32(float* address, float value)",
                               "double kc_atomic_min_f64(double* address, double value)",
                               "double kc_atomic_max_f64(double* address, double value)",
                               "float kc_atomic_cas_f32(float* address, float compare, float "
                               "value)"})
        EXPECT_EQ(occurrences(src, helper), 1) << helper;
    EXPECT_NE(src.find("const float current = __uint_as_float(assumed);"), std::string::npos);
    EXPECT_NE(src.find("const unsigned long long replaced = static_cast<unsigned "
                       "long long>(__double_as_longlong(next));"),
              std::string::npos);
    EXPECT_NE(src.find("const float next = static_cast<float>(current < value ? value : "
                       "current);"),
              std::string::npos);
    EXPECT_EQ(occurrences(src, "atomicCAS(word, assumed, replaced);"), 5);
}

TEST(CudaCodegen, OneAndTwoByteAtomicsSwapTheirWord) {
    const GeneratedKernel g = generate_data_kernel("one_and_two_byte_atomics");
    const std::string& src = g.cuda_source;
    EXPECT_NE(src.find("kc_atomic_add_u8(&h[j], static_cast<unsigned char>(3 + 60 * r));"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("kc_atomic_inc_u8(&sb[j], static_cast<unsigned char>(1));"),
              std::string::npos);
    EXPECT_NE(src.find("unsigned int* word = reinterpret_cast<unsigned int*>(byte & ~3ull);"),
              std::string::npos);
    EXPECT_NE(src.find("const unsigned int mask = 0xffu << shift;"), std::string::npos);
    EXPECT_NE(src.find("const unsigned int mask = 0xffffu << shift;"), std::string::npos);
    EXPECT_NE(src.find("const signed char next = static_cast<signed char>(current - value);"),
              std::string::npos);
    EXPECT_NE(src.find("__shared__ __align__(4) short s[16];"), std::string::npos);
    EXPECT_NE(src.find("__shared__ __align__(4) unsigned char sb[16];"), std::string::npos);
    EXPECT_EQ(g.static_shared_memory_bytes, 16 * 2 + 16);
    // Global 1- and 2-byte arrays travel in u32 words.
    EXPECT_EQ(runtime::to_string(buffer(g, 0)), "h:u32:4:hash");
    EXPECT_EQ(runtime::to_string(buffer(g, 2)), "k:u32:8:hash");
}

TEST(CudaCodegen, SharedArraysOfSmallElementsArePaddedToWholeWords) {
    const char* text = R"yaml(
name: pad
params: {n: 8}
arrays:
  b: {dtype: u8, shape: [5], space: shared}
  s: {dtype: i16, shape: [3], space: shared}
  f: {dtype: f32, shape: [3], space: shared}
  z: {dtype: f32, space: shared}
  out: {dtype: i32, shape: [n]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [8]}
statements: ["atomic_add(b[1], 1)", "atomic_max(s[2], i)", "f[1] = 0", "z = 2",
             "out[i] = b[1] + s[2] + z"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "pad.yaml");
    const GeneratedKernel g = generate_cuda(lower_kernel(spec, spec.launch));
    EXPECT_NE(g.cuda_source.find("__shared__ __align__(4) unsigned char b[8];"), std::string::npos)
        << g.cuda_source;
    EXPECT_NE(g.cuda_source.find("__shared__ __align__(4) short s[4];"), std::string::npos);
    EXPECT_NE(g.cuda_source.find("__shared__ float f[3];"), std::string::npos);
    // A shared scalar is a one-element array, as its references (z[0]) read it.
    EXPECT_NE(g.cuda_source.find("__shared__ float z[1];"), std::string::npos);
    EXPECT_NE(g.cuda_source.find("z[0] = 2;"), std::string::npos);
    EXPECT_EQ(g.static_shared_memory_bytes, 8 + 8 + 12 + 4);
}

// Shared arrays beyond the 48 KiB a kernel declares statically are pointers into one dynamic
// buffer, each piece 16-byte aligned, and the launch passes the buffer's size.
TEST(CudaCodegen, SharedArraysBeyondTheStaticLimitShareOneDynamicBuffer) {
    const std::string text = R"yaml(
name: big_shared
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n]}
  s: {dtype: f32, shape: [13001], space: shared}
  b: {dtype: u8, shape: [5], space: shared}
  out: {dtype: f32, shape: [n]}
domain: "[n] -> { [x] : 0 <= x < n }"
threads: {x: x}
launch: {block: [64]}
statements: ["s[tx] = a[x]", "b[1] = 3", {barrier: local}, "out[x] = s[tx] + b[1]"]
)yaml";
    const auto spec = kernel::parse_kernel_text(text, "big_shared.yaml");
    const GeneratedKernel g = generate_cuda(lower_kernel(spec, spec.launch));
    const std::string& src = g.cuda_source;
    EXPECT_NE(src.find("extern __shared__ __align__(16) unsigned char kerncast_shared[];"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("float* const s = reinterpret_cast<float*>(kerncast_shared + 0);"),
              std::string::npos);
    // 13001 floats end at 52004 B: b starts at the next multiple of 16, padded to 8 B.
    EXPECT_NE(src.find("unsigned char* const b = reinterpret_cast<unsigned char*>(kerncast_shared "
                       "+ 52016);"),
              std::string::npos);
    EXPECT_EQ(src.find("__shared__ float s["), std::string::npos);
    EXPECT_EQ(g.dynamic_shared_memory_bytes, 52016 + 8);
    EXPECT_EQ(g.static_shared_memory_bytes, 0);
    EXPECT_EQ(timing_request(g, "big_shared.cu", {}).dynamic_shared_memory_bytes, 52024);
    // Under the limit the same arrays are static, and the launch passes none.
    const std::string small_text = std::regex_replace(text, std::regex("13001"), "1000");
    const GeneratedKernel small = generate_cuda(
        lower_kernel(kernel::parse_kernel_text(small_text, "small_shared.yaml"), spec.launch));
    EXPECT_NE(small.cuda_source.find("__shared__ float s[1000];"), std::string::npos);
    EXPECT_EQ(small.dynamic_shared_memory_bytes, 0);
    EXPECT_EQ(small.static_shared_memory_bytes, 4000 + 8);
}

TEST(CudaCodegen, HalfPrecisionComputesInFloatAndRoundsOnStore) {
    const GeneratedKernel g = generate_data_kernel("half_precision");
    const std::string& src = g.cuda_source;
    EXPECT_NE(src.find("#include <cuda_fp16.h>"), std::string::npos);
    EXPECT_EQ(runtime::to_string(buffer(g, 0)), "x:f16:48:hash");
    EXPECT_NE(src.find("const __half* __restrict__ x"), std::string::npos);
    EXPECT_NE(src.find("tile[tx] = __float2half_rn(0.5f * __half2float(x[i]) + "
                       "__half2float(w[1]));"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("y[i] = __float2half_rn(__half2float(y[i]) + (__half2float(tile[15 - "
                       "tx]) * sqrt(fabs(__half2float(x[i])))));"),
              std::string::npos);
    EXPECT_NE(src.find("__shared__ __align__(4) __half tile[16];"), std::string::npos);
    EXPECT_NE(src.find("w[e] = __float2half_rn(kc_initial_f32("), std::string::npos);
    EXPECT_NE(src.find("float acc_r;"), std::string::npos); // the accumulator is float
    EXPECT_NE(src.find("r[i] = __float2half_rn(acc_r);"), std::string::npos);
    EXPECT_NE(src.find("atomicAdd(&acc[i], __float2half_rn(static_cast<float>((__half2float(x["
                       "i])))));"),
              std::string::npos);
    EXPECT_NE(src.find("atomicAdd(&acc[n - 1 - i], __float2half_rn(static_cast<float>(-(0.25f)"
                       ")));"),
              std::string::npos);
    EXPECT_NE(src.find("float kc_atomic_cas_f16(__half* address, __half compare_half, __half "
                       "value_half)"),
              std::string::npos);
    // Kernels without f16 do not include the header.
    EXPECT_EQ(generate("matmul_naive").cuda_source.find("cuda_fp16.h"), std::string::npos);
}

TEST(CudaCodegen, NestedReductionsStartTheInnerAccumulatorInEveryOuterIteration) {
    const std::string src = generate_data_kernel("nested_reductions").cuda_source;
    // Threads beyond i = 11 (a grid of 16) skip every piece; l runs over its bounding box,
    // guarded by l <= k.
    EXPECT_NE(src.find("        acc_c = 0;\n"
                       "    for (int k = 0; k <= 11; ++k) {\n"
                       "        if (i <= 11)\n"
                       "            acc_c2 = 0;\n"
                       "        for (int l = 0; l <= 11; ++l) {\n"
                       "            if (i <= 11 && k >= l)\n"
                       "                acc_c2 += b[k * 12 + l];\n"
                       "        }\n"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("acc_c += a[i * 12 + k] * acc_c2;"), std::string::npos);
    EXPECT_NE(src.find("acc_p2 *= 1 + 0.10000000000000001 * b[k * 12 + l];"), std::string::npos);
    EXPECT_NE(src.find("t[i] = acc_t * acc_t2;"), std::string::npos);
}
