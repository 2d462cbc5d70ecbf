// Bandwidth kernels: 16-byte vector loads and stores over grid-stride loops. The host sweeps
// blocks and threads per block and keeps the fastest shape (docs/probe.md, "Bandwidth").
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace kerncast::probe::device {

// Streams `count` uint4 from data, `passes` times (passes > 1 re-reads a cache-resident
// array: L2 bandwidth). The XOR keeps the loads alive; the impossible store keeps the XOR.
__global__ void read_stream(const uint4* __restrict__ data, std::size_t count, int passes,
                            std::uint32_t* __restrict__ sink) {
    std::uint32_t acc = 0;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
             i < count; i += stride) {
            const uint4 v = data[i];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

__global__ void write_stream(uint4* __restrict__ data, std::size_t count, int passes) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
             i < count; i += stride)
            data[i] = make_uint4(static_cast<std::uint32_t>(i), pass, 0, 0);
}

// L1: every block re-reads its own slice (small enough for L1) `passes` times.
__global__ void read_slices(const uint4* __restrict__ data, std::size_t slice_count, int passes,
                            std::uint32_t* __restrict__ sink) {
    const uint4* slice = data + blockIdx.x * slice_count;
    std::uint32_t acc = 0;
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = threadIdx.x; i < slice_count; i += blockDim.x) {
            uint4 v;
            asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "l"(slice + i));
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

// Shared memory: every block fills `count` uint4 of shared memory and re-reads it.
__global__ void read_shared(std::size_t count, int passes, std::uint32_t* __restrict__ sink) {
    extern __shared__ uint4 s_data[];
    for (std::size_t i = threadIdx.x; i < count; i += blockDim.x)
        s_data[i] = make_uint4(static_cast<std::uint32_t>(i), 1, 2, 3);
    __syncthreads();
    std::uint32_t acc = 0;
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) {
            const uint4 v = s_data[(i + pass) % count];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

} // namespace kerncast::probe::device
