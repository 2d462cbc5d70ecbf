// NVRTC needs no GPU: these run wherever kerncast is built with CUDA.
#include "kerncast/error.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>

namespace kerncast::runtime {
namespace {

const char* saxpy_source = R"(
extern "C" __global__ void saxpy(int n, float a, const float* x, const float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + y[i];
}
template <typename T> __global__ void scale(T* data, T factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}
)";

TEST(NvrtcCompile, SupportsCurrentArchitectures) {
    const auto archs = nvrtc_supported_architectures();
    ASSERT_FALSE(archs.empty());
    EXPECT_TRUE(std::is_sorted(archs.begin(), archs.end()));
    EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end()); // Hopper
}

TEST(NvrtcCompile, CompilesToCubinForAKnownSm) {
    const CompiledKernel compiled =
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpy", 9, 0, {}, {}});
    EXPECT_FALSE(compiled.is_ptx);
    EXPECT_EQ(compiled.target, "sm_90");
    EXPECT_EQ(compiled.lowered_name, "saxpy");
    ASSERT_GT(compiled.image.size(), 4u);
    EXPECT_EQ(compiled.image.substr(0, 4), "\x7f"
                                           "ELF"); // a cubin is an ELF file
}

TEST(NvrtcCompile, TemplateNameExpressionsAreLowered) {
    const CompiledKernel compiled =
        compile_cuda_source({saxpy_source, "saxpy.cu", "scale<float>", 8, 0, {}, {}});
    EXPECT_EQ(compiled.target, "sm_80");
    EXPECT_EQ(compiled.lowered_name.rfind("_Z", 0), 0u) << compiled.lowered_name; // mangled
    EXPECT_NE(compiled.image.find(compiled.lowered_name), std::string::npos);
}

TEST(NvrtcCompile, NewerGpuGetsPtx) {
    const auto archs = nvrtc_supported_architectures();
    const int newest = archs.back();
    const int future_major = newest / 10 + 5; // a compute capability NVRTC cannot know
    const CompiledKernel compiled =
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpy", future_major, 0, {}, {}});
    EXPECT_TRUE(compiled.is_ptx);
    EXPECT_EQ(compiled.target, "compute_" + std::to_string(newest));
    EXPECT_NE(compiled.image.find(".entry saxpy"), std::string::npos);
}

TEST(NvrtcCompile, CompileErrorCarriesTheLog) {
    try {
        compile_cuda_source(
            {"extern \"C\" __global__ void broken(float* x) { x[0] = undefined_name; }\n",
             "broken.cu",
             "broken",
             8,
             0,
             {},
             {}});
        FAIL() << "expected a compile error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("could not compile 'broken.cu' for sm_80"), std::string::npos);
        const std::string text = e.describe();
        EXPECT_NE(text.find("undefined_name"), std::string::npos) << text;
        EXPECT_NE(text.find("broken.cu(1)"), std::string::npos) << text;
    }
}

TEST(NvrtcCompile, MissingKernelIsAnInputError) {
    try {
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpi", 8, 0, {}, {}});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("saxpi"), std::string::npos) << e.describe();
    }
}

// NVRTC has no default include path: kerncast adds the toolkit's, so CUDA's own headers work.
TEST(NvrtcCompile, FindsTheToolkitHeaders) {
    const char* half_source = R"(#include <cuda_fp16.h>
extern "C" __global__ void add_one(__half* h) { h[0] = __float2half_rn(__half2float(h[0]) + 1.0f); }
)";
    const auto include_directory = cuda_include_directory();
    ASSERT_TRUE(include_directory);
    const CompiledKernel compiled =
        compile_cuda_source({half_source, "half.cu", "add_one", 8, 0, {}, {}});
    EXPECT_NE(std::find(compiled.options.begin(), compiled.options.end(),
                        "--include-path=" + *include_directory),
              compiled.options.end());
}

TEST(NvrtcCompile, IncludeDirectoryCanBeOverriddenAndIsChecked) {
    const auto built_in = cuda_include_directory();
    ASSERT_TRUE(built_in);
    ::setenv("KERNCAST_CUDA_INCLUDE_DIR", "/nonexistent/cuda/include", 1);
    try {
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpy", 8, 0, {}, {}});
        ADD_FAILURE() << "a directory without cuda_fp16.h was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
        EXPECT_NE(e.message().find("KERNCAST_CUDA_INCLUDE_DIR='/nonexistent/cuda/include'"),
                  std::string::npos)
            << e.message();
    }
    ::setenv("KERNCAST_CUDA_INCLUDE_DIR", built_in->c_str(), 1);
    EXPECT_EQ(cuda_include_directory(), built_in);
    ::unsetenv("KERNCAST_CUDA_INCLUDE_DIR");
}

// __constant__ arrays the harness fills: kept even when unused, and their symbols reported
// (namespace-scope names unmangled, names inside a namespace mangled).
TEST(NvrtcCompile, GlobalVariablesAreKeptAndLowered) {
    const char* source = R"(
__constant__ double weights[25];
namespace table { __constant__ float values[4]; }
extern "C" __global__ void nothing(float* x) { x[0] = 1.0f; }
)";
    CompileRequest request{
        source, "constants.cu", "nothing", 8, 0, {}, {"weights", "table::values"}};
    const CompiledKernel cubin = compile_cuda_source(request);
    ASSERT_EQ(cubin.lowered_globals.size(), 2u);
    EXPECT_EQ(cubin.lowered_globals[0], "weights");
    EXPECT_EQ(cubin.lowered_globals[1], "_ZN5table6valuesE");
    // In PTX the (unused) arrays are still there, in the constant state space.
    request.cc_major = nvrtc_supported_architectures().back() / 10 + 5;
    const CompiledKernel ptx = compile_cuda_source(request);
    ASSERT_TRUE(ptx.is_ptx);
    EXPECT_NE(ptx.image.find(".const .align 8 .b8 weights[200]"), std::string::npos) << ptx.image;
    EXPECT_NE(ptx.image.find(".const .align 4 .b8 _ZN5table6valuesE[16]"), std::string::npos);
}

TEST(NvrtcCompile, MissingGlobalVariableIsAnInputError) {
    try {
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpy", 8, 0, {}, {"weights"}});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.describe().find("weights"), std::string::npos) << e.describe();
    }
}

TEST(NvrtcCompile, TooOldGpuIsUnavailable) {
    try {
        compile_cuda_source({saxpy_source, "saxpy.cu", "saxpy", 3, 0, {}, {}});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
    }
}

} // namespace
} // namespace kerncast::runtime
