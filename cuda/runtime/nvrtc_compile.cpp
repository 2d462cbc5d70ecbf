// NVRTC: CUDA C++ source -> cubin for the present GPU (or PTX when NVRTC predates the GPU).
#include "kerncast/runtime/nvrtc_compile.hpp"

#include "../cuda_raii.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/ranges.h>
#include <nvrtc.h>

namespace kerncast::runtime {
namespace {

void check(nvrtcResult status, const char* call, int line) {
    if (status != NVRTC_SUCCESS)
        throw Error(ErrorKind::unavailable, std::string(call) + " failed (" + __FILE__ + ":" +
                                                std::to_string(line) +
                                                "): " + nvrtcGetErrorString(status));
}

#define KERNCAST_NVRTC(call) check((call), #call, __LINE__)

std::string program_log(nvrtcProgram program) {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1)
        return {};
    std::string log(size, '\0');
    if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS)
        return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

// NVRTC has no default search path: without --include-path even <cuda_fp16.h> is not found.
const char* cuda_include_variable = "KERNCAST_CUDA_INCLUDE_DIR";

bool has_toolkit_headers(const std::string& directory) {
    std::error_code error;
    return std::filesystem::is_regular_file(std::filesystem::path(directory) / "cuda_fp16.h",
                                            error);
}

} // namespace

std::optional<std::string> cuda_include_directory() {
    if (const char* chosen = std::getenv(cuda_include_variable); chosen && *chosen) {
        if (!has_toolkit_headers(chosen))
            throw Error(ErrorKind::unavailable,
                        std::string(cuda_include_variable) + "='" + chosen +
                            "' is not a CUDA toolkit include directory (it has no cuda_fp16.h)",
                        {},
                        {"set it to the toolkit's include directory, e.g. /usr/local/cuda/include, "
                         "or unset it to use the one kerncast was built with (" +
                         std::string(KERNCAST_CUDA_INCLUDE_DIR) + ")"});
        return std::string(chosen);
    }
    if (has_toolkit_headers(KERNCAST_CUDA_INCLUDE_DIR))
        return std::string(KERNCAST_CUDA_INCLUDE_DIR);
    return std::nullopt;
}

std::vector<int> nvrtc_supported_architectures() {
    int count = 0;
    KERNCAST_NVRTC(nvrtcGetNumSupportedArchs(&count));
    std::vector<int> architectures(static_cast<std::size_t>(count));
    if (count > 0)
        KERNCAST_NVRTC(nvrtcGetSupportedArchs(architectures.data()));
    std::sort(architectures.begin(), architectures.end());
    return architectures;
}

std::string nvrtc_version() {
    int major = 0, minor = 0;
    KERNCAST_NVRTC(nvrtcVersion(&major, &minor));
    return std::to_string(major) + "." + std::to_string(minor);
}

namespace {

// The cubin target of the GPU, or PTX for the newest older virtual architecture when the
// GPU is newer than this NVRTC (the driver JIT-compiles it). An older GPU than NVRTC
// supports cannot be served.
void choose_target(const CompileRequest& request, CompiledKernel& compiled) {
    const int sm = request.cc_major * 10 + request.cc_minor;
    const std::vector<int> supported = nvrtc_supported_architectures();
    if (std::find(supported.begin(), supported.end(), sm) != supported.end()) {
        compiled.target = "sm_" + std::to_string(sm);
        return;
    }
    int newest_older = 0;
    for (int arch : supported)
        if (arch <= sm)
            newest_older = arch;
    if (newest_older == 0)
        throw Error(ErrorKind::unavailable,
                    "this NVRTC cannot generate code for compute capability " +
                        std::to_string(request.cc_major) + "." + std::to_string(request.cc_minor),
                    {}, {fmt::format("NVRTC supports SM versions {}", fmt::join(supported, ", "))});
    compiled.target = "compute_" + std::to_string(newest_older);
    compiled.is_ptx = true;
}

// The lowered (mangled) names of the kernel and of the requested global variables.
void read_lowered_names(nvrtcProgram program, const CompileRequest& request,
                        const std::string& name, CompiledKernel& compiled) {
    const char* lowered = nullptr;
    if (nvrtcGetLoweredName(program, request.kernel_name.c_str(), &lowered) != NVRTC_SUCCESS ||
        lowered == nullptr)
        throw Error(ErrorKind::input,
                    "'" + name + "' has no __global__ function '" + request.kernel_name + "'",
                    SourceLocation{name, 0, 0, "", ""},
                    {"--kernel takes the function's name, e.g. saxpy; for a template, the "
                     "instantiation, e.g. scale<float>"});
    compiled.lowered_name = lowered;
    for (const auto& variable : request.global_variables) {
        const char* symbol = nullptr;
        if (nvrtcGetLoweredName(program, ("&" + variable).c_str(), &symbol) != NVRTC_SUCCESS ||
            symbol == nullptr)
            throw Error(ErrorKind::input,
                        "'" + name + "' has no __device__ or __constant__ variable '" + variable +
                            "'",
                        SourceLocation{name, 0, 0, "", ""});
        compiled.lowered_globals.push_back(symbol);
    }
}

void read_image(nvrtcProgram program, CompiledKernel& compiled) {
    std::size_t size = 0;
    if (compiled.is_ptx) {
        KERNCAST_NVRTC(nvrtcGetPTXSize(program, &size));
        compiled.image.resize(size);
        KERNCAST_NVRTC(nvrtcGetPTX(program, compiled.image.data()));
    } else {
        KERNCAST_NVRTC(nvrtcGetCUBINSize(program, &size));
        compiled.image.resize(size);
        KERNCAST_NVRTC(nvrtcGetCUBIN(program, compiled.image.data()));
    }
}

} // namespace

CompiledKernel compile_cuda_source(const CompileRequest& request) {
    KERNCAST_CHECK(!request.kernel_name.empty(), "compile request without a kernel name");
    CompiledKernel compiled;
    choose_target(request, compiled);

    compiled.options = {"--gpu-architecture=" + compiled.target, "--std=c++17"};
    const std::optional<std::string> include_directory = cuda_include_directory();
    if (include_directory)
        compiled.options.push_back("--include-path=" + *include_directory);
    for (const auto& option : request.extra_options)
        compiled.options.push_back(option);
    std::vector<const char*> option_pointers;
    for (const auto& option : compiled.options)
        option_pointers.push_back(option.c_str());

    const std::string name = request.source_name.empty() ? "kernel.cu" : request.source_name;
    nvrtcProgram created = nullptr;
    KERNCAST_NVRTC(
        nvrtcCreateProgram(&created, request.source.c_str(), name.c_str(), 0, nullptr, nullptr));
    const gpu::NvrtcProgram program(created);
    KERNCAST_NVRTC(nvrtcAddNameExpression(program.get(), request.kernel_name.c_str()));
    for (const auto& variable : request.global_variables)
        KERNCAST_NVRTC(nvrtcAddNameExpression(program.get(), ("&" + variable).c_str()));
    const nvrtcResult status = nvrtcCompileProgram(
        program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
    compiled.log = program_log(program.get());
    if (status != NVRTC_SUCCESS) {
        std::vector<std::string> notes;
        if (!compiled.log.empty())
            notes.push_back("NVRTC log:\n" + compiled.log);
        if (!include_directory)
            notes.push_back("the CUDA toolkit headers (cuda_fp16.h, ...) were not found at " +
                            std::string(KERNCAST_CUDA_INCLUDE_DIR) + "; set " +
                            cuda_include_variable +
                            " to the toolkit's include directory if the source includes them");
        throw Error(ErrorKind::input,
                    "NVRTC could not compile '" + name + "' for " + compiled.target + ": " +
                        nvrtcGetErrorString(status),
                    SourceLocation{name, 0, 0, "", ""}, notes);
    }
    read_lowered_names(program.get(), request, name, compiled);
    read_image(program.get(), compiled);
    return compiled;
}

} // namespace kerncast::runtime
