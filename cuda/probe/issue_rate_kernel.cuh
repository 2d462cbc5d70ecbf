// MWP-CWP's Issue_cycles (Hong & Kim 2009, Table 1 and eq. (19)): the SM cycles one warp
// instruction occupies the SM's issue, measured on a stream of instructions that no execution
// pipe limits (docs/probe.md, "Issue cycles").
#pragma once

#include "chase_kernels.cuh"

#include <cstdint>
#include <cuda_runtime.h>

namespace kerncast::probe::device {

// Each step is four FP32 fused multiply-adds and two integer chains of one xor and one add:
// as many instructions for the FP32 pipe as for the integer pipe, so on an SM sub-partition
// with 16 FP32 and 16 INT32 lanes (Volta, A100) both pipes take a warp instruction every other
// cycle and with 32 FP32 lanes (Hopper) neither limits; the dispatch of one warp instruction a
// cycle is the limit. Six independent chains keep a warp issuing while earlier results are in
// flight. The runtime mask and step keep the compiler from folding the chains (a constant step
// of 0 lets x ^ m ^ m cancel).
constexpr int issue_rate_steps = 64;
// PTX instructions one loop iteration executes: 64 steps x (4 fma + 2 xor + 2 add), plus the
// loop's counter add, compare and branch (PTX of sm_75, sm_80 and sm_90 alike).
constexpr int issue_rate_instructions_per_iteration = issue_rate_steps * 8 + 3;

// One block; thread 0 reads the clock after every warp has arrived and again after every warp
// has finished `iterations` iterations.
__global__ void issue_rate(int iterations, float multiplier, float addend, std::uint32_t mask,
                           std::uint32_t step, unsigned long long* __restrict__ cycles,
                           std::uint32_t* __restrict__ sink) {
    float f0 = static_cast<float>(threadIdx.x);
    float f1 = f0 + 1.0f;
    float f2 = f0 + 2.0f;
    float f3 = f0 + 3.0f;
    std::uint32_t i0 = threadIdx.x;
    std::uint32_t i1 = threadIdx.x * 3u;
    __syncthreads();
    const long long t0 = clock_fenced();
#pragma unroll 1
    for (int n = 0; n < iterations; ++n) {
#pragma unroll
        for (int k = 0; k < issue_rate_steps; ++k) {
            f0 = fmaf(f0, multiplier, addend);
            i0 = (i0 ^ mask) + step;
            f1 = fmaf(f1, multiplier, addend);
            f2 = fmaf(f2, multiplier, addend);
            i1 = (i1 ^ mask) + step;
            f3 = fmaf(f3, multiplier, addend);
        }
    }
    __syncthreads();
    const long long t1 = clock_fenced();
    if (threadIdx.x == 0)
        cycles[0] = static_cast<unsigned long long>(t1 - t0);
    // Keeps every chain live; never true for the host's arguments.
    if (f0 + f1 + f2 + f3 == -1.0f && (i0 ^ i1) == 77u)
        sink[0] = i0;
}

} // namespace kerncast::probe::device
