// CUDA runtime error checking shared by every .cu file: a failure names the call, the file
// and the line, and becomes an Error of kind `unavailable` (exit 3).
#pragma once

#include "kerncast/error.hpp"

#include <cuda_runtime.h>
#include <string>

namespace kerncast::gpu {

// "cudaErrorNoDevice: no CUDA-capable device is detected"
inline std::string cuda_error_text(cudaError_t status) {
    return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess)
        throw Error(ErrorKind::unavailable, std::string(call) + " failed (" + file + ":" +
                                                std::to_string(line) +
                                                "): " + cuda_error_text(status));
}

} // namespace kerncast::gpu

#define KERNCAST_CUDA(call) ::kerncast::gpu::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch errors now, execution errors at the next synchronisation.
#define KERNCAST_CUDA_LAUNCHED(kernel_name)                                                        \
    ::kerncast::gpu::cuda_check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
