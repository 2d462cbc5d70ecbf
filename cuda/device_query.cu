// Device query through the CUDA runtime (host code), and a one-thread kernel that proves the
// device really executes code from this binary.
#include "cuda_raii.hpp"
#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"

#include <cuda_runtime.h>
#include <string>

namespace kerncast::gpu {
namespace {

__global__ void ping_kernel(int* flag) {
    *flag = 42;
}

int attribute(cudaDeviceAttr attr, int device) {
    int value = 0;
    KERNCAST_CUDA(cudaDeviceGetAttribute(&value, attr, device));
    return value;
}

} // namespace

bool built_with_cuda() {
    return true;
}

std::vector<DeviceInfo> query_devices() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0))
        throw Error(ErrorKind::unavailable, "no CUDA GPU is visible to this process");
    if (status == cudaErrorInsufficientDriver)
        throw Error(ErrorKind::unavailable,
                    "no usable NVIDIA driver (" + cuda_error_text(status) +
                        "); kerncast's GPU commands need a GPU and its driver");
    KERNCAST_CUDA(status);

    int driver_version = 0;
    int runtime_version = 0;
    KERNCAST_CUDA(cudaDriverGetVersion(&driver_version));
    KERNCAST_CUDA(cudaRuntimeGetVersion(&runtime_version));

    std::vector<DeviceInfo> devices;
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        KERNCAST_CUDA(cudaGetDeviceProperties(&prop, d));
        DeviceInfo info;
        info.ordinal = d;
        info.name = prop.name;
        char bus_id[32] = {};
        KERNCAST_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, d));
        info.pci_bus_id = bus_id;
        info.cc_major = prop.major;
        info.cc_minor = prop.minor;
        info.sm_count = prop.multiProcessorCount;
        info.warp_size = prop.warpSize;
        info.sm_clock_peak_mhz = attribute(cudaDevAttrClockRate, d) / 1000.0;
        info.memory_clock_peak_mhz = attribute(cudaDevAttrMemoryClockRate, d) / 1000.0;
        info.memory_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, d);
        info.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        info.l2_cache_bytes = prop.l2CacheSize;
        info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
        info.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
        info.registers_per_sm = prop.regsPerMultiprocessor;
        info.shared_memory_per_sm_bytes = static_cast<int>(prop.sharedMemPerMultiprocessor);
        info.shared_memory_per_block_optin_bytes = static_cast<int>(prop.sharedMemPerBlockOptin);
        info.driver_version = driver_version;
        info.runtime_version = runtime_version;

        // Run one thread on the device: a GPU that is listed but cannot execute this binary's
        // code (architecture not covered, broken driver) is reported here, not later.
        KERNCAST_CUDA(cudaSetDevice(d));
        const DeviceBuffer<int> flag(1);
        ping_kernel<<<1, 1>>>(flag.get());
        int host_flag = 0;
        const cudaError_t launched = cudaGetLastError();
        const cudaError_t copied =
            cudaMemcpy(&host_flag, flag.get(), sizeof(int), cudaMemcpyDeviceToHost);
        KERNCAST_CUDA(launched);
        KERNCAST_CUDA(copied);
        if (host_flag != 42)
            throw Error(ErrorKind::unavailable,
                        "device " + std::to_string(d) + " did not execute a test kernel");
        devices.push_back(std::move(info));
    }
    return devices;
}

} // namespace kerncast::gpu
