// Research (not part of kerncast's build): how one SM's L1 places lines in sets, measured by
// pointer chases. Built and run by hand on a GPU machine:
//
//     nvcc -O2 -arch=native -o l1_sets lab/research/l1_sets.cu && ./l1_sets > l1_sets.json
//     ./l1_sets TRIALS KMIN KMAX KSTEP [SHARED_KIB] > more.json   # random only, K in a range
//     ./l1_sets TRIALS KMIN KMAX KSTEP 0 seq > seq.json            # K consecutive lines, in order
//     ./l1_sets TRIALS KMIN KMAX KSTEP 0 rows 120000 2 > rows.json # rows, 120000 B apart
//
// A single thread chases a cyclic list of K distinct 128 B lines (one 4 B word read in each,
// ld.global.ca so that L1 keeps them): one pass to fill, then `passes` timed passes; the
// clock64 cycles of the timed passes / (passes x K) is the mean load latency, which lies
// between the L1 hit latency (every line resident) and the L2 hit latency (every line missed).
// Two experiments:
//   random: the K lines are drawn at random from a 256 MiB region (fresh draws per trial).
//           A fully associative LRU L1 holds every line until K exceeds its capacity; a
//           set-associative one loses lines earlier, in the sets that drew more lines than
//           they have ways (lab/research/l1_sets.py fits the number of ways to that).
//   stride: the K lines lie `stride` bytes apart. An L1 that picks a line's set from low
//           address bits maps lines a multiple of sets x 128 B apart to one set and misses
//           once K exceeds the ways; an L1 with hashed set placement shows no such stride.
// Output: one JSON object (device, clocks, every series). The kernel requests the largest L1
// (carve-out preference 0 % shared memory), or with SHARED_KIB > 0 takes that much dynamic
// shared memory (carve-out preference 100 %), which leaves the L1 the rest.
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <numeric>
#include <random>
#include <string>
#include <vector>

constexpr std::size_t region_bytes = 256ull << 20;
constexpr std::uint32_t line_words = 32; // 128 B lines of 4 B words

__global__ void link(std::uint32_t* region, const std::uint32_t* lines, int k) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < k; i += gridDim.x * blockDim.x)
        region[static_cast<std::size_t>(lines[i]) * line_words] = lines[(i + 1) % k] * line_words;
}

__device__ __forceinline__ std::uint32_t load_ca(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

// One thread: a fill pass, then `passes` timed passes over the cycle of k lines.
__global__ void chase(const std::uint32_t* region, std::uint32_t first, int k, int passes,
                      long long* cycles, std::uint32_t* sink) {
    extern __shared__ std::uint32_t reserved[]; // only occupies the carve-out
    std::uint32_t p = first;
    for (int i = 0; i < k; ++i)
        p = load_ca(region + p);
    const long long start = clock64();
    for (int i = 0; i < k * passes; ++i)
        p = load_ca(region + p);
    const long long end = clock64();
    cycles[0] = end - start;
    sink[0] = p;
}

struct Chaser {
    std::uint32_t* region = nullptr;
    std::uint32_t* lines = nullptr;
    long long* cycles = nullptr;
    std::uint32_t* sink = nullptr;
    int max_k;
    int shared_bytes;
    Chaser(int max_k_, int shared_kib) : max_k(max_k_), shared_bytes(shared_kib * 1024) {
        CHECK(cudaMalloc(&region, region_bytes));
        CHECK(cudaMalloc(&lines, sizeof(std::uint32_t) * max_k));
        CHECK(cudaMalloc(&cycles, sizeof(long long)));
        CHECK(cudaMalloc(&sink, sizeof(std::uint32_t)));
        CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   shared_bytes > 0 ? 100 : 0));
        if (shared_bytes > 0)
            CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       shared_bytes));
    }
    // Mean cycles per load over the timed passes of the cycle through `order` (line numbers).
    double run(const std::vector<std::uint32_t>& order, int passes) {
        const int k = static_cast<int>(order.size());
        CHECK(cudaMemcpy(lines, order.data(), sizeof(std::uint32_t) * k, cudaMemcpyHostToDevice));
        link<<<64, 256>>>(region, lines, k);
        CHECK(cudaGetLastError());
        chase<<<1, 1, shared_bytes>>>(region, order[0] * line_words, k, passes, cycles, sink);
        CHECK(cudaGetLastError());
        long long c = 0;
        CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
        return static_cast<double>(c) / (static_cast<double>(k) * passes);
    }
};

int main(int argc, char** argv) {
    const bool ranged = argc >= 5;
    const int trials = ranged ? std::atoi(argv[1]) : 6;
    const int k_min = ranged ? std::atoi(argv[2]) : 0;
    const int k_max = ranged ? std::atoi(argv[3]) : 0;
    const int k_step = ranged ? std::atoi(argv[4]) : 0;
    const int shared_kib = argc >= 6 ? std::atoi(argv[5]) : 0;
    // "seq": K consecutive lines from a random start, chased in address order (the probe's
    // sequential chains), instead of K random lines in a random order.
    const bool consecutive = argc >= 7 && std::string(argv[6]) == "seq";
    // "rows ROW_BYTES LINES_PER_ROW": K lines as rows of LINES_PER_ROW consecutive lines,
    // ROW_BYTES apart (a stencil block's working set: the box's rows are 120000 B), from a
    // random start, in a random order; K a multiple of LINES_PER_ROW.
    const bool rows = argc >= 9 && std::string(argv[6]) == "rows";
    const std::uint64_t row_bytes = rows ? std::strtoull(argv[7], nullptr, 10) : 0;
    const int lines_per_row = rows ? std::atoi(argv[8]) : 1;
    const std::uint32_t region_lines = region_bytes / (line_words * 4);
    // Rows span (K / LINES_PER_ROW + 1) rows: the largest K must fit the region.
    const auto rows_span = [&](int k) {
        return (static_cast<std::uint64_t>(k / lines_per_row) + 1) * row_bytes / 128;
    };
    if (rows &&
        (!ranged || row_bytes == 0 || lines_per_row < 1 || rows_span(k_max) + 8 >= region_lines)) {
        std::fprintf(stderr,
                     "rows: needs K in a range, ROW_BYTES > 0, LINES_PER_ROW >= 1, and "
                     "K = %d rows within the %u-line region\n",
                     k_max, region_lines);
        return 2;
    }
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int driver = 0, clock_khz = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    Chaser chaser(8192, shared_kib);
    std::mt19937_64 rng(20261126);
    const int passes = 4;

    std::printf("{\"schema\": \"kerncast.research.l1-sets/1\", \"device\": \"%s\", "
                "\"compute_capability\": \"%d.%d\", \"driver_version\": %d, "
                "\"peak_sm_clock_khz\": %d, \"line_bytes\": 128, \"passes\": %d, "
                "\"dynamic_shared_kib\": %d, \"lines\": \"%s\",\n",
                prop.name, prop.major, prop.minor, driver, clock_khz, passes, shared_kib,
                consecutive ? "consecutive, in address order"
                : rows      ? "rows, in random order"
                            : "random, in random order");
    if (rows)
        std::printf("\"row_bytes\": %llu, \"lines_per_row\": %d,\n",
                    static_cast<unsigned long long>(row_bytes), lines_per_row);

    // Random lines: K distinct lines of the region in a random cyclic order.
    std::printf("\"random\": [\n");
    std::vector<int> ks;
    if (ranged)
        for (int k = k_min; k <= k_max; k += k_step)
            ks.push_back(k);
    else
        for (int k = 32; k <= 4096; k += (k < 1024 ? 64 : 128))
            ks.push_back(k);
    bool first_row = true;
    for (int k : ks) {
        std::printf("%s  {\"k\": %d, \"cycles_per_load\": [", first_row ? "" : ",\n", k);
        first_row = false;
        for (int t = 0; t < trials; ++t) {
            std::vector<std::uint32_t> order;
            if (consecutive) {
                std::uniform_int_distribution<std::uint32_t> pick(0, region_lines - k - 1);
                const std::uint32_t first = pick(rng);
                for (int i = 0; i < k; ++i)
                    order.push_back(first + static_cast<std::uint32_t>(i));
            }
            if (rows) {
                std::uniform_int_distribution<std::uint64_t> pick(0,
                                                                  region_lines - rows_span(k) - 8);
                const std::uint64_t first = pick(rng);
                for (int i = 0; i < k; ++i)
                    order.push_back(static_cast<std::uint32_t>(
                        first + (static_cast<std::uint64_t>(i / lines_per_row) * row_bytes) / 128 +
                        static_cast<std::uint64_t>(i % lines_per_row)));
                std::shuffle(order.begin(), order.end(), rng);
            }
            std::vector<char> taken(consecutive || rows ? 0 : region_lines, 0);
            std::uniform_int_distribution<std::uint32_t> pick(0, region_lines - 1);
            while (static_cast<int>(order.size()) < k) {
                const std::uint32_t line = pick(rng);
                if (!taken[line]) {
                    taken[line] = 1;
                    order.push_back(line);
                }
            }
            std::printf("%s%.3f", t ? ", " : "", chaser.run(order, passes));
        }
        std::printf("]}");
    }
    if (ranged) {
        std::printf("\n]}\n");
        return 0;
    }
    std::printf("\n],\n");

    // Strides: K lines `stride` bytes apart, in a random cyclic order (no prefetch pattern).
    std::printf("\"stride\": [\n");
    first_row = true;
    for (std::uint64_t stride = 128; stride <= (2u << 20); stride *= 2) {
        for (int k : {4, 8, 12, 16, 24, 32, 48, 64, 96, 128}) {
            if (stride * k > region_bytes)
                continue;
            std::vector<std::uint32_t> order(k);
            for (int i = 0; i < k; ++i)
                order[i] = static_cast<std::uint32_t>(i * (stride / 128));
            std::shuffle(order.begin() + 1, order.end(), rng);
            std::printf("%s  {\"stride_bytes\": %llu, \"k\": %d, \"cycles_per_load\": %.3f}",
                        first_row ? "" : ",\n", static_cast<unsigned long long>(stride), k,
                        chaser.run(order, passes));
            first_row = false;
        }
    }
    std::printf("\n]}\n");
    return 0;
}
