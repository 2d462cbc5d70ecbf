// Do a kernel's DRAM time and its L1 time add when they are close? (lab/notes/accuracy,
// "Analysed: the DRAM and L1 limits overlap imperfectly on Hopper", 2026-12-04.) On the H100
// star r2 set the configurations bound at the DRAM limit reach less DRAM bandwidth the more L1
// wavefronts they issue (Pearson -0.93 over its 90 records), while their DRAM volumes are
// forecast within 1 %. Narrow blocks issue more wavefronts and also read shorter row pieces,
// which dram_segments.cu tests on its own; this program varies the L1 wavefronts at a fixed,
// fully coalesced DRAM stream.
//
//   nvcc -O2 -arch=native -std=c++17 -o dram_l1_overlap lab/research/dram_l1_overlap.cu
//   ./dram_l1_overlap > dram_l1_overlap.jsonl
//
// Each thread of a grid-stride loop reads one double of a 2 GiB array (plain loads, as the
// stencils' code; a warp's 32 doubles are two 128 B lines) and k more doubles of a 32 KiB buffer
// that stays in L1, the warp's lanes `stride` doubles apart (1: 2 lines a load, 4: 8 lines, 16:
// 32 lines), so each extra load costs the L1 wavefronts of its lines and no DRAM byte. Variants:
// "dram" (the array streams from DRAM), "l1" (the same code with the array's load aimed at the
// buffer too: every load hits L1, the L1 time alone), at 2048 and 1024 threads an SM (blocks of
// 256, 8 or 4 an SM; the launch fills every SM once, grid-stride). If the DRAM and L1 times
// overlapped fully, dram's time would be max(dram at k = 0, l1 at the same k and stride); the
// forecast kerncast does not use says (t_dram^2 + t_l1^2)^(1/2).
// One JSON line a configuration: variant, k, stride, threads an SM, the 5 launch times after a
// warm-up (ms), their median, and the array's bytes over the median (GB/s; 0 for "l1").
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace {

constexpr std::size_t array_bytes = std::size_t{2} << 30;
constexpr std::size_t elements = array_bytes / sizeof(double);
constexpr int buffer_elements = 4096; // 32 KiB of doubles: stays in L1
constexpr int block_threads = 256;

template <int k>
__global__ void stream(const double* __restrict__ array, const double* __restrict__ buffer,
                       int stride, bool from_dram, double* __restrict__ sink) {
    const int lane = threadIdx.x & 31;
    const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    double acc = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < elements; i += step) {
        // The stream's load: the array's element, or (variant "l1") a buffer element, which
        // costs the same instruction and hits L1.
        acc += from_dram ? array[i] : buffer[i & (buffer_elements - 1)];
        const int base = static_cast<int>((i >> 5) * 97);
#pragma unroll
        for (int j = 0; j < k; ++j)
            acc += buffer[(base + j * 131 + lane * stride) & (buffer_elements - 1)];
    }
    if (acc == -1.0) // never: keeps the loads without a store stream
        sink[0] = acc;
}

using Kernel = void (*)(const double*, const double*, int, bool, double*);

Kernel kernel_for(int k) {
    switch (k) {
    case 0:
        return stream<0>;
    case 1:
        return stream<1>;
    case 2:
        return stream<2>;
    case 4:
        return stream<4>;
    default:
        return stream<8>;
    }
}

__global__ void fill(double* data, std::size_t n) {
    const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += step)
        data[i] = static_cast<double>(i & 1023) * 0.5;
}

} // namespace

int main() {
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    double *array = nullptr, *buffer = nullptr, *sink = nullptr;
    CHECK(cudaMalloc(&array, array_bytes));
    CHECK(cudaMalloc(&buffer, buffer_elements * sizeof(double)));
    CHECK(cudaMalloc(&sink, sizeof(double)));
    fill<<<prop.multiProcessorCount * 8, 256>>>(array, elements);
    fill<<<16, 256>>>(buffer, buffer_elements);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::printf("{\"device\": \"%s\", \"sms\": %d, \"array_bytes\": %zu, \"buffer_bytes\": %zu}\n",
                prop.name, prop.multiProcessorCount, array_bytes, buffer_elements * sizeof(double));
    for (const int threads_per_sm : {2048, 1024})
        for (const bool from_dram : {true, false})
            for (const int stride : {1, 4, 16})
                for (const int k : {0, 1, 2, 4, 8}) {
                    if (k == 0 && stride != 1)
                        continue; // no extra load: the stride does not matter
                    const Kernel kernel = kernel_for(k);
                    const int blocks = prop.multiProcessorCount * (threads_per_sm / block_threads);
                    kernel<<<blocks, block_threads>>>(array, buffer, stride, from_dram, sink);
                    CHECK(cudaGetLastError());
                    std::vector<float> ms;
                    for (int r = 0; r < 5; ++r) {
                        CHECK(cudaEventRecord(start));
                        kernel<<<blocks, block_threads>>>(array, buffer, stride, from_dram, sink);
                        CHECK(cudaEventRecord(stop));
                        CHECK(cudaEventSynchronize(stop));
                        float t = 0;
                        CHECK(cudaEventElapsedTime(&t, start, stop));
                        ms.push_back(t);
                    }
                    std::vector<float> sorted = ms;
                    std::sort(sorted.begin(), sorted.end());
                    const double median = sorted[sorted.size() / 2];
                    std::printf("{\"variant\": \"%s\", \"k\": %d, \"stride\": %d, "
                                "\"threads_per_sm\": %d, \"ms\": [%.4f, %.4f, %.4f, %.4f, %.4f], "
                                "\"median_ms\": %.4f, \"array_gbs\": %.1f}\n",
                                from_dram ? "dram" : "l1", k, stride, threads_per_sm, ms[0], ms[1],
                                ms[2], ms[3], ms[4], median,
                                from_dram ? array_bytes / (median * 1e-3) / 1e9 : 0.0);
                    std::fflush(stdout);
                }
    CHECK(cudaFree(array));
    CHECK(cudaFree(buffer));
    CHECK(cudaFree(sink));
    return 0;
}
