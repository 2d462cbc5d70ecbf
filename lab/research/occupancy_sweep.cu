// The box r1 (data/published/v100-warpspeed/kernels/box2d_r1.yaml: 9-point box of range 1 on
// 15000 x 15000 doubles, offset 15 elements) at limited occupancy: for a few block shapes,
// dynamic shared memory (unused by the kernel) limits the resident blocks of an SM to k, and
// CUDA events time the kernel. At the DRAM limit (docs/accuracy.md, notes 2026-11-27c) the
// shapes run 6-46 % over it, more with larger and narrower blocks; if that is a limit by bytes
// in flight (Little's law), the time falls as 1 / (resident threads) below some occupancy and
// the slope gives the DRAM latency under load, which no machine file holds. Blocks of several
// sizes at the same resident threads tell whether a block's size matters beyond that.
//
//   nvcc -O2 -arch=native -std=c++17 -o occupancy_sweep lab/research/occupancy_sweep.cu
//   ./occupancy_sweep > occupancy.jsonl
//
// One JSON line a configuration: block shape, dynamic shared memory a block, resident blocks an
// SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor), registers, the times of 7 launches after
// a warm-up (microseconds), the median, and the compulsory DRAM bytes (16 a point) / median.
// The shared memory shrinks the L1 too (the driver's configuration); the kernel's DRAM traffic
// is the compulsory one either way.
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

namespace {

constexpr int nx = 15000, ny = 15000, offset = 15;

__global__ void box_r1(const double* __restrict__ src, double* __restrict__ dst, double c) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) + 1;
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y) + 1;
    if (x >= nx - 1 || y >= ny - 1)
        return;
    const size_t i = static_cast<size_t>(y) * nx + x;
    dst[i] = c * (src[i - nx - 1] + src[i - nx] + src[i - nx + 1] + src[i - 1] + src[i] +
                  src[i + 1] + src[i + nx - 1] + src[i + nx] + src[i + nx + 1]);
}

struct Shape {
    int x, y;
};

} // namespace

int main() {
    int sms = 0, max_shared = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CHECK(cudaFuncSetAttribute(box_r1, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared));
    cudaFuncAttributes attributes{};
    CHECK(cudaFuncGetAttributes(&attributes, box_r1));
    const size_t elements = static_cast<size_t>(nx) * ny + 2 * offset;
    double *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, elements * sizeof(double)));
    CHECK(cudaMalloc(&dst, elements * sizeof(double)));
    CHECK(cudaMemset(src, 0, elements * sizeof(double)));
    CHECK(cudaMemset(dst, 0, elements * sizeof(double)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::printf("{\"experiment\": \"occupancy_sweep\", \"sm_count\": %d, \"registers\": %d, "
                "\"max_dynamic_shared_bytes\": %d}\n",
                sms, attributes.numRegs, max_shared);
    const double points = static_cast<double>(nx - 2) * (ny - 2);
    const std::vector<Shape> shapes = {{128, 1}, {64, 4},  {16, 16}, {128, 8},
                                       {32, 32}, {8, 128}, {1024, 1}};
    for (const Shape shape : shapes) {
        const int threads = shape.x * shape.y;
        const dim3 block(shape.x, shape.y);
        const dim3 grid((nx - 2 + shape.x - 1) / shape.x, (ny - 2 + shape.y - 1) / shape.y);
        int natural = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&natural, box_r1, threads, 0));
        for (int k : {1, 2, 3, 4, 6, 8, 12, 16}) {
            if (k > natural)
                break;
            // The least shared memory (1 KiB steps) that leaves at most k blocks an SM.
            int shared = 0, resident = natural;
            while (resident > k && shared + 1024 <= max_shared) {
                shared += 1024;
                CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, box_r1, threads,
                                                                    shared));
            }
            if (resident != k)
                continue; // no shared-memory size gives exactly k
            std::vector<float> times;
            for (int launch = 0; launch < 8; ++launch) {
                CHECK(cudaEventRecord(start));
                box_r1<<<grid, block, shared>>>(src + offset, dst + offset, 0.1);
                CHECK(cudaEventRecord(stop));
                CHECK(cudaEventSynchronize(stop));
                CHECK(cudaGetLastError());
                float ms = 0;
                CHECK(cudaEventElapsedTime(&ms, start, stop));
                if (launch > 0)
                    times.push_back(ms * 1000);
            }
            std::vector<float> sorted = times;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted[sorted.size() / 2];
            std::printf("{\"block\": [%d, %d, 1], \"dynamic_shared_bytes\": %d, "
                        "\"blocks_per_sm\": %d, \"threads_per_sm\": %d, \"times_us\": [",
                        shape.x, shape.y, shared, resident, resident * threads);
            for (size_t t = 0; t < times.size(); ++t)
                std::printf("%s%.2f", t ? ", " : "", times[t]);
            std::printf("], \"median_us\": %.2f, \"compulsory_gbs\": %.1f}\n", median,
                        16 * points / (median * 1e-6) / 1e9);
            std::fflush(stdout);
        }
    }
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}
