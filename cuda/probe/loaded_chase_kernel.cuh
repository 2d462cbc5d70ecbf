// Latency under load (docs/probe.md, "Latency under load"): thread 0 of block 0 chases a
// random chain in DRAM while blocks 1.. stream a load/store mix over the stream region, so the
// chase's cycles per load are the latency a dependent load sees at the bandwidth the streams
// reach. A curve of the GPU, not of a kernel: a kernel whose throughput is limited by the bytes
// it keeps in flight (Little's law) runs at the bandwidth where that latency holds them.
#pragma once

#include "bandwidth_kernels.cuh"
#include "chase_kernels.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace kerncast::probe::device {

// What block 0 and the streams share: the phase (0 starting, 1 the chase is timed, 2 done),
// the bytes the streams moved in phase 1, the plain chase's cycles and the nanoseconds of
// phase 1 (the plain chase and the hop-by-hop one after it).
struct LoadedChaseControl {
    unsigned int phase;
    unsigned int padding;
    unsigned long long streamed_bytes;
    unsigned long long chase_cycles;
    unsigned long long plain_nanoseconds; // the plain chase's
    unsigned long long chase_nanoseconds; // phase 1's
    unsigned long long sm;
};

// The streams start before the chase is timed: ramp_ns of streaming first. A stream stops
// when the chase is done, or after guard_ns whatever happens (a chase block that never ran).
constexpr unsigned long long loaded_chase_ramp_ns = 200000;
constexpr unsigned long long loaded_chase_guard_ns = 2000000000ull;

// Loads:Stores is 1:0 or 1:1 (a stencil's DRAM traffic lies between them). Each stream thread
// keeps the loads of 4 grid-stride steps in flight (as mix_stream does) over slices of
// slice_count elements (the loads' slice, then the stores'; slice_count > 4 x the streaming
// threads, which the host checks), wrapping around, and counts the
// bytes it moves while the chase is timed; lane 0 of each warp polls the phase.
template <int Loads, int Stores>
__global__ void loaded_chase(const std::uint32_t* __restrict__ buffer, std::uint32_t start,
                             std::uint32_t iterations, std::uint32_t hop_iterations,
                             std::uint32_t* __restrict__ hop_cycles, uint4* __restrict__ region,
                             std::size_t slice_count, LoadedChaseControl* control,
                             std::uint32_t* __restrict__ sink) {
    static_assert(Loads == 1 && (Stores == 0 || Stores == 1), "mixes 1:0 and 1:1 only");
    volatile unsigned int* phase = &control->phase;
    __shared__ std::uint32_t s_sink;
    if (blockIdx.x == 0) {
        if (threadIdx.x != 0)
            return;
        const unsigned long long ramp_start = globaltimer_ns();
        while (globaltimer_ns() - ramp_start < loaded_chase_ramp_ns) {
        }
        *phase = 1;
        __threadfence();
        std::uint32_t j = start;
        const unsigned long long g0 = globaltimer_ns();
        const long long c0 = clock_fenced();
        j = after_fence(j);
        for (std::uint32_t k = 0; k < iterations; ++k)
            j = load_next<LoadKind::global_cg>(buffer, j, 0, 0xffffffffu);
        sink[0] = j; // the last load completes before the clock read below
        const long long c1 = clock_fenced();
        const unsigned long long g_plain = globaltimer_ns();
        // Then hop by hop: each load timed alone, the shared store waiting for it (the
        // fine-grained chase's guard), for the spread of the latency under the same load.
        const auto sink_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&s_sink));
        for (std::uint32_t k = 0; k < hop_iterations; ++k) {
            const long long t0 = clock_fenced();
            j = load_next<LoadKind::global_cg>(buffer, after_fence(j), 0, 0xffffffffu);
            asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink_address), "r"(j) : "memory");
            const long long t1 = clock_fenced();
            hop_cycles[k] = static_cast<std::uint32_t>(t1 - t0);
        }
        sink[0] = j;
        const unsigned long long g1 = globaltimer_ns();
        __threadfence();
        *phase = 2;
        control->chase_cycles = static_cast<unsigned long long>(c1 - c0);
        control->plain_nanoseconds = g_plain - g0;
        control->chase_nanoseconds = g1 - g0;
        control->sm = sm_id();
        return;
    }
    constexpr int in_flight = 4;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x - 1) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x - 1) * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    const unsigned long long begin = globaltimer_ns();
    unsigned long long counted = 0;
    std::uint32_t acc = 0;
    for (;;) {
        unsigned int now = 0;
        if (lane == 0)
            now = *phase;
        now = __shfl_sync(0xffffffffu, now, 0);
        if (now == 2 || globaltimer_ns() - begin > loaded_chase_guard_ns)
            break;
        std::size_t index[in_flight];
        uint4 v[in_flight];
#pragma unroll
        for (int k = 0; k < in_flight; ++k) {
            index[k] = i + k * stride; // no modulo: a 64-bit division would bind the stream
            index[k] -= index[k] >= slice_count ? slice_count : 0;
            v[k] = stream_load<true>(region + index[k]);
        }
#pragma unroll
        for (int k = 0; k < in_flight; ++k) {
            if constexpr (Stores == 1)
                stream_store_cg(region + slice_count + index[k], v[k]);
            else
                acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
        }
        if (now == 1)
            counted += in_flight * (Loads + Stores) * sizeof(uint4);
        i += in_flight * stride;
        i -= i >= slice_count ? slice_count : 0;
    }
    for (int offset = 16; offset > 0; offset /= 2)
        counted += __shfl_down_sync(0xffffffffu, counted, offset);
    if (lane == 0 && counted > 0)
        atomicAdd(&control->streamed_bytes, counted);
    if (acc == 0x9e3779b9u)
        sink[1] = acc;
}

} // namespace kerncast::probe::device
