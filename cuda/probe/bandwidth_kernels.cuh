// Bandwidth kernels: 16-byte vector loads and stores over grid-stride loops (DRAM, L2) or
// over each block's own slice (L1, shared memory). The host sweeps blocks and threads per
// block and keeps the fastest shape (docs/probe.md, "Bandwidth"). The loop arithmetic and the
// bytes each launch moves are chain_layout.hpp's, checked on the host.
#pragma once

#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/probe_device.hpp"

#include <cstdint>
#include <cuda_runtime.h>

namespace kerncast::probe::device {

// Streams `count` uint4 from data, `passes` times (passes > 1 re-reads a cache-resident
// array: L2 bandwidth). The XOR keeps the loads alive; the impossible store keeps the XOR.
// Each thread issues the loads of 4 grid-stride steps before it uses one: with one load in
// flight a thread (the first version), the stream was bound by latency, not bandwidth, on the
// H200 (4102 GB/s against 4516 for a stream with 4 points' loads in flight a thread,
// lab/measured/h200-2026-11-27/dram-mix). L2Only loads with ld.global.cg (cache in L2, not
// L1). The L2 pass needs it: a grid-stride loop of a fixed grid gives every SM the same
// elements on every pass, a quarter of L2 over the SMs is smaller than one SM's L1 on Ampere and
// Hopper (60 MiB / 4 / 132 SMs = 116 KiB against the H200's 241 KiB), and plain loads then
// measured L1 re-reads: 15.4 TB/s on the first H200 run (2026-11-26), next to its 17.0 TB/s L1
// figure.
template <bool L2Only> __device__ uint4 stream_load(const uint4* address) {
    uint4 v;
    if constexpr (L2Only)
        asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "l"(address));
    else
        v = *address;
    return v;
}

template <bool L2Only>
__global__ void read_stream(const uint4* __restrict__ data, std::size_t count, int passes,
                            std::uint32_t* __restrict__ sink) {
    constexpr int in_flight = mix_stream_steps_in_flight; // loads a thread issues at once
    std::uint32_t acc = 0;
    const std::size_t stride = chain::grid_stride_step(gridDim.x, blockDim.x);
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = chain::grid_stride_first(blockIdx.x, blockDim.x, threadIdx.x);
             i < count; i += in_flight * stride) {
            uint4 v[in_flight];
#pragma unroll
            for (int k = 0; k < in_flight; ++k)
                v[k] = i + k * stride < count ? stream_load<L2Only>(data + i + k * stride)
                                              : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int k = 0; k < in_flight; ++k)
                acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
        }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

__global__ void write_stream(uint4* __restrict__ data, std::size_t count, int passes) {
    const std::size_t stride = chain::grid_stride_step(gridDim.x, blockDim.x);
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = chain::grid_stride_first(blockIdx.x, blockDim.x, threadIdx.x);
             i < count; i += stride)
            data[i] = make_uint4(static_cast<std::uint32_t>(i), pass, 0, 0);
}

// Streams of one load/store mix: each point of a grid-stride loop over `slice_count` elements
// loads element i of the slices 0..Loads-1 and stores element i of the slices
// Loads..Loads+Stores-1 (all `slice_count` long, back to back in `region`), `passes` times;
// both bypass L1 (.cg). Slices far larger than L2 and one pass time the DRAM; slices that fit
// in a quarter of L2 and many passes (resident after a warm-up launch) time the L2. A thread
// issues the loads of 4 grid-stride steps before it uses one, as read_stream does: a memory
// that serves a mix more slowly than its loads alone shows here, not a latency limit of the
// kernel. The loads-alone mix stores nothing unless the XOR hits the impossible value.
__device__ inline void stream_store_cg(uint4* address, uint4 value) {
    asm volatile("st.global.cg.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(address), "r"(value.x),
                 "r"(value.y), "r"(value.z), "r"(value.w)
                 : "memory");
}

template <int Loads, int Stores>
__global__ void mix_stream(uint4* __restrict__ region, std::size_t slice_count, int passes,
                           std::uint32_t* __restrict__ sink) {
    constexpr int in_flight = mix_stream_steps_in_flight;
    static_assert(sizeof(uint4) == mix_stream_load_bytes);
    const std::size_t stride = chain::grid_stride_step(gridDim.x, blockDim.x);
    std::uint32_t acc = 0;
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = chain::grid_stride_first(blockIdx.x, blockDim.x, threadIdx.x);
             i < slice_count; i += in_flight * stride) {
            uint4 v[in_flight][Loads > 0 ? Loads : 1];
#pragma unroll
            for (int k = 0; k < in_flight; ++k)
#pragma unroll
                for (int l = 0; l < (Loads > 0 ? Loads : 1); ++l)
                    v[k][l] = Loads > 0 && i + k * stride < slice_count
                                  ? stream_load<true>(region + l * slice_count + i + k * stride)
                                  : make_uint4(static_cast<std::uint32_t>(i + k * stride), 1, 2, 3);
#pragma unroll
            for (int k = 0; k < in_flight; ++k) {
                uint4 sum = v[k][0];
#pragma unroll
                for (int l = 1; l < Loads; ++l)
                    sum = make_uint4(sum.x ^ v[k][l].x, sum.y ^ v[k][l].y, sum.z ^ v[k][l].z,
                                     sum.w ^ v[k][l].w);
                acc ^= sum.x ^ sum.y ^ sum.z ^ sum.w;
                if (i + k * stride < slice_count)
#pragma unroll
                    for (int s = 0; s < Stores; ++s)
                        stream_store_cg(region + (Loads + s) * slice_count + i + k * stride, sum);
            }
        }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

// L1: every block re-reads its own slice (small enough for L1) `passes` times.
__global__ void read_slices(const uint4* __restrict__ data, std::size_t slice_count, int passes,
                            std::uint32_t* __restrict__ sink) {
    const uint4* slice = data + chain::slice_first(blockIdx.x, slice_count);
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

// L1 stores: every block re-writes its own slice `passes` times (st.global.wb, the default
// write-back policy). The stores are volatile asm, so no pass is merged into the next. On
// GPUs whose L1 writes through to L2 this is the SM's store path into L2 with an L1-sized
// footprint (docs/probe.md says what that means for the value).
__global__ void write_slices(uint4* __restrict__ data, std::size_t slice_count, int passes) {
    uint4* slice = data + chain::slice_first(blockIdx.x, slice_count);
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = threadIdx.x; i < slice_count; i += blockDim.x)
            asm volatile("st.global.wb.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(slice + i),
                         "r"(static_cast<std::uint32_t>(i)), "r"(static_cast<std::uint32_t>(pass)),
                         "r"(0u), "r"(0u)
                         : "memory");
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

// Shared-memory stores: every block writes `count` uint4 of shared memory `passes` times
// (volatile st.shared.v4: every store issues), then one value is read back so the shared
// array is live.
__global__ void write_shared(std::size_t count, int passes, std::uint32_t* __restrict__ sink) {
    extern __shared__ uint4 s_data[];
    const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(s_data));
    for (int pass = 0; pass < passes; ++pass)
        for (std::size_t i = threadIdx.x; i < count; i += blockDim.x)
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(
                             base + static_cast<std::uint32_t>(i * sizeof(uint4))),
                         "r"(static_cast<std::uint32_t>(i)), "r"(static_cast<std::uint32_t>(pass)),
                         "r"(1u), "r"(2u)
                         : "memory");
    __syncthreads();
    if (threadIdx.x == 0 && s_data[count - 1].x == 0x9e3779b9u)
        sink[0] = s_data[0].y;
}

} // namespace kerncast::probe::device
