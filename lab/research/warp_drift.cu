// How far the warps of one block drift apart over a z-folded stencil's fold instances (issue 10,
// docs/accuracy.md, note "Tried: issue windows in the simulated L1"). The simulated L1 issues
// every warp of the SM in lockstep; the folded star's narrow blocks then miss about as often as
// measured, but a schedule that issues each warp's load window back to back (the SASS's 11 loads
// in flight) misses 20-37 % too little on them. One explanation: the warps of a block do not
// stay together; each fold instance waits for its own loads, and their latencies differ, so the
// warps spread apart instance by instance, and what one warp loads for a neighbour is evicted
// before the neighbour comes. This measures the spread.
//
// The kernel is the generated star3d_r2 (data/published/v100-warpspeed/kernels/star3d_r2.yaml,
// 600 x 600 x 512, range 2) with a z-fold of F and its registers reused as in kerncast's fold
// fast path (docs/codegen.md, Folding): the first instance loads 13 values, the later ones 9.
// Lane 0 of every warp of an interior block reads clock64 (the SM's clock: the warps of a block
// share it) before its first load and after each instance's store (asm volatile with a memory
// clobber, so the read stays between the instances). For each block: the spread of its warps'
// k-th stamps (largest - smallest), k = 0..F; the mean over blocks, per k, with an instance's
// mean duration and a block's mean life, in cycles. JSON lines on stdout.
//
//   nvcc -O2 -arch=native -std=c++17 -o warp_drift lab/research/warp_drift.cu
//   ./warp_drift > warp_drift.jsonl
//   ./warp_drift sizes > warp_drift_sizes.jsonl  # blocks of 1 to 32 warps, unfolded
//   ncu --metrics lts__t_sectors_srcunit_tex_op_read.sum,launch__shared_mem_config_size --csv \
//     ./warp_drift carveout   # L2 -> L1 against the L1's size (carveouts() below)
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace {

constexpr int nx = 600, ny = 600, nz = 512, offset = 14;

__device__ __forceinline__ long long stamp() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

template <int F>
__global__ void star_folded(const double* __restrict__ src, double* __restrict__ dst,
                            long long* __restrict__ stamps) {
    const int x = blockDim.x * blockIdx.x + threadIdx.x + 2;
    const int y = blockDim.y * blockIdx.y + threadIdx.y + 2;
    const int z0 = blockDim.z * F * blockIdx.z + F * threadIdx.z + 2;
    const int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    const int warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
    const long long block =
        (static_cast<long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    long long* mine = stamps + (block * warps + thread / 32) * (F + 1);
    const bool lane0 = thread % 32 == 0;
    // Blocks with a thread outside the fast path's domain are left out (their stamps stay 0).
    if (x > nx - 3 || y > ny - 3 || z0 + F - 1 > nz - 3)
        return;
    const auto at = [&](int z, int yy, int xx) {
        return src[offset + (static_cast<long long>(z) * ny + yy) * nx + xx];
    };
    double column[F + 4]; // z0 - 2 .. z0 + F + 1
    long long t = stamp();
    if (lane0)
        mine[0] = t;
#pragma unroll
    for (int f = 0; f < F; ++f) {
        const int z = z0 + f;
        if (f == 0) {
#pragma unroll
            for (int k = 0; k < 5; ++k)
                column[k] = at(z - 2 + k, y, x);
        } else {
            column[f + 4] = at(z + 2, y, x);
        }
        const double sum = column[f] + column[f + 1] + column[f + 2] + column[f + 3] +
                           column[f + 4] + at(z, y, x - 1) + at(z, y, x + 1) + at(z, y - 1, x) +
                           at(z, y + 1, x) + at(z, y, x - 2) + at(z, y, x + 2) + at(z, y - 2, x) +
                           at(z, y + 2, x);
        dst[offset + (static_cast<long long>(z) * ny + y) * nx + x] = 0.25 * sum;
        t = stamp();
        if (lane0)
            mine[f + 1] = t;
    }
}

using Kernel = void (*)(const double*, double*, long long*);

// The kernel of a fold (1, 2 or 4), its grid over the 596 x 596 x 508 interior and its stamps.
struct Launch {
    Kernel kernel;
    dim3 block, grid;
    long long blocks;
    int warps;
    size_t stamps; // blocks x warps x (fold + 1)
};

Launch launch_of(int bx, int by, int bz, int fold) {
    Launch l;
    l.kernel = fold == 1 ? star_folded<1> : fold == 2 ? star_folded<2> : star_folded<4>;
    l.block = dim3(bx, by, bz);
    l.grid = dim3((nx - 4 + bx - 1) / bx, (ny - 4 + by - 1) / by,
                  (nz - 4 + bz * fold - 1) / (bz * fold));
    l.blocks = static_cast<long long>(l.grid.x) * l.grid.y * l.grid.z;
    l.warps = (bx * by * bz + 31) / 32;
    l.stamps = static_cast<size_t>(l.blocks) * l.warps * (fold + 1);
    return l;
}

void measure(int bx, int by, int bz, int fold, const double* src, double* dst) {
    const Launch l = launch_of(bx, by, bz, fold);
    const Kernel kernel = l.kernel;
    const dim3 block = l.block, grid = l.grid;
    const long long blocks = l.blocks;
    const int warps = l.warps;
    const size_t count = l.stamps;
    long long* stamps = nullptr;
    CHECK(cudaMalloc(&stamps, count * sizeof(long long)));
    for (int launch = 0; launch < 2; ++launch) { // a warm-up, then the one kept
        CHECK(cudaMemset(stamps, 0, count * sizeof(long long)));
        kernel<<<grid, block>>>(src, dst, stamps);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    std::vector<long long> host(count);
    CHECK(cudaMemcpy(host.data(), stamps, count * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(stamps));
    std::vector<double> spread(fold + 1, 0.0);
    double duration = 0, life = 0;
    long long measured = 0, instances = 0;
    for (long long b = 0; b < blocks; ++b) {
        const long long* s = host.data() + b * warps * (fold + 1);
        bool complete = true;
        for (int w = 0; w < warps * (fold + 1); ++w)
            complete = complete && s[w] != 0;
        if (!complete)
            continue;
        ++measured;
        long long first = s[0], last = s[fold];
        for (int k = 0; k <= fold; ++k) {
            long long lo = s[k], hi = s[k];
            for (int w = 0; w < warps; ++w) {
                lo = std::min(lo, s[w * (fold + 1) + k]);
                hi = std::max(hi, s[w * (fold + 1) + k]);
            }
            spread[k] += static_cast<double>(hi - lo);
            first = std::min(first, lo);
            last = std::max(last, hi);
        }
        for (int w = 0; w < warps; ++w)
            for (int k = 0; k < fold; ++k) {
                duration += static_cast<double>(s[w * (fold + 1) + k + 1] - s[w * (fold + 1) + k]);
                ++instances;
            }
        life += static_cast<double>(last - first);
    }
    std::printf(
        "{\"block\": \"%dx%dx%d\", \"fold\": %d, \"warps\": %d, \"blocks\": %lld, "
        "\"measured_blocks\": %lld, \"instance_cycles\": %.1f, \"block_life_cycles\": %.1f, "
        "\"spread_cycles\": [",
        bx, by, bz, fold, warps, blocks, measured,
        instances ? duration / static_cast<double>(instances) : 0.0,
        measured ? life / static_cast<double>(measured) : 0.0);
    for (int k = 0; k <= fold; ++k)
        std::printf("%s%.1f", k ? ", " : "",
                    measured ? spread[k] / static_cast<double>(measured) : 0.0);
    std::printf("]}\n");
    std::fflush(stdout);
}

} // namespace

// `carveout` mode, for Nsight Compute: each shape and fold launched once at each preferred
// shared-memory carve-out (0, 25, 50, 75 % of the unified L1/shared array; the rest is L1), in
// this order, one JSON line a launch. Under ncu with lts__t_sectors_srcunit_tex_op_read.sum and
// launch__shared_mem_config_size, the launches' L2 -> L1 sectors against the L1's size: whether
// the folded narrow blocks' misses depend on the L1's capacity (reuse distances near it) or not.
void carveouts(const double* src, double* dst) {
    const int shapes[][3] = {{4, 32, 8}, {32, 4, 8}};
    size_t most = 0;
    for (const auto& shape : shapes)
        for (int fold : {1, 2, 4})
            most = std::max(most, launch_of(shape[0], shape[1], shape[2], fold).stamps);
    long long* stamps = nullptr;
    CHECK(cudaMalloc(&stamps, most * sizeof(long long)));
    for (const auto& shape : shapes)
        for (int fold : {1, 2, 4})
            for (int percent : {0, 25, 50, 75}) {
                const Launch l = launch_of(shape[0], shape[1], shape[2], fold);
                CHECK(cudaFuncSetAttribute(l.kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           percent));
                l.kernel<<<l.grid, l.block>>>(src, dst, stamps);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                std::printf("{\"block\": \"%dx%dx%d\", \"fold\": %d, \"carveout_percent\": %d}\n",
                            shape[0], shape[1], shape[2], fold, percent);
                std::fflush(stdout);
            }
    CHECK(cudaFree(stamps));
}

int main(int argc, char** argv) {
    const size_t elements = static_cast<size_t>(nx) * ny * nz + offset;
    double *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, elements * sizeof(double)));
    CHECK(cudaMalloc(&dst, elements * sizeof(double)));
    CHECK(cudaMemset(src, 0, elements * sizeof(double)));
    cudaDeviceProp properties{};
    CHECK(cudaGetDeviceProperties(&properties, 0));
    std::printf("{\"experiment\": \"warp_drift\", \"device\": \"%s\", \"sm_count\": %d}\n",
                properties.name, properties.multiProcessorCount);
    // The narrow shapes whose folded rows the simulated L1's schedules disagree on, and wide
    // ones for comparison; each unfolded, fold 2 and fold 4.
    if (argc > 1 && std::string(argv[1]) == "carveout") {
        carveouts(src, dst);
        CHECK(cudaFree(src));
        CHECK(cudaFree(dst));
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "sizes") {
        // Blocks of 1, 2, 4, 8, 16 and 32 warps, 32 wide and one deep, unfolded: whether a
        // block's life over its warps' mean duration grows with the warps as the expected
        // maximum of independent durations says (compute.warp_duration_cv, block_retirement.hpp;
        // lab/research/warp_duration_cv.py reads each line's cv, the same for every size if
        // the warps are independent).
        for (int rows : {1, 2, 4, 8, 16, 32})
            measure(32, rows, 1, 1, src, dst);
    } else {
        const int shapes[][3] = {{4, 32, 8}, {4, 64, 4}, {8, 16, 8}, {32, 4, 8}, {64, 4, 4}};
        for (const auto& shape : shapes)
            for (int fold : {1, 2, 4})
                measure(shape[0], shape[1], shape[2], fold, src, dst);
    }
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}
