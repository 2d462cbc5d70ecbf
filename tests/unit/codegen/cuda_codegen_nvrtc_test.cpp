// The generated source of every example compiles with NVRTC (needs no GPU).
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using namespace kerncast;

TEST(CudaCodegenNvrtc, EveryExampleCompilesForSm80) {
    int compiled = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels")) {
        if (entry.path().extension() != ".yaml")
            continue;
        SCOPED_TRACE(entry.path().string());
        const auto spec = kernel::load_kernel_file(entry.path().string());
        const codegen::GeneratedKernel g =
            codegen::generate_cuda(codegen::lower_kernel(spec, spec.launch));
        const runtime::CompiledKernel result = runtime::compile_cuda_source(
            {g.cuda_source, spec.name + ".cu", g.kernel_name, 8, 0, {}, {}});
        EXPECT_EQ(result.target, "sm_80");
        EXPECT_EQ(result.lowered_name, g.kernel_name); // extern "C": not mangled
        ++compiled;
    }
    EXPECT_GE(compiled, 17);
}

// The kernels of tests/unit/codegen/data: compare-and-swap, the compare-and-swap loops of real
// min/max and of 1- and 2-byte atomics (global and __align__(4) shared), nested reductions, f16
// (cuda_fp16.h: NVRTC gets the toolkit's include directory from the runtime), the fold fast
// path's f16 and __constant__ locals.
TEST(CudaCodegenNvrtc, AtomicAndReductionTestKernelsCompileForSm80) {
    for (const char* name : {"cas_and_real_extrema", "one_and_two_byte_atomics",
                             "nested_reductions", "half_precision", "fold_fast_path_half"}) {
        SCOPED_TRACE(name);
        const auto spec = kernel::load_kernel_file(
            std::string(KERNCAST_SOURCE_DIR "/tests/unit/codegen/data/") + name + ".yaml");
        const codegen::GeneratedKernel g =
            codegen::generate_cuda(codegen::lower_kernel(spec, spec.launch));
        const runtime::CompiledKernel result = runtime::compile_cuda_source(
            {g.cuda_source, spec.name + ".cu", g.kernel_name, 8, 0, {}, {}});
        EXPECT_EQ(result.target, "sm_80");
        EXPECT_EQ(result.lowered_name, g.kernel_name);
        EXPECT_FALSE(result.image.empty());
    }
}

namespace {

// The generated source of the autotuning example `name` at `launch`, which must compile for
// sm_80 (ptxas included: an image comes back).
codegen::GeneratedKernel compiled_for_sm80(const std::string& name,
                                           const kernel::LaunchConfig& launch) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/autotuning/" + name + ".yaml");
    codegen::GeneratedKernel g = codegen::generate_cuda(codegen::lower_kernel(spec, launch));
    const runtime::CompiledKernel result = runtime::compile_cuda_source(
        {g.cuda_source, spec.name + ".cu", g.kernel_name, 8, 0, {}, {}});
    EXPECT_EQ(result.target, "sm_80");
    EXPECT_FALSE(result.image.empty());
    return g;
}

// How often `instruction` appears in the PTX NVRTC makes of `g` for a GPU newer than it knows
// (what nvcc's front end emits); a failed expectation where NVRTC makes no PTX.
size_t ptx_occurrences(const codegen::GeneratedKernel& g, const std::string& instruction) {
    const int future_major = runtime::nvrtc_supported_architectures().back() / 10 + 5;
    const runtime::CompiledKernel result = runtime::compile_cuda_source(
        {g.cuda_source, g.kernel_name + ".cu", g.kernel_name, future_major, 0, {}, {}});
    EXPECT_TRUE(result.is_ptx);
    size_t found = 0;
    for (size_t at = result.image.find(instruction); at != std::string::npos;
         at = result.image.find(instruction, at + 1))
        ++found;
    return found;
}

} // namespace

// A kernel staged in shared memory (`stage: shared`) at a folded launch: the static tile of
// (4*2 + 16) x (32*2 + 16) floats, its staging loops and barriers.
TEST(CudaCodegenNvrtc, StagedConvolutionCompilesForSm80) {
    const codegen::GeneratedKernel g = compiled_for_sm80(
        "kt_convolution_shared", {{32, 4, 1}, {2, 2, 1}, kernel::FoldPlacement::strided});
    EXPECT_NE(g.cuda_source.find("__shared__ float input_shared[1920];"), std::string::npos);
}

// A tile beyond the 48 KiB a kernel may declare statically (6 x 6402 floats: 153,648 B, which
// ptxas refuses as a static array) compiles as one dynamic shared buffer.
TEST(CudaCodegenNvrtc, TilesBeyondTheStaticLimitCompileAsDynamicSharedMemory) {
    const codegen::GeneratedKernel g = compiled_for_sm80(
        "bat_hotspot_shared", {{32, 4, 1}, {200, 1, 1}, kernel::FoldPlacement::strided});
    EXPECT_EQ(g.dynamic_shared_memory_bytes, 153648);
}

// The fold fast path's loads reach PTX one per distinct element: as many global loads as the
// L1 model's instructions per thread (fold_load_reuse_test.cpp checks those against the
// model). The domain is a whole number of blocks, so there is no guard and no fold loop beside
// the fast path. PTX (for a GPU newer than NVRTC knows) shows what nvcc's front end emits.
TEST(CudaCodegenNvrtc, FoldFastPathIssuesEachLoadOnce) {
    auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR
                                         "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    struct Case {
        kernel::LaunchConfig launch;
        std::int64_t nz;
        size_t loads;
    };
    // 13 loads in the first instance, 9 in each further one (the z column is shared).
    for (const Case& c : {Case{{{32, 4, 8}, {1, 1, 2}}, 4 + 16, 13 + 9},
                          Case{{{32, 4, 2}, {1, 1, 4}}, 4 + 8, 13 + 3 * 9}}) {
        SCOPED_TRACE(c.loads);
        spec.launch = c.launch;
        const codegen::GeneratedKernel g = codegen::generate_cuda(
            codegen::lower_kernel(spec, c.launch, {{"nx", 36}, {"ny", 8}, {"nz", c.nz}}));
        ASSERT_EQ(g.cuda_source.find("if ("), std::string::npos) << g.cuda_source;
        ASSERT_NE(g.cuda_source.find("kc_src_0"), std::string::npos) << g.cuda_source;
        EXPECT_EQ(ptx_occurrences(g, "ld.global"), c.loads);
    }
}

// pnpoly at tile 4 (the strided fold) computes each edge's slope once for the thread's four
// points, as the analysis counts it
// (KernelAnalysis.PnpolySlopesAreComputedOncePerThreadForItsTile): at 1024 points and 5 vertices
// (no guard, so no fold loop), 5 divisions in PTX, not 20.
TEST(CudaCodegenNvrtc, FoldFastPathComputesSharedValuesOnce) {
    auto spec = kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/autotuning/kt_pnpoly.yaml");
    spec.launch = {{256, 1, 1}, {4, 1, 1}, kernel::FoldPlacement::strided};
    const codegen::GeneratedKernel g = codegen::generate_cuda(
        codegen::lower_kernel(spec, spec.launch, {{"n", 1024}, {"vertices", 5}}));
    ASSERT_EQ(g.cuda_source.find("if ("), std::string::npos) << g.cuda_source;
    ASSERT_NE(g.cuda_source.find("kc_v_0"), std::string::npos) << g.cuda_source;
    EXPECT_EQ(ptx_occurrences(g, "div.rn.f32"), 5u);
}
