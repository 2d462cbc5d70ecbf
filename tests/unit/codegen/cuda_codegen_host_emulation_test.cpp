// The printed CUDA, executed without a GPU: the generated source is compiled as C++ with a small
// emulation of the CUDA built-ins (one std::thread per CUDA thread of a block, blocks one after
// another, __syncthreads() a std::barrier, __shared__ a static shared by the block's threads,
// atomics under a mutex) and run on the hashed inputs; every buffer must equal the CPU
// reference interpreter's. This checks what the schedule tests cannot: the printing (indexing,
// precedence, types, literals, guards as C). The device tests repeat it on a GPU.
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

const char* emulation_prelude = R"(#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <math.h>
#include <mutex>
#include <thread>
#include <vector>
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__
#define __launch_bounds__(n)
#define __shared__ static
#define __constant__
struct kc_dim3 { int x = 0, y = 0, z = 0; };
static thread_local kc_dim3 threadIdx;
static kc_dim3 blockIdx;
static std::barrier<>* kc_block_barrier = nullptr;
static void __syncthreads() { kc_block_barrier->arrive_and_wait(); }
static std::mutex kc_atomic_mutex;
template <class T, class U> T atomicAdd(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p += static_cast<T>(v); return old;
}
template <class T, class U> T atomicSub(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p -= static_cast<T>(v); return old;
}
template <class T, class U> T atomicMin(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p = std::min(old, static_cast<T>(v)); return old;
}
template <class T, class U> T atomicMax(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p = std::max(old, static_cast<T>(v)); return old;
}
template <class T, class U> T atomicExch(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p = static_cast<T>(v); return old;
}
template <class T, class U> T atomicAnd(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p &= static_cast<T>(v); return old;
}
template <class T, class U> T atomicOr(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p |= static_cast<T>(v); return old;
}
template <class T, class U> T atomicXor(T* p, U v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; *p ^= static_cast<T>(v); return old;
}
template <class T> T atomicCAS(T* p, T compare, T value) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); T old = *p; if (old == compare) *p = value; return old;
}
#define __align__(n) __attribute__((aligned(n)))
template <class To, class From> To kc_bits(From x) { To y; std::memcpy(&y, &x, sizeof y); return y; }
static unsigned int __float_as_uint(float x) { return kc_bits<unsigned int>(x); }
static float rsqrt(float x) { return 1.0f / std::sqrt(x); } // CUDA's, on the host
static double rsqrt(double x) { return 1.0 / std::sqrt(x); }
static float __uint_as_float(unsigned int x) { return kc_bits<float>(x); }
static long long __double_as_longlong(double x) { return kc_bits<long long>(x); }
static double __longlong_as_double(long long x) { return kc_bits<double>(x); }
// __half: binary16 bits, converted with the runtime's round-to-nearest-even conversion.
#include "kerncast/runtime/half.hpp"
struct __half { unsigned short bits; };
static float __half2float(__half h) {
    return static_cast<float>(kerncast::runtime::double_from_half_bits(h.bits));
}
static __half __float2half_rn(float x) { return {kerncast::runtime::half_bits_from_float(x)}; }
static unsigned short __half_as_ushort(__half h) { return h.bits; }
static __half __ushort_as_half(unsigned short bits) { return {bits}; }
static __half atomicAdd(__half* p, __half v) {
    std::lock_guard<std::mutex> lock(kc_atomic_mutex); __half old = *p;
    *p = __float2half_rn(__half2float(old) + __half2float(v)); return old;
}
using std::max;
using std::min;
)";

std::string read_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// The emulation's shared memory is static: a dynamic buffer (`extern __shared__ ... name[]`)
// takes the size the launch would pass.
std::string with_sized_dynamic_shared(std::string source, std::int64_t bytes) {
    const auto at = source.find("extern __shared__ ");
    if (at == std::string::npos)
        return source;
    source.erase(at, std::string("extern ").size());
    source.insert(source.find("[]", at) + 1, std::to_string(bytes));
    return source;
}

// Runs `spec`'s generated CUDA in the emulation; every buffer must equal the reference's.
void emulate_and_compare(const kernel::KernelSpec& spec,
                         const std::vector<std::pair<std::string, std::int64_t>>& params) {
    SCOPED_TRACE(spec.name);
    const std::string& example = spec.name;
    const Schedule schedule = lower_kernel(spec, spec.launch, params);
    const GeneratedKernel g = generate_cuda(schedule);
    const auto dir = std::filesystem::temp_directory_path() /
                     ("kerncast_emulation_" + std::to_string(::getpid()) + "_" + example);
    std::filesystem::create_directories(dir);

    std::ostringstream main;
    main << "\nint main() {\n    std::vector<std::vector<char>> b(" << g.arguments.size() << ");\n";
    std::string call_arguments;
    // __constant__ arrays are plain globals here, filled with the harness's contents.
    for (size_t c = 0; c < g.constant_symbols.size(); ++c) {
        const std::string& name = g.constant_symbols[c].name;
        const auto bytes = initial_buffer_bytes(*schedule.find_array(name));
        const auto path = dir / ("constant" + std::to_string(c));
        std::ofstream(path.string(), std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        main << "    { std::ifstream f(\"" << path.string() << "\", std::ios::binary); f.read("
             << "reinterpret_cast<char*>(" << name << "), std::min<std::streamsize>(sizeof " << name
             << ", " << bytes.size() << ")); }\n";
    }
    for (size_t k = 0; k < g.arguments.size(); ++k) {
        const ArrayStorage& array = *schedule.find_array(g.buffer_arrays[k]);
        const auto bytes = initial_buffer_bytes(array);
        std::ofstream((dir / ("in" + std::to_string(k))).string(), std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
        main << "    { std::ifstream f(\"" << (dir / ("in" + std::to_string(k))).string()
             << "\", std::ios::binary); b[" << k
             << "].assign(std::istreambuf_iterator<char>(f), {}); }\n";
        call_arguments += std::string(k ? ", " : "") + "reinterpret_cast<" +
                          cuda_type_name(array.decl.dtype) + "*>(b[" + std::to_string(k) +
                          "].data())";
    }
    const auto threads = g.block[0] * g.block[1] * g.block[2];
    main << "    for (int bz = 0; bz < " << g.grid[2] << "; ++bz)\n"
         << "    for (int by = 0; by < " << g.grid[1] << "; ++by)\n"
         << "    for (int bx = 0; bx < " << g.grid[0] << "; ++bx) {\n"
         << "        blockIdx = {bx, by, bz};\n"
         << "        std::barrier<> block_barrier(" << threads << ");\n"
         << "        kc_block_barrier = &block_barrier;\n"
         << "        std::vector<std::thread> threads;\n"
         << "        for (int t = 0; t < " << threads << "; ++t)\n"
         << "            threads.emplace_back([&, t] {\n"
         << "                threadIdx = {int(t % " << g.block[0] << "), int(t / " << g.block[0]
         << " % " << g.block[1] << "), int(t / " << g.block[0] * g.block[1] << ")};\n"
         << "                " << g.kernel_name << "(" << call_arguments << ");\n"
         << "            });\n"
         << "        for (auto& thread : threads) thread.join();\n"
         << "    }\n";
    for (size_t k = 0; k < g.arguments.size(); ++k)
        main << "    std::ofstream(\"" << (dir / ("out" + std::to_string(k))).string()
             << "\", std::ios::binary).write(b[" << k << "].data(), b[" << k << "].size());\n";
    main << "}\n";
    std::ofstream((dir / "cuda_fp16.h").string()) << "// the prelude defines __half\n";
    std::ofstream((dir / "kernel.cpp").string())
        << emulation_prelude
        << with_sized_dynamic_shared(g.cuda_source, g.dynamic_shared_memory_bytes) << main.str();

    const std::string compile =
        std::string(KERNCAST_HOST_CXX) + " -std=c++20 -O1 -fno-strict-aliasing -pthread -w -I" +
        dir.string() + " -I" KERNCAST_SOURCE_DIR "/include " + (dir / "kernel.cpp").string() +
        " -o " + (dir / "kernel").string() + " > " + (dir / "log").string() + " 2>&1";
    ASSERT_EQ(std::system(compile.c_str()), 0) << read_text(dir / "log");
    ASSERT_EQ(std::system((dir / "kernel").string().c_str()), 0);

    const ReferenceResult reference = run_reference(schedule);
    for (size_t k = 0; k < g.arguments.size(); ++k) {
        const ArrayStorage& array = *schedule.find_array(g.buffer_arrays[k]);
        SCOPED_TRACE(array.decl.name);
        const std::string text = read_text(dir / ("out" + std::to_string(k)));
        const std::vector<double> emulated =
            decode_buffer(array, std::vector<unsigned char>(text.begin(), text.end()));
        const std::vector<double>& expected = reference.buffers.at(array.decl.name);
        ASSERT_EQ(emulated.size(), expected.size());
        // f32 kernels compute in float here and in double in the reference.
        // f16 stores round once from float here and from double there: one binary16 ulp
        // (2^-10 relative) apart at most.
        const double tolerance = array.decl.dtype == kernel::DataType::f64   ? 1e-12
                                 : array.decl.dtype == kernel::DataType::f16 ? 1e-3
                                                                             : 1e-4;
        for (size_t e = 0; e < emulated.size(); ++e)
            ASSERT_NEAR(emulated[e], expected[e], tolerance * (1 + std::fabs(expected[e])))
                << "element " << e;
    }
    std::filesystem::remove_all(dir);
}

void emulate_and_compare(const std::string& example,
                         const std::vector<std::pair<std::string, std::int64_t>>& params) {
    emulate_and_compare(
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + example + ".yaml"),
        params);
}

void emulate_data_kernel(const std::string& name) {
    emulate_and_compare(
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/tests/unit/codegen/data/" + name + ".yaml"),
        {});
}

} // namespace

TEST(CudaCodegenHostEmulation, StencilsWithGuardsFoldsAndOffsets) {
    emulate_and_compare("star2d_r1", {{"nx", 70}, {"ny", 9}});
    emulate_and_compare("star3d_r4", {{"nx", 41}, {"ny", 13}, {"nz", 14}});
    emulate_and_compare("box2d_r2", {{"nx", 40}, {"ny", 8}});
    emulate_and_compare("lbm_d3q15_pull", {{"nx", 9}, {"ny", 6}, {"nz", 5}});
}

// The fold fast path (every instance in the domain, shared loads in registers) and the fold
// loop beside it (threads at the domain's end): 41 x 13 x 14 leaves partial blocks on every axis;
// consecutive and strided (block-cyclic) folds.
TEST(CudaCodegenHostEmulation, FoldFastPathAndFoldLoop) {
    kernel::KernelSpec star = kernel::load_kernel_file(
        KERNCAST_SOURCE_DIR "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    for (const kernel::LaunchConfig& launch :
         {kernel::LaunchConfig{{8, 4, 2}, {1, 1, 2}}, kernel::LaunchConfig{{4, 2, 2}, {2, 2, 2}},
          kernel::LaunchConfig{{16, 2, 1}, {1, 1, 4}},
          kernel::LaunchConfig{{4, 2, 2}, {2, 2, 2}, kernel::FoldPlacement::strided},
          kernel::LaunchConfig{{16, 2, 1}, {2, 1, 4}, kernel::FoldPlacement::strided}}) {
        star.launch = launch;
        const std::vector<std::pair<std::string, std::int64_t>> params{
            {"nx", 41}, {"ny", 13}, {"nz", 14}};
        const std::string source = generate_cuda(lower_kernel(star, launch, params)).cuda_source;
        ASSERT_NE(source.find("const double kc_src_0 = "), std::string::npos); // the fast path
        ASSERT_NE(source.find("} else {"), std::string::npos);                 // and the loop
        emulate_and_compare(star, params);
    }
    emulate_data_kernel("fold_fast_path_half"); // f16 and __constant__ elements in registers
}

// Register tiles: folded kernels with sequential loops run their instances interleaved inside
// the loops (fold_load_reuse.hpp), one accumulator an instance; the autotuning examples at
// sizes with whole tiles (the interleaved path) and ragged ones (the fold loop beside it).
TEST(CudaCodegenHostEmulation, InterleavedFoldInstancesAroundSequentialLoops) {
    const auto load = [](const std::string& name) {
        return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/" + name +
                                        ".yaml");
    };
    struct Case {
        std::string kernel;
        kernel::LaunchConfig launch;
        std::vector<std::pair<std::string, std::int64_t>> params;
    };
    const std::vector<Case> cases{
        {"kt_matmul", {{8, 4, 1}, {1, 4, 1}, kernel::FoldPlacement::strided}, {{"width", 32}}},
        {"kt_matmul", {{8, 4, 1}, {2, 2, 1}}, {{"width", 36}}},
        {"ktt_bicg_q",
         {{32, 1, 1}, {3, 1, 1}, kernel::FoldPlacement::strided},
         {{"nx", 96}, {"ny", 7}}},
        {"ktt_coulomb_sum_soa", {{4, 2, 1}, {1, 1, 4}}, {{"grid_size", 8}, {"atoms", 3}}},
        {"kt_convolution",
         {{8, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided},
         {{"image_width", 32}, {"image_height", 16}, {"filter_width", 3}, {"filter_height", 3}}},
        {"kt_pnpoly",
         {{32, 1, 1}, {4, 1, 1}, kernel::FoldPlacement::strided},
         {{"n", 256}, {"vertices", 5}}}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.kernel + " fold " + kernel::fold_text(c.launch));
        kernel::KernelSpec spec = load(c.kernel);
        spec.launch = c.launch;
        const std::string source =
            generate_cuda(lower_kernel(spec, c.launch, c.params)).cuda_source;
        EXPECT_NE(source.find("the fold instances interleaved inside the loops"), std::string::npos)
            << source;
        // pnpoly's slopes and the Coulomb sum's dx^2 + dy^2 are values the instances share,
        // computed once (codegen.md, Folding): the emulation runs them.
        if (c.kernel == "kt_pnpoly" || c.kernel == "ktt_coulomb_sum_soa")
            EXPECT_NE(source.find("const float kc_v_0 = "), std::string::npos) << source;
        emulate_and_compare(spec, c.params);
    }
}

// Values the fold instances share (codegen.md, Folding), computed once outside the conditions
// and statements that use them: every committed kernel whose fast path has one at a fold of 2
// (or 2x2), at sizes with whole tiles and, for pnpoly, a ragged one (the fold loop beside it).
TEST(CudaCodegenHostEmulation, SharedValuesComputeWhatTheKernelComputes) {
    struct Case {
        std::string file;
        kernel::LaunchConfig launch;
        std::vector<std::pair<std::string, std::int64_t>> params;
    };
    const kernel::FoldPlacement strided = kernel::FoldPlacement::strided;
    const std::vector<Case> cases{
        {"examples/kernels/colnorm_matvec.yaml", {{32, 1, 1}, {2, 1, 1}}, {{"n", 64}}},
        {"examples/kernels/hk_micro_mb1.yaml", {{32, 1, 1}, {2, 1, 1}}, {{"n", 128}, {"iters", 3}}},
        {"examples/autotuning/ktt_coulomb_sum_aos.yaml",
         {{4, 2, 1}, {1, 2, 1}},
         {{"grid_size", 8}, {"atoms", 3}}},
        {"examples/autotuning/kt_pnpoly.yaml",
         {{32, 1, 1}, {2, 1, 1}, strided},
         {{"n", 100}, {"vertices", 6}}},
        {"tests/user_kernels/fold_shared_operations.yaml", {{32, 4, 1}, {2, 2, 1}, strided}, {}},
        {"tests/user_kernels/fold_private_and_written.yaml", {{32, 1, 1}, {2, 1, 1}, strided}, {}},
        {"tests/user_kernels/fold_guarded_integer_division.yaml",
         {{32, 1, 1}, {2, 1, 1}, strided},
         {}}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file + " fold " + kernel::fold_text(c.launch));
        kernel::KernelSpec spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/" + c.file);
        spec.launch = c.launch;
        const std::string source =
            generate_cuda(lower_kernel(spec, c.launch, c.params)).cuda_source;
        EXPECT_NE(source.find(" kc_v_0 = "), std::string::npos) << source;
        emulate_and_compare(spec, c.params);
    }
}

TEST(CudaCodegenHostEmulation, TilesBarriersAndPrivatisedAccumulators) {
    emulate_and_compare("matmul_tiled16", {{"n", 32}, {"m", 32}, {"l", 16}});
    emulate_and_compare("dg_diff_2", {{"nelements", 16}, {"nunit_nodes", 32}});
    emulate_and_compare("fd5pt_16", {{"n", 20}});
}

// A folded kernel with a barrier: the row sum's shared tree (tests/user_kernels/row_sum_tree.yaml)
// at block 256x1, 2 rows a thread. Its shared subscripts name tx only, so folding along y keeps
// what it computes; thread 0 still reads sm[0] and sm[1] of one row while the others would
// start the next row's sm[tx] = ..., so the loop ends each instance with a barrier. 5 rows: the
// last block's second instance is outside the domain.
TEST(CudaCodegenHostEmulation, FoldedSharedMemoryKernelSynchronisesBetweenInstances) {
    kernel::KernelSpec rows =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/tests/user_kernels/row_sum_tree.yaml");
    rows.launch = kernel::LaunchConfig{{256, 1, 1}, {1, 2, 1}};
    const std::vector<std::pair<std::string, std::int64_t>> params{{"rows", 5}};
    const std::string source = generate_cuda(lower_kernel(rows, rows.launch, params)).cuda_source;
    EXPECT_NE(source.find("__syncthreads(); // before the next fold instance"), std::string::npos)
        << source;
    emulate_and_compare(rows, params);
}

TEST(CudaCodegenHostEmulation, SharedMemoryAtomics) {
    emulate_and_compare("histogram_reordered", {{"n", 300}});
}

// Kernels of tests/unit/codegen/data for the atomics and reductions no example has. Atomics
// whose result depends on the order of the threads go to distinct elements; contended ones are
// order-independent (add, min, max, xor).
TEST(CudaCodegenHostEmulation, CompareAndSwapAndRealMinMax) {
    emulate_data_kernel("cas_and_real_extrema");
}

TEST(CudaCodegenHostEmulation, OneAndTwoByteAtomicsInGlobalAndSharedMemory) {
    emulate_data_kernel("one_and_two_byte_atomics");
}

TEST(CudaCodegenHostEmulation, NestedReductions) {
    emulate_data_kernel("nested_reductions");
}

TEST(CudaCodegenHostEmulation, ExamplesWithRealAtomicMaxAndNestedReductions) {
    emulate_and_compare("absmax_f32", {{"n", 1000}});
    emulate_and_compare("colnorm_matvec", {{"n", 40}});
}

TEST(CudaCodegenHostEmulation, HalfPrecisionArrays) {
    emulate_data_kernel("half_precision");
}

// Arrays staged in shared memory (`stage: shared`): the generated tile, staging loops and
// barrier, folded (the staging in the first instance only) and not.
TEST(CudaCodegenHostEmulation, StagedArraysInSharedMemory) {
    const auto load = [](const std::string& name) {
        return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/" + name +
                                        ".yaml");
    };
    kernel::KernelSpec convolution = load("kt_convolution_shared");
    for (const kernel::LaunchConfig& launch :
         {kernel::LaunchConfig{{16, 4, 1}, {1, 1, 1}},
          kernel::LaunchConfig{{8, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided},
          kernel::LaunchConfig{{16, 3, 1}, {1, 2, 1}}}) { // 6 rows a block: not whole blocks
        convolution.launch = launch;
        const std::vector<std::pair<std::string, std::int64_t>> params{
            {"image_width", 32}, {"image_height", 16}, {"filter_width", 3}, {"filter_height", 3}};
        const std::string source =
            generate_cuda(lower_kernel(convolution, launch, params)).cuda_source;
        EXPECT_NE(source.find("__shared__ float input_shared["), std::string::npos) << source;
        emulate_and_compare(convolution, params);
    }
    kernel::KernelSpec hotspot = load("bat_hotspot_shared");
    hotspot.launch = kernel::LaunchConfig{{32, 2, 1}, {1, 3, 1}, kernel::FoldPlacement::strided};
    emulate_and_compare(hotspot, {{"grid_width", 64}, {"grid_height", 12}});
    // A tile of 6 x 3202 floats (76,848 B): beyond the static limit, a dynamic buffer.
    hotspot.launch = kernel::LaunchConfig{{32, 4, 1}, {100, 1, 1}, kernel::FoldPlacement::strided};
    const std::vector<std::pair<std::string, std::int64_t>> wide{{"grid_width", 3200},
                                                                 {"grid_height", 8}};
    const GeneratedKernel dynamic = generate_cuda(lower_kernel(hotspot, hotspot.launch, wide));
    EXPECT_EQ(dynamic.dynamic_shared_memory_bytes, 6 * 3202 * 4);
    emulate_and_compare(hotspot, wide);
    // A guarded read: the staging clipped to the array (its first block would read a[-1]).
    kernel::KernelSpec guarded = kernel::parse_kernel_text(
        "name: guarded\nparams: {n: 64}\narrays:\n  a: {dtype: f32, shape: [n], stage: shared}\n"
        "  b: {dtype: f32, shape: [n]}\ndomain: \"[n] -> { [x] : 0 <= x < n }\"\n"
        "threads: {x: x}\nlaunch: {block: [16], fold: [2], fold_placement: strided}\n"
        "statements:\n  - {do: \"b[x] = a[x - 1] * a[x]\", where: \"x >= 1\"}\n",
        "guarded.yaml");
    emulate_and_compare(guarded, {});
}
