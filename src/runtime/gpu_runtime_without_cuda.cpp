// Built without CUDA: the GPU runtime's entry points say so (exit code 3).
#include "kerncast/error.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"
#include "kerncast/runtime/timing_harness.hpp"

namespace kerncast::runtime {

static const char* without_cuda =
    "kerncast was built without CUDA; rebuild with -DKERNCAST_ENABLE_CUDA=ON and the CUDA "
    "toolkit installed to compile and run kernels";

CompiledKernel compile_cuda_source(const CompileRequest&) {
    throw Error(ErrorKind::unavailable, without_cuda);
}

std::optional<std::string> cuda_include_directory() {
    return std::nullopt;
}

std::vector<int> nvrtc_supported_architectures() {
    return {};
}

std::string nvrtc_version() {
    return "";
}

TimedRun time_kernel(const TimingRequest&) {
    throw Error(ErrorKind::unavailable, without_cuda);
}

std::optional<std::int64_t> device_constant_memory_bytes(int) {
    return std::nullopt;
}

} // namespace kerncast::runtime
