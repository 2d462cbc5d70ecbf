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
// (cuda_fp16.h: NVRTC gets the toolkit's include directory from the runtime).
TEST(CudaCodegenNvrtc, AtomicAndReductionTestKernelsCompileForSm80) {
    for (const char* name : {"cas_and_real_extrema", "one_and_two_byte_atomics",
                             "nested_reductions", "half_precision"}) {
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
