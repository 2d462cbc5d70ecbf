// DRAM bandwidth by the length of the contiguous segments a kernel reads (docs/accuracy.md,
// notes 2026-11-27f). On the H100 and H200 the star r2's blocks 8 and 16 wide reach 3-16 % less
// DRAM bandwidth than blocks 32 wide and wider at the same folds (measured DRAM bytes over the
// measured time), and the box r1's narrow blocks run slowest at the DRAM limit: a narrow block
// reads its rows in 64- and 128-byte pieces, a wide one in runs of 256 B and more. If the DRAM
// serves short pieces scattered over many pages more slowly than long runs, a stream of
// scattered segments shows it at the same bytes in flight; if not, the narrow blocks lose
// their time elsewhere.
//
//   nvcc -O2 -arch=native -std=c++17 -o dram_segments lab/research/dram_segments.cu
//   ./dram_segments > dram_segments.jsonl
//
// A 2 GiB buffer of 16-byte elements is read once a launch, in segments of S bytes (S = 32 ..
// 4096): the k-th segment in the threads' order is the buffer's segment k x 2654435761 mod M
// (M segments; an odd multiplier permutes them), so consecutive segments lie far apart
// ("scattered"), or segment k itself ("sequential", the reference). Each thread keeps the
// loads of 4 grid-stride steps in flight (ld.global.cg.v4, as the probe's streams), at one
// block of 256 threads an SM (16 KiB of loads in flight an SM) and two of 1024 (128 KiB).
// One JSON line a configuration: segment bytes, order, threads an SM, the times of 5 launches
// after a warm-up (ms), the median and the bandwidth of the median launch (GB/s).
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace {

constexpr std::size_t buffer_bytes = std::size_t{2} << 30;
constexpr std::size_t elements = buffer_bytes / 16;
constexpr int in_flight = 4;

__device__ inline uint4 load_cg(const uint4* address) {
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(address));
    return v;
}

// Element i of the threads' order -> its place in the buffer.
__device__ inline std::size_t place(std::size_t i, std::size_t segment_elements,
                                    std::size_t segments, bool scattered) {
    const std::size_t k = i / segment_elements;
    const std::size_t physical = scattered ? (k * 2654435761ull) & (segments - 1) : k;
    return physical * segment_elements + i % segment_elements;
}

__global__ void read_segments(const uint4* __restrict__ data, std::size_t segment_elements,
                              bool scattered, std::uint32_t* __restrict__ sink) {
    const std::size_t segments = elements / segment_elements;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::uint32_t acc = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < elements; i += in_flight * stride) {
        uint4 v[in_flight];
#pragma unroll
        for (int k = 0; k < in_flight; ++k) {
            const std::size_t j = i + k * stride;
            v[k] = j < elements ? load_cg(data + place(j, segment_elements, segments, scattered))
                                : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < in_flight; ++k)
            acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    }
    if (acc == 0x9e3779b9u)
        sink[0] = acc;
}

} // namespace

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp properties{};
    CHECK(cudaGetDeviceProperties(&properties, 0));
    uint4* data = nullptr;
    std::uint32_t* sink = nullptr;
    CHECK(cudaMalloc(&data, buffer_bytes));
    CHECK(cudaMalloc(&sink, sizeof(std::uint32_t)));
    CHECK(cudaMemset(data, 1, buffer_bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::printf("{\"experiment\": \"dram_segments\", \"device\": \"%s\", \"sm_count\": %d, "
                "\"buffer_bytes\": %zu}\n",
                properties.name, sms, buffer_bytes);
    struct Launch {
        int blocks_per_sm, threads;
    };
    for (const Launch launch : {Launch{1, 256}, Launch{2, 1024}})
        for (const bool scattered : {false, true})
            for (std::size_t segment_bytes = 32; segment_bytes <= 4096; segment_bytes *= 2) {
                const std::size_t segment_elements = segment_bytes / 16;
                std::vector<float> times;
                for (int rep = 0; rep < 6; ++rep) { // a warm-up, then 5 timed
                    CHECK(cudaEventRecord(start));
                    read_segments<<<sms * launch.blocks_per_sm, launch.threads>>>(
                        data, segment_elements, scattered, sink);
                    CHECK(cudaEventRecord(stop));
                    CHECK(cudaEventSynchronize(stop));
                    CHECK(cudaGetLastError());
                    float ms = 0;
                    CHECK(cudaEventElapsedTime(&ms, start, stop));
                    if (rep > 0)
                        times.push_back(ms);
                }
                std::vector<float> sorted = times;
                std::sort(sorted.begin(), sorted.end());
                const double median = sorted[sorted.size() / 2];
                std::printf("{\"segment_bytes\": %zu, \"order\": \"%s\", \"threads_per_sm\": %d, "
                            "\"times_ms\": [",
                            segment_bytes, scattered ? "scattered" : "sequential",
                            launch.blocks_per_sm * launch.threads);
                for (std::size_t t = 0; t < times.size(); ++t)
                    std::printf("%s%.4f", t ? ", " : "", times[t]);
                std::printf("], \"median_ms\": %.4f, \"gbs\": %.1f}\n", median,
                            static_cast<double>(buffer_bytes) / (median * 1e-3) / 1e9);
                std::fflush(stdout);
            }
    CHECK(cudaFree(data));
    CHECK(cudaFree(sink));
    return 0;
}
