// Research (not part of kerncast's build): which thread blocks share an SM, and when, while the
// 2D box stencil runs (issue 10; docs/accuracy.md, notes "Which blocks share an SM" and the known
// miss "H100 2D box r3, 48 block shapes: L2->L1 load p90"). kerncast's simulated L1 assumes that
// the blocks resident on one SM share no data (Ernst et al. 2023, sec. 4.3); the 1- to 4-wide box
// shapes load 1.1 to 9.9 times less from L2 than that predicts, and a prototype with pairs of
// consecutive blocks on one SM comes closer (lab/research/l1_box_passes.py --chunk 2). This
// records the assignment the GPU makes. Built and run by hand on a GPU machine (or by the
// `block_sm` phase of lab/research/gpu_session_next.sh):
//
//     nvcc -O2 -arch=native -o block_sm lab/research/block_sm.cu
//     ./block_sm [RANGE [BXxBY ...]] > block_sm.jsonl
//
// The kernel is kerncast's generated box stencil of range RANGE (1..3, default 3;
// data/published/v100-warpspeed/kernels/box2d_rR.yaml, 15000^2 doubles, element 0 at offset
// 13, `kerncast codegen` writes it) with the same indexing, loads and guard, plus a record per
// block: the SM (%smid) and %globaltimer when its first warp starts and when its last warp
// ends. Blocks are numbered in launch order (blockIdx.x fastest). One JSON line per block shape:
//   successor_differences: on each SM, the block started next after each block, as the
//     difference of their numbers; the 8 most frequent differences and their fractions
//     (132 on an H100 everywhere: blocks b, b + 132, ... as kerncast assumes; 1: consecutive
//     blocks on one SM);
//   coresident_x, coresident_y: the fraction of blocks whose x neighbour (b + 1, same row of
//     blocks) or y neighbour (b + grid_x) ran on the same SM at an overlapping time (the data
//     they share can hit in L1);
//   same_sm_x, same_sm_y: the same without the time condition;
//   first_blocks: the first 2048 blocks in launch order as [sm, start_ns, end_ns] (start and end
//     from the kernel's first block start), to replay in a simulation;
//   time_ms: the launch's CUDA-event time (the recording adds an atomic per warp).
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int n = 15000;         // nx = ny of box2d_rR.yaml
constexpr long long offset = 13; // the arrays' element 0

__device__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

__device__ unsigned long long global_timer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The generated box stencil of range R (weights all c, as kerncast's generated code with its
// deterministic c), with a record per block.
template <int R>
__global__ void box(const double* __restrict__ src, double* __restrict__ dst, double c,
                    unsigned* __restrict__ sm, unsigned long long* __restrict__ start,
                    unsigned long long* __restrict__ end) {
    const long long block = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
    const int thread = threadIdx.y * blockDim.x + threadIdx.x;
    if (thread == 0) {
        start[block] = global_timer();
        sm[block] = sm_id();
    }
    const int x = blockDim.x * blockIdx.x + threadIdx.x + R;
    const int y = blockDim.y * blockIdx.y + threadIdx.y + R;
    if (x <= n - 1 - R && y <= n - 1 - R) {
        double sum = 0.0;
#pragma unroll
        for (int dy = -R; dy <= R; ++dy)
#pragma unroll
            for (int dx = -R; dx <= R; ++dx)
                sum += src[offset + static_cast<long long>(y + dy) * n + (x + dx)];
        dst[offset + static_cast<long long>(y) * n + x] = c * sum;
    }
    if ((thread & 31) == 0)
        atomicMax(&end[block], global_timer());
}

using BoxKernel = void (*)(const double*, double*, double, unsigned*, unsigned long long*,
                           unsigned long long*);

BoxKernel box_kernel(int range) {
    return range == 1 ? box<1> : range == 2 ? box<2> : box<3>;
}

// The box r3 block shapes of lab/measured/h200-2026-11-26/sweeps/box_blocks.txt that are 1 to
// 8 lanes wide (their L2 -> L1 volumes depend on the assignment), and 32x8 for comparison.
const char* default_shapes[] = {
    "1x32", "1x64", "1x128", "1x256", "2x16", "2x32", "2x64", "2x128", "2x256", "4x8",   "4x16",
    "4x32", "4x64", "4x128", "4x256", "8x4",  "8x8",  "8x16", "8x32",  "8x64",  "8x128", "32x8"};

void measure(int range, int bx, int by, const double* src, double* dst, int device_sms) {
    const int interior = n - 2 * range;
    const dim3 block(bx, by), grid((interior + bx - 1) / bx, (interior + by - 1) / by);
    const long long blocks = static_cast<long long>(grid.x) * grid.y;
    unsigned* sm = nullptr;
    unsigned long long *start = nullptr, *end = nullptr;
    CHECK(cudaMalloc(&sm, blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&start, blocks * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&end, blocks * sizeof(unsigned long long)));
    const BoxKernel kernel = box_kernel(range);
    kernel<<<grid, block>>>(src, dst, 0.02, sm, start, end); // warm-up: caches, clocks
    CHECK(cudaGetLastError());
    CHECK(cudaMemset(end, 0, blocks * sizeof(unsigned long long)));
    cudaEvent_t begin, finish;
    CHECK(cudaEventCreate(&begin));
    CHECK(cudaEventCreate(&finish));
    CHECK(cudaEventRecord(begin));
    kernel<<<grid, block>>>(src, dst, 0.02, sm, start, end);
    CHECK(cudaEventRecord(finish));
    CHECK(cudaEventSynchronize(finish));
    CHECK(cudaGetLastError());
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, begin, finish));
    std::vector<unsigned> sms(blocks);
    std::vector<unsigned long long> starts(blocks), ends(blocks);
    CHECK(cudaMemcpy(sms.data(), sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(starts.data(), start, blocks * sizeof(unsigned long long),
                     cudaMemcpyDeviceToHost));
    CHECK(
        cudaMemcpy(ends.data(), end, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(sm));
    CHECK(cudaFree(start));
    CHECK(cudaFree(end));
    CHECK(cudaEventDestroy(begin));
    CHECK(cudaEventDestroy(finish));

    const unsigned long long t0 = *std::min_element(starts.begin(), starts.end());
    // Successors on each SM, by start time. %smid need not be below the SM count (PTX ISA:
    // the numbering may have gaps), so the lists are sized by the largest one seen.
    const unsigned largest = *std::max_element(sms.begin(), sms.end());
    std::vector<std::vector<long long>> per_sm(std::max<size_t>(largest + 1, device_sms));
    for (long long b = 0; b < blocks; ++b)
        per_sm[sms[b]].push_back(b);
    std::map<long long, long long> differences;
    long long successors = 0;
    for (auto& list : per_sm) {
        std::sort(list.begin(), list.end(),
                  [&](long long a, long long b) { return starts[a] < starts[b]; });
        for (size_t k = 1; k < list.size(); ++k) {
            ++differences[list[k] - list[k - 1]];
            ++successors;
        }
    }
    std::vector<std::pair<long long, long long>> frequent(differences.begin(), differences.end());
    std::sort(frequent.begin(), frequent.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
    frequent.resize(std::min<size_t>(frequent.size(), 8));
    const auto overlap = [&](long long a, long long b) {
        return sms[a] == sms[b] && starts[a] < ends[b] && starts[b] < ends[a];
    };
    long long pairs_x = 0, pairs_y = 0, coresident_x = 0, coresident_y = 0, same_x = 0, same_y = 0;
    for (long long b = 0; b < blocks; ++b) {
        if ((b + 1) % grid.x != 0) {
            ++pairs_x;
            coresident_x += overlap(b, b + 1);
            same_x += sms[b] == sms[b + 1];
        }
        if (b + grid.x < blocks) {
            ++pairs_y;
            coresident_y += overlap(b, b + grid.x);
            same_y += sms[b] == sms[b + grid.x];
        }
    }
    const auto fraction = [](long long part, long long whole) {
        return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
    };
    std::printf("{\"range\": %d, \"block\": \"%dx%d\", \"grid\": [%u, %u], \"blocks\": %lld, "
                "\"time_ms\": %.4f, \"largest_smid\": %u, \"successor_differences\": [",
                range, bx, by, grid.x, grid.y, blocks, ms, largest);
    for (size_t k = 0; k < frequent.size(); ++k)
        std::printf("%s[%lld, %.4f]", k ? ", " : "", frequent[k].first,
                    fraction(frequent[k].second, successors));
    std::printf("], \"coresident_x\": %.4f, \"coresident_y\": %.4f, \"same_sm_x\": %.4f, "
                "\"same_sm_y\": %.4f, \"first_blocks\": [",
                fraction(coresident_x, pairs_x), fraction(coresident_y, pairs_y),
                fraction(same_x, pairs_x), fraction(same_y, pairs_y));
    for (long long b = 0; b < std::min<long long>(blocks, 2048); ++b)
        std::printf("%s[%u, %llu, %llu]", b ? ", " : "", sms[b], starts[b] - t0, ends[b] - t0);
    std::printf("]}\n");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const int range = argc > 1 ? std::atoi(argv[1]) : 3;
    if (range < 1 || range > 3) {
        std::fprintf(stderr, "usage: %s [RANGE (1..3) [BXxBY ...]]\n", argv[0]);
        return 2;
    }
    std::vector<std::pair<int, int>> shapes;
    if (argc > 2) {
        for (int a = 2; a < argc; ++a) {
            int bx = 0, by = 0;
            if (std::sscanf(argv[a], "%dx%d", &bx, &by) != 2 || bx < 1 || by < 1 ||
                bx * by > 1024) {
                std::fprintf(stderr, "%s: not a block shape BXxBY of at most 1024 threads\n",
                             argv[a]);
                return 2;
            }
            shapes.emplace_back(bx, by);
        }
    } else {
        for (const char* shape : default_shapes) {
            int bx = 0, by = 0;
            std::sscanf(shape, "%dx%d", &bx, &by);
            shapes.emplace_back(bx, by);
        }
    }
    int device = 0, sms = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, device));
    int driver = 0;
    CHECK(cudaDriverGetVersion(&driver));
    std::printf("{\"experiment\": \"block_sm\", \"device\": \"%s\", \"sm_count\": %d, "
                "\"driver_version\": %d}\n",
                prop.name, sms, driver);
    const size_t elements = static_cast<size_t>(n) * n + offset;
    double *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, elements * sizeof(double)));
    CHECK(cudaMalloc(&dst, elements * sizeof(double)));
    CHECK(cudaMemset(src, 0, elements * sizeof(double)));
    for (int r = 1; r <= 3; ++r) // the largest L1, as kerncast's generated kernels run
        CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(box_kernel(r)),
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (const auto& [bx, by] : shapes)
        measure(range, bx, by, src, dst, sms);
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}
