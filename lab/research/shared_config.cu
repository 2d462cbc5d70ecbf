// Which shared-memory configuration (the part of the SM's unified L1/shared array given to
// shared memory) the driver picks for a kernel, by block size and shared memory a block
// claims, with no carve-out preference set. kerncast's simulated L1 takes the L1 as the whole
// array less the resident blocks' shared memory; Nsight Compute reported 8 KiB for 1024-thread
// blocks, 16 KiB for 512 and 32 KiB for 128 and 256 of kernels that claim none
// (lab/measured/h100-2026-11-27/stalls), so the L1 the kernels had was 3-12 % smaller. This
// launches a small kernel over block sizes and dynamic shared memory, one launch each, for
// Nsight Compute to report launch__shared_mem_config_size with the occupancy limits:
//
//   nvcc -O2 -arch=native -std=c++17 -o shared_config lab/research/shared_config.cu
//   ncu --metrics launch__shared_mem_config_size,launch__block_size,\
//   launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_driver,\
//   launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem,\
//   launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__registers_per_thread \
//     --csv ./shared_config
//
// One JSON line a launch on stdout, in launch order.
#include "cuda_check.hpp"

#include <cstdio>
#include <cuda_runtime.h>

namespace {

// Each thread touches its own word of dynamic shared memory (when there is any) and one of
// global memory, so the launch does work without depending on the configuration.
__global__ void touch(float* __restrict__ out, int shared_words) {
    extern __shared__ float scratch[];
    const int t = threadIdx.x;
    float v = static_cast<float>(t);
    if (shared_words > 0) {
        scratch[t % shared_words] = v;
        __syncthreads();
        v += scratch[(t + 1) % shared_words];
    }
    out[blockIdx.x * blockDim.x + t] = v;
}

} // namespace

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = 8 * sms;
    float* out = nullptr;
    CHECK(cudaMalloc(&out, static_cast<size_t>(blocks) * 1024 * sizeof(float)));
    CHECK(cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024));
    std::printf("{\"experiment\": \"shared_config\", \"sm_count\": %d}\n", sms);
    for (int threads : {32, 64, 128, 192, 256, 384, 512, 768, 1024})
        for (int shared_kib : {0, 1, 2, 4, 8, 16, 32, 48, 96}) {
            const size_t bytes = static_cast<size_t>(shared_kib) * 1024;
            touch<<<blocks, threads, bytes>>>(out, static_cast<int>(bytes / sizeof(float)));
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            std::printf("{\"threads\": %d, \"dynamic_shared_kib\": %d}\n", threads, shared_kib);
            std::fflush(stdout);
        }
    CHECK(cudaFree(out));
    return 0;
}
