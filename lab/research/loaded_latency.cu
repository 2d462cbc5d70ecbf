// DRAM latency under load: one thread chases pointers through a 1 GiB random cycle of 128 B
// lines (each load depends on the one before, L1 bypassed) while the rest of the GPU streams
// through two other 1 GiB arrays at a chosen concurrency. A curve of latency against the
// bandwidth in use is a property of the GPU, not of a kernel; the box r1's slots are held
// longer the higher the load (0.67 us a point at 128 threads an SM, 1.31 us at 2048 on the
// H200; lab/measured/h200-2026-11-27c) and a limit by bytes in flight (Little's law) needs
// that curve, which no machine file holds (docs/accuracy.md, notes 2026-11-27d).
//
//   nvcc -O2 -arch=native -std=c++17 -o loaded_latency lab/research/loaded_latency.cu
//   ./loaded_latency > loaded_latency.jsonl
//
// Block 0 holds the chasing thread; blocks 1.. (128 threads, k an SM) stream. The chaser waits
// 300 us for the streamers to start, then times `hops` dependent loads with clock64 and the
// global timer while the streamers count the bytes they move. The streamers stop when the
// chaser is done (or after a second, a guard). Modes: "load" (a load a point, summed) and
// "copy" (a load and a store a point, the box r1's 1:1 mix); `ilp` points' loads are in
// flight a thread. k = 0 is the unloaded latency of this chase (random lines over 1 GiB, so
// TLB misses are in it too: compare with k = 0, not with the probe's latency).
//
// Two JSON lines a configuration: mode, ilp, stream blocks an SM, streaming threads, then for 3
// launches after a warm-up the chase's cycles and nanoseconds a hop and the streamed GB/s
// (bytes moved while the chaser measured / its time), and their medians; then the percentiles
// 0..100 of the single hops' cycles (each hop timed alone, the 3 launches pooled): how wide the
// latency spreads under load decides how long a block's last warp keeps its slots (the order
// statistics of its warps' lives). Each chase goes on where the last stopped, on lines no chase
// has loaded.
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr size_t line_words = 128 / sizeof(uint64_t);
constexpr size_t chase_lines = (size_t(1) << 30) / 128;
constexpr size_t stream_elements = (size_t(1) << 30) / sizeof(double); // a power of two
constexpr int hops = 8192;
constexpr int stream_block_threads = 128;
constexpr unsigned long long ramp_ns = 300000;
constexpr unsigned long long guard_ns = 1000000000;

struct Control {
    unsigned int state; // 0: starting, 1: the chaser measures, 2: done
    unsigned long long streamed_bytes;
    unsigned long long chase_cycles;
    unsigned long long chase_ns;
    unsigned long long sink;
};

__device__ long long clock_fenced() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

template <int ilp, bool stores>
__global__ void loaded(const uint64_t* __restrict__ chain, uint64_t start_line,
                       unsigned int* __restrict__ hop_cycles, const double* __restrict__ src,
                       double* __restrict__ dst, Control* control) {
    volatile unsigned int* state = &control->state;
    if (blockIdx.x == 0) {
        __shared__ uint64_t s_line;
        if (threadIdx.x != 0)
            return;
        const unsigned long long ramp_start = global_ns();
        while (global_ns() - ramp_start < ramp_ns) {
        }
        *state = 1;
        __threadfence();
        uint64_t line = start_line;
        const auto s_address = static_cast<unsigned>(__cvta_generic_to_shared(&s_line));
        const long long c0 = clock64();
        const unsigned long long t0 = global_ns();
        for (int h = 0; h < hops; ++h) {
            // Each hop timed on its own: the shared store waits for the load (the thesis'
            // "dual issue" guard), so the second clock read comes after the data.
            const long long h0 = clock_fenced();
            line = __ldcg(chain + line * line_words);
            asm volatile("st.shared.u64 [%0], %1;" ::"r"(s_address), "l"(line) : "memory");
            const long long h1 = clock_fenced();
            hop_cycles[h] = static_cast<unsigned int>(h1 - h0);
        }
        const long long c1 = clock64();
        const unsigned long long t1 = global_ns();
        __threadfence();
        *state = 2;
        control->chase_cycles = static_cast<unsigned long long>(c1 - c0);
        control->chase_ns = t1 - t0;
        control->sink = line;
        return;
    }
    const size_t threads = static_cast<size_t>(gridDim.x - 1) * blockDim.x;
    size_t index = static_cast<size_t>(blockIdx.x - 1) * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    const unsigned long long start = global_ns();
    unsigned long long counted = 0;
    double sum = 0;
    for (;;) {
        unsigned int now = 0;
        if (lane == 0)
            now = *state;
        now = __shfl_sync(0xffffffffu, now, 0);
        if (now == 2 || global_ns() - start > guard_ns)
            break;
        double value[ilp];
#pragma unroll
        for (int k = 0; k < ilp; ++k)
            value[k] = src[(index + k * threads) & (stream_elements - 1)];
#pragma unroll
        for (int k = 0; k < ilp; ++k) {
            if (stores)
                dst[(index + k * threads) & (stream_elements - 1)] = 1.5 * value[k];
            else
                sum += value[k];
        }
        if (now == 1)
            counted += ilp * (stores ? 2 : 1) * sizeof(double);
        index = (index + ilp * threads) & (stream_elements - 1);
    }
    for (int offset = 16; offset > 0; offset /= 2)
        counted += __shfl_down_sync(0xffffffffu, counted, offset);
    if (lane == 0)
        atomicAdd(&control->streamed_bytes, counted);
    if (sum == 12345.0) // never: keeps the loads of the "load" mode
        control->sink = 1;
}

using Kernel = void (*)(const uint64_t*, uint64_t, unsigned int*, const double*, double*, Control*);

struct Mode {
    const char* name;
    int ilp;
    Kernel kernel;
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    // A random cycle through every line of the chase array: line i's first word holds the next.
    std::vector<uint64_t> order(chase_lines);
    std::iota(order.begin(), order.end(), uint64_t{0});
    std::mt19937_64 random(20261127);
    std::shuffle(order.begin() + 1, order.end(), random);
    std::vector<uint64_t> chain(chase_lines * line_words, 0);
    for (size_t i = 0; i < chase_lines; ++i)
        chain[order[i] * line_words] = order[(i + 1) % chase_lines];
    uint64_t* chain_d = nullptr;
    double *src = nullptr, *dst = nullptr;
    Control* control = nullptr;
    CHECK(cudaMalloc(&chain_d, chain.size() * sizeof(uint64_t)));
    CHECK(
        cudaMemcpy(chain_d, chain.data(), chain.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&src, stream_elements * sizeof(double)));
    CHECK(cudaMalloc(&dst, stream_elements * sizeof(double)));
    CHECK(cudaMemset(src, 0, stream_elements * sizeof(double)));
    CHECK(cudaMemset(dst, 0, stream_elements * sizeof(double)));
    CHECK(cudaMalloc(&control, sizeof(Control)));
    unsigned int* hop_cycles_d = nullptr;
    CHECK(cudaMalloc(&hop_cycles_d, hops * sizeof(unsigned int)));
    std::vector<unsigned int> hop_cycles(hops);
    uint64_t next_line = 0; // each chase goes on where the last stopped: lines not in L2
    std::printf("{\"experiment\": \"loaded_latency\", \"sm_count\": %d, \"hops\": %d, "
                "\"chase_bytes\": %zu, \"stream_bytes_per_array\": %zu, "
                "\"stream_block_threads\": %d}\n",
                sms, hops, chase_lines * 128, stream_elements * sizeof(double),
                stream_block_threads);
    const Mode modes[] = {{"copy", 1, loaded<1, true>},
                          {"copy", 4, loaded<4, true>},
                          {"load", 1, loaded<1, false>},
                          {"load", 4, loaded<4, false>}};
    for (const Mode& mode : modes) {
        int capacity = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&capacity, mode.kernel,
                                                            stream_block_threads, 0));
        for (int k : {0, 1, 2, 3, 4, 6, 8, 10, 12, 15}) {
            const int blocks = 1 + k * sms;
            if (blocks > capacity * sms)
                break; // not all resident at once
            std::vector<double> cycles, ns, gbs, pooled;
            for (int launch = 0; launch < 4; ++launch) {
                CHECK(cudaMemset(control, 0, sizeof(Control)));
                mode.kernel<<<blocks, stream_block_threads>>>(chain_d, next_line, hop_cycles_d, src,
                                                              dst, control);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                Control result{};
                CHECK(cudaMemcpy(&result, control, sizeof(Control), cudaMemcpyDeviceToHost));
                next_line = result.sink;
                if (launch == 0)
                    continue;
                CHECK(cudaMemcpy(hop_cycles.data(), hop_cycles_d, hops * sizeof(unsigned int),
                                 cudaMemcpyDeviceToHost));
                pooled.insert(pooled.end(), hop_cycles.begin(), hop_cycles.end());
                cycles.push_back(static_cast<double>(result.chase_cycles) / hops);
                ns.push_back(static_cast<double>(result.chase_ns) / hops);
                gbs.push_back(static_cast<double>(result.streamed_bytes) /
                              static_cast<double>(result.chase_ns));
            }
            std::printf("{\"mode\": \"%s\", \"ilp\": %d, \"stream_blocks_per_sm\": %d, "
                        "\"stream_threads\": %d, \"chase_cycles_per_hop\": [%.1f, %.1f, %.1f], "
                        "\"chase_ns_per_hop\": [%.1f, %.1f, %.1f], "
                        "\"streamed_gb_per_s\": [%.1f, %.1f, %.1f], "
                        "\"median_cycles_per_hop\": %.1f, \"median_ns_per_hop\": %.1f, "
                        "\"median_gb_per_s\": %.1f}\n",
                        mode.name, mode.ilp, k, (blocks - 1) * stream_block_threads, cycles[0],
                        cycles[1], cycles[2], ns[0], ns[1], ns[2], gbs[0], gbs[1], gbs[2],
                        median(cycles), median(ns), median(gbs));
            // The distribution of single hops (the 3 launches pooled): percentiles 0..100.
            std::sort(pooled.begin(), pooled.end());
            std::printf("{\"mode\": \"%s\", \"ilp\": %d, \"stream_blocks_per_sm\": %d, "
                        "\"hop_cycles_percentiles\": [",
                        mode.name, mode.ilp, k);
            for (int q = 0; q <= 100; ++q)
                std::printf("%s%.0f", q ? ", " : "",
                            pooled[std::min(pooled.size() - 1, pooled.size() * q / 100)]);
            std::printf("]}\n");
            std::fflush(stdout);
        }
    }
    CHECK(cudaFree(chain_d));
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    CHECK(cudaFree(control));
    CHECK(cudaFree(hop_cycles_d));
    return 0;
}
