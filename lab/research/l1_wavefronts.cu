// Research (not part of kerncast's build): two questions the H200 and H100 stencil records left
// open (docs/accuracy.md, "The L1 on Hopper"), each answered by a micro-benchmark whose access
// pattern is known exactly. Built and run by hand on a GPU machine:
//
//     nvcc -O2 -arch=native -o l1_wavefronts lab/research/l1_wavefronts.cu
//     METRICS=l1tex__data_pipe_lsu_wavefronts.sum
//     METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
//     METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
//     METRICS=$METRICS,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
//     METRICS=$METRICS,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
//     ncu --csv --page raw --print-units base --log-file wavefronts.csv --metrics $METRICS \
//         --kernel-name regex:pattern ./l1_wavefronts wavefronts > launches.jsonl
//     (`./l1_wavefronts wavefronts partial`: one family only: hit, miss, partial, inflight,
//     store or burst)
//     lab/research/l1_wavefronts.py launches.jsonl wavefronts.csv --json wavefronts.json
//     ./l1_wavefronts l2-mix > l2_mix.jsonl                 # no ncu: CUDA-event times
//     ./l1_wavefronts dram-mix > dram_mix.jsonl             # the same for DRAM (below)
//
// 1. `wavefronts`: how many L1 data-pipe wavefronts one warp load instruction costs on this GPU,
//    by the warp's shape, the alignment of its rows, the element size and whether its sectors
//    hit L1. kerncast's L1 model (Ernst et al. 2023, sec. 4.2) is the V100's: a half-warp is one
//    wavefront per distinct 8 B unit in a bank, 16 banks of 8 B. On Hopper the stencil records
//    measure fewer wavefronts than that for 4- and 8-wide warps and more for 16- and 32-wide
//    ones, and more again when sectors miss; they mix all of these, so they cannot say which
//    rule holds. Here every launch is one pattern:
//      lane l of every warp reads element (l % W) of row (l / W): rows `row_bytes` apart, the
//      first element `shift` bytes after a 128 B line boundary, E-byte elements (4, 8, 16),
//      `ld.global.nc` as kerncast's generated code issues for `const __restrict__` arrays.
//      hit:  the loop cycles over 2 copies of the pattern (4 warps of a block share them),
//            so after the first pass every sector hits L1;
//      miss: one warp per block, each iteration a fresh copy (the copies lie beyond each other's
//            rows), so every sector misses L1 (the SMs read the same copies: after the first
//            SM's miss, L2 holds them).
//      partial: as miss, but the lanes below `hot_lanes` read one copy that stays in L1, so
//            each request has lines that hit and lines that miss (8 B values, star rows);
//            then pairs of launches whose measured loads find some sectors of a line in L1
//            and miss the others ("sector-partial" minus its "sector-control");
//      inflight: two loads a warp back to back, the second on the lines the first is still
//            fetching (the same or the next elements) or, as the control, on a fresh copy; and
//            two warps a block reading one fresh copy at once ("miss-pair");
//      store: the hit mode's set-up with plain stores of the pattern (4 and 8 B values), after
//            all load patterns;
//      burst: K independent loads a warp back to back (K = 1, 2, 4, 8, 12), each from a fresh
//            copy, all issued before the first is used: what a miss costs a warp with as many
//            loads in flight as the generated stencils issue (about 11, their SASS); K = 1 is
//            the miss mode. Launched after the stores, so a full run numbers the earlier
//            families as before.
//    Rows 4800 and 120000 B apart (the star's and the box's, both 64 B past a line) and 4096 B
//    apart (line-aligned: every row in the same banks).
//    Each launch prints one JSON line with its parameters and the number of load (or store)
//    instructions it executes; the ncu log's launch order is the same, so wavefronts per
//    instruction = l1tex__data_pipe_lsu_wavefronts.sum / instructions (the loop has no other memory
//    access).
// 2. `l2-mix`: L2 bandwidth with loads and stores mixed. kerncast's probe measures the L2 with
//    loads only (`ld.global.cg`: 7.29 TB/s on the H200), but the star stencil moved 8.96 TB/s of
//    loads and stores through L2 there. Each thread streams over an L2-resident buffer with L
//    `ld.global.cg` loads and S `st.global.cg` stores a point (loads alone, stores alone, 8
//    loads with 1..8 stores); bytes / CUDA-event time, per configuration. (The 2026-11-26 runs
//    1 and 2 had one store at most: keys loads_per_store and store.)
// 3. `dram-mix`: the same kernel for DRAM: slices of 256 MiB and 1 GiB (the two sizes separate a
//    launch's fixed time from its bandwidth; a 256 MiB load pass takes 0.1 ms on an H100), one
//    pass a launch, 1 to 4 loads a store, 3 loads to 2 stores (a star's mix) and loads or stores
//    alone, at 2 and 4 blocks of 1024 threads an SM; with the l2_mix kernel ("loop": one point's
//    loads in flight a thread) and with 4 points' loads in flight a thread ("unrolled").
#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace {

template <int E> struct Element;
template <> struct Element<4> {
    __device__ static float load(const char* p) { return __ldg(reinterpret_cast<const float*>(p)); }
    __device__ static void store(char* p, float v) { *reinterpret_cast<float*>(p) = v; }
};
template <> struct Element<8> {
    __device__ static float load(const char* p) {
        return static_cast<float>(__ldg(reinterpret_cast<const double*>(p)));
    }
    __device__ static void store(char* p, float v) { *reinterpret_cast<double*>(p) = v; }
};
template <> struct Element<16> {
    __device__ static float load(const char* p) {
        const double2 v = __ldg(reinterpret_cast<const double2*>(p));
        return static_cast<float>(v.x + v.y);
    }
    __device__ static void store(char* p, float v) {
        *reinterpret_cast<double2*>(p) = make_double2(v, v);
    }
};

// Where lane `lane` of a pattern reads: element (lane % width) of row (lane / width), rows
// `row_bytes` apart, the first `shift` bytes after a line boundary.
__device__ long long lane_offset(int lane, int width, int row_bytes, int shift, int element_bytes) {
    return static_cast<long long>(lane / width) * row_bytes +
           static_cast<long long>(lane % width) * element_bytes + shift;
}

// Every warp: `iterations` loads of the pattern, copy (i & copy_mask) of it, copies
// `copy_bytes` apart. The sum is stored only if it equals a value it never takes, so the loads
// stay and no store executes.
template <int E>
__global__ void pattern(const char* __restrict__ base, int width, int row_bytes, int shift,
                        long long copy_bytes, int copy_mask, int iterations, float* sink) {
    const int lane = threadIdx.x & 31;
    const char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    float sum = 0.0f;
    for (int i = 0; i < iterations; ++i)
        sum += Element<E>::load(p + static_cast<long long>(i & copy_mask) * copy_bytes);
    if (sum == -1.0f)
        sink[threadIdx.x] = sum;
}

// Partly hitting warps: lanes below `hot_lanes` read copy 0 of the pattern every iteration (in
// L1 after the first), the others copy 1 + i (a fresh copy each iteration: L1 misses), so every
// request after the first has lines that hit and lines that miss, as a stencil's loads do when
// a neighbour's rows are already in L1.
template <int E>
__global__ void pattern_partial(const char* __restrict__ base, int width, int row_bytes, int shift,
                                long long copy_bytes, int hot_lanes, int iterations, float* sink) {
    const int lane = threadIdx.x & 31;
    const char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    float sum = 0.0f;
    for (int i = 0; i < iterations; ++i)
        sum += Element<E>::load(p + (lane < hot_lanes ? 0ll : (1ll + i) * copy_bytes));
    if (sum == -1.0f)
        sink[threadIdx.x] = sum;
}

// Partly hitting lines: each iteration takes a fresh copy, first loads the hot lanes' values of
// it alone (their sectors come into L1, and the next address depends on them, so the warp waits
// for them), then, with `measured`, the whole pattern from the same copy: its lines hold some
// sectors and miss others. A launch without `measured` issues the first loads only; the
// difference of the two launches' wavefronts is the measured loads' (memory is zero, so the
// address never moves).
template <int E>
__global__ void pattern_sector_partial(const char* __restrict__ base, int width, int row_bytes,
                                       int shift, long long copy_bytes, int hot_lanes,
                                       int iterations, int measured, float* sink) {
    const int lane = threadIdx.x & 31;
    const char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    float sum = 0.0f;
    for (int i = 0; i < iterations; ++i) {
        const char* q = p + (1ll + i) * copy_bytes;
        float warm = 0.0f;
        if (lane < hot_lanes)
            warm = Element<E>::load(q);
        q += warm == 12345.0f ? E : 0;
        if (measured)
            sum += Element<E>::load(q);
        sum += warm;
    }
    if (sum == -1.0f)
        sink[threadIdx.x] = sum;
}

// Lines in flight: each iteration two independent loads back to back (the second issued
// before the first's data can arrive), the first from a fresh copy, the second `second_shift`
// bytes after it (0: the same addresses, 8: the next element, as a stencil's next x-offset) or,
// with `second_shift` < 0, from another fresh copy (both miss: the control).
template <int E>
__global__ void pattern_in_flight(const char* __restrict__ base, int width, int row_bytes,
                                  int shift, long long copy_bytes, int second_shift, int iterations,
                                  float* sink) {
    const int lane = threadIdx.x & 31;
    const char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    float sum = 0.0f;
    for (int i = 0; i < iterations; ++i) {
        const char* first = p + (1ll + i) * copy_bytes;
        const char* second =
            second_shift < 0 ? p + (1ll + iterations + i) * copy_bytes : first + second_shift;
        sum += Element<E>::load(first) + Element<E>::load(second);
    }
    if (sum == -1.0f)
        sink[threadIdx.x] = sum;
}

// K loads in flight: each iteration K independent loads, each from a fresh copy (every sector
// misses L1), all issued before the first value is used (the unrolled array keeps them in
// registers), then summed.
template <int E, int K>
__global__ void pattern_burst(const char* __restrict__ base, int width, int row_bytes, int shift,
                              long long copy_bytes, int iterations, float* sink) {
    const int lane = threadIdx.x & 31;
    const char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    float sum = 0.0f;
    for (int i = 0; i < iterations; ++i) {
        float value[K];
#pragma unroll
        for (int k = 0; k < K; ++k)
            value[k] = Element<E>::load(p + (1ll + static_cast<long long>(i) * K + k) * copy_bytes);
#pragma unroll
        for (int k = 0; k < K; ++k)
            sum += value[k];
    }
    if (sum == -1.0f)
        sink[threadIdx.x] = sum;
}

using BurstKernel = void (*)(const char*, int, int, int, long long, int, float*);

// The burst kernel of K loads in flight (8 B values).
BurstKernel burst_kernel(int burst) {
    switch (burst) {
    case 1:
        return pattern_burst<8, 1>;
    case 2:
        return pattern_burst<8, 2>;
    case 4:
        return pattern_burst<8, 4>;
    case 8:
        return pattern_burst<8, 8>;
    default:
        return pattern_burst<8, 12>;
    }
}

// The same pattern stored (plain `st.global`, as kerncast's generated code stores): every
// iteration writes copy (i & copy_mask) with a value that changes with i, so no store is dead.
template <int E>
__global__ void pattern_store(char* base, int width, int row_bytes, int shift, long long copy_bytes,
                              int copy_mask, int iterations) {
    const int lane = threadIdx.x & 31;
    char* p = base + lane_offset(lane, width, row_bytes, shift, E);
    for (int i = 0; i < iterations; ++i)
        Element<E>::store(p + static_cast<long long>(i & copy_mask) * copy_bytes,
                          static_cast<float>(i + lane));
}

using PatternKernel = void (*)(const char*, int, int, int, long long, int, int, float*);
using StoreKernel = void (*)(char*, int, int, int, long long, int, int);

StoreKernel store_kernel(int element_bytes) {
    return element_bytes == 4   ? pattern_store<4>
           : element_bytes == 8 ? pattern_store<8>
                                : pattern_store<16>;
}

PatternKernel pattern_kernel(int element_bytes) {
    switch (element_bytes) {
    case 4:
        return pattern<4>;
    case 8:
        return pattern<8>;
    default:
        return pattern<16>;
    }
}

void print_device(const char* what) {
    int device = 0, sm_clock_khz = 0, memory_clock_khz = 0, driver = 0, runtime = 0;
    CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, device));
    CHECK(cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device));
    CHECK(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device));
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    std::printf("{\"experiment\": \"%s\", \"device\": \"%s\", \"compute_capability\": \"%d.%d\", "
                "\"sm_count\": %d, \"sm_clock_khz\": %d, \"memory_clock_khz\": %d, "
                "\"l2_bytes\": %d, \"driver_version\": %d, \"runtime_version\": %d}\n",
                what, prop.name, prop.major, prop.minor, prop.multiProcessorCount, sm_clock_khz,
                memory_clock_khz, prop.l2CacheSize, driver, runtime);
}

// `only`: run one family of patterns ("hit", "miss", "partial", "inflight", "store",
// "burst"); empty: all.
int wavefronts(const std::string& only) {
    print_device("wavefronts");
    int device = 0, sms = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    // The star's rows (600 doubles), the box's (15000 doubles), both 64 B past a 128 B line,
    // and rows on line boundaries (4096 B: every row starts in bank 0).
    const int row_strides[] = {4800, 120000, 4096};
    const int widths[] = {1, 2, 4, 8, 16, 32};
    const int element_sizes[] = {4, 8, 16};
    const int shifts[] = {0, 4, 8, 16, 24, 32, 64, 96, 120};
    const int hit_iterations = 256, miss_iterations = 64;
    // A copy of the pattern spans at most 32 rows plus 32 x 16 B: copies one row set apart.
    std::size_t region = 0;
    for (int rows : row_strides)
        region = std::max<std::size_t>(region, static_cast<std::size_t>(miss_iterations) *
                                                   (32ull * rows + 1024));
    char* base = nullptr;
    float* sink = nullptr;
    CHECK(cudaMalloc(&base, region));
    CHECK(cudaMemset(base, 0, region));
    CHECK(cudaMalloc(&sink, 1024 * sizeof(float)));
    for (int e : element_sizes) // the largest L1: no shared memory carve-out
        CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(pattern_kernel(e)),
                                   cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    int launch = 0;
    const auto wanted = [&](const char* mode) { return only.empty() || only == mode; };
    for (const char* mode : {"hit", "miss"}) {
        if (!wanted(mode))
            continue;
        for (int rows : row_strides)
            for (int e : element_sizes)
                for (int width : widths)
                    for (int shift : shifts) {
                        if (shift % e != 0)
                            continue; // misaligned elements are not a load kerncast generates
                        const bool hit = std::strcmp(mode, "hit") == 0;
                        const long long copy_bytes = 32ll * rows + 1024;
                        const int copy_mask = hit ? 1 : miss_iterations - 1;
                        const int iterations = hit ? hit_iterations : miss_iterations;
                        const int warps = hit ? 4 : 1;
                        pattern_kernel(e)<<<sms, 32 * warps>>>(base, width, rows, shift, copy_bytes,
                                                               copy_mask, iterations, sink);
                        CHECK(cudaGetLastError());
                        CHECK(cudaDeviceSynchronize());
                        std::printf("{\"launch\": %d, \"mode\": \"%s\", \"row_bytes\": %d, "
                                    "\"element_bytes\": %d, \"width\": %d, \"shift_bytes\": %d, "
                                    "\"blocks\": %d, \"warps_per_block\": %d, "
                                    "\"iterations\": %d, \"load_instructions\": %lld}\n",
                                    launch++, mode, rows, e, width, shift, sms, warps, iterations,
                                    static_cast<long long>(sms) * warps * iterations);
                    }
    }
    // Partly hitting warps (one warp a block, as the miss mode): 8 B values on the star's rows,
    // a quarter, half or three quarters of the lanes hot. After every plain load pattern and
    // before the stores, so the earlier launches keep their numbers.
    for (int width : {4, 8, 16, 32})
        for (int shift : {0, 8}) {
            if (!wanted("partial"))
                break;
            for (int hot_lanes : {8, 16, 24}) {
                const int rows = 4800, iterations = miss_iterations - 1;
                pattern_partial<8><<<sms, 32>>>(base, width, rows, shift, 32ll * rows + 1024,
                                                hot_lanes, iterations, sink);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                std::printf("{\"launch\": %d, \"mode\": \"partial\", \"row_bytes\": %d, "
                            "\"element_bytes\": 8, \"width\": %d, \"shift_bytes\": %d, "
                            "\"hot_lanes\": %d, \"blocks\": %d, \"warps_per_block\": 1, "
                            "\"iterations\": %d, \"load_instructions\": %lld}\n",
                            launch++, rows, width, shift, hot_lanes, sms, iterations,
                            static_cast<long long>(sms) * iterations);
            }
        }
    // Partly hitting lines: the same shapes (widths 8..32), each as a pair of launches: the
    // warming loads alone ("sector-control"), then with the measured loads ("sector-partial",
    // naming its control launch).
    for (int width : {8, 16, 32})
        for (int shift : {0, 8}) {
            if (!wanted("partial"))
                break;
            for (int hot_lanes : {8, 16, 24}) {
                const int rows = 4800, iterations = miss_iterations - 1;
                int control = -1;
                for (int measured : {0, 1}) {
                    pattern_sector_partial<8><<<sms, 32>>>(base, width, rows, shift,
                                                           32ll * rows + 1024, hot_lanes,
                                                           iterations, measured, sink);
                    CHECK(cudaGetLastError());
                    CHECK(cudaDeviceSynchronize());
                    std::printf("{\"launch\": %d, \"mode\": \"%s\", \"row_bytes\": %d, "
                                "\"element_bytes\": 8, \"width\": %d, \"shift_bytes\": %d, "
                                "\"hot_lanes\": %d, \"control_launch\": %d, \"blocks\": %d, "
                                "\"warps_per_block\": 1, \"iterations\": %d, "
                                "\"load_instructions\": %lld}\n",
                                launch, measured ? "sector-partial" : "sector-control", rows, width,
                                shift, hot_lanes, control, sms, iterations,
                                static_cast<long long>(sms) * iterations);
                    control = launch++;
                }
            }
        }
    // Lines in flight (8 B values, the star's rows): two loads a warp back to back, the second
    // on the first's lines (second_shift 0 or 8 B) or on a fresh copy (-1, the control); and
    // two warps a block reading the same fresh copy at once ("miss-pair", as the miss mode with
    // a second warp). Instructions count both loads, or both warps.
    for (int width : {1, 4, 8, 16, 32})
        for (int shift : {0, 8}) {
            if (!wanted("inflight"))
                break;
            const int rows = 4800, iterations = miss_iterations / 2 - 1;
            const long long copy_bytes = 32ll * rows + 1024;
            for (int second_shift : {-1, 0, 8}) {
                pattern_in_flight<8><<<sms, 32>>>(base, width, rows, shift, copy_bytes,
                                                  second_shift, iterations, sink);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                std::printf("{\"launch\": %d, \"mode\": \"in-flight\", \"row_bytes\": %d, "
                            "\"element_bytes\": 8, \"width\": %d, \"shift_bytes\": %d, "
                            "\"second_shift_bytes\": %d, \"blocks\": %d, "
                            "\"warps_per_block\": 1, \"iterations\": %d, "
                            "\"load_instructions\": %lld}\n",
                            launch++, rows, width, shift, second_shift, sms, iterations,
                            2ll * sms * iterations);
            }
            pattern<8><<<sms, 64>>>(base, width, rows, shift, copy_bytes, miss_iterations - 1,
                                    miss_iterations, sink);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            std::printf("{\"launch\": %d, \"mode\": \"miss-pair\", \"row_bytes\": %d, "
                        "\"element_bytes\": 8, \"width\": %d, \"shift_bytes\": %d, "
                        "\"blocks\": %d, \"warps_per_block\": 2, \"iterations\": %d, "
                        "\"load_instructions\": %lld}\n",
                        launch++, rows, width, shift, sms, miss_iterations,
                        2ll * sms * miss_iterations);
        }
    // Stores: the hit mode's set-up (4 warps a block, 2 copies), the element sizes the stencils
    // store, the star's rows and line-aligned ones. Launched after every load pattern, so the
    // ncu rows of the loads keep their order.
    const int store_shifts[] = {0, 8, 64, 120};
    for (int rows : {4800, 4096}) {
        if (!wanted("store"))
            break;
        for (int e : {4, 8})
            for (int width : widths)
                for (int shift : store_shifts) {
                    if (shift % e != 0)
                        continue;
                    const int iterations = hit_iterations, warps = 4;
                    store_kernel(e)<<<sms, 32 * warps>>>(base, width, rows, shift,
                                                         32ll * rows + 1024, 1, iterations);
                    CHECK(cudaGetLastError());
                    CHECK(cudaDeviceSynchronize());
                    std::printf("{\"launch\": %d, \"mode\": \"store\", \"row_bytes\": %d, "
                                "\"element_bytes\": %d, \"width\": %d, \"shift_bytes\": %d, "
                                "\"blocks\": %d, \"warps_per_block\": %d, "
                                "\"iterations\": %d, \"store_instructions\": %lld}\n",
                                launch++, rows, e, width, shift, sms, warps, iterations,
                                static_cast<long long>(sms) * warps * iterations);
                }
    }
    // Loads in flight (8 B values, the star's and the box's rows): K loads a warp back to back,
    // each from a fresh copy; iterations x K stays within the region's copies.
    for (int rows : {4800, 120000}) {
        if (!wanted("burst"))
            break;
        for (int width : widths)
            for (int shift : {0, 8})
                for (int burst : {1, 2, 4, 8, 12}) {
                    const int iterations = (miss_iterations - 1) / burst;
                    burst_kernel(burst)<<<sms, 32>>>(base, width, rows, shift, 32ll * rows + 1024,
                                                     iterations, sink);
                    CHECK(cudaGetLastError());
                    CHECK(cudaDeviceSynchronize());
                    std::printf("{\"launch\": %d, \"mode\": \"burst\", \"row_bytes\": %d, "
                                "\"element_bytes\": 8, \"width\": %d, \"shift_bytes\": %d, "
                                "\"burst\": %d, \"blocks\": %d, \"warps_per_block\": 1, "
                                "\"iterations\": %d, \"load_instructions\": %lld}\n",
                                launch++, rows, width, shift, burst, sms, iterations,
                                static_cast<long long>(sms) * iterations * burst);
                }
    }
    CHECK(cudaFree(base));
    CHECK(cudaFree(sink));
    return 0;
}

// Each thread: for every point p < n of its grid-stride loop, `loads` loads (.cg, L2) of src at
// p, p + slice, ..., and `stores` stores of their sum to dst at p, p + slice, ...; `passes` times
// over the buffers (l2-mix: slice = n, and the buffers stay in L2).
__global__ void l2_mix(const double* __restrict__ src, double* __restrict__ dst, long long n,
                       long long slice, int loads, int stores, int passes) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    double total = 0.0;
    for (int pass = 0; pass < passes; ++pass)
        for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < n;
             p += stride) {
            double sum = 0.0;
            for (int k = 0; k < loads; ++k)
                sum += __ldcg(src + p + k * slice);
            for (int k = 0; k < stores; ++k)
                __stcg(dst + p + k * slice, sum + pass + k);
            total += sum;
        }
    if (total == -1.0)
        dst[0] = total;
}

// `repetitions` CUDA-event times of `launch()` (one kernel launch each), in ms.
template <class Launch> std::vector<float> event_times(Launch launch, int repetitions) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms(repetitions);
    for (int r = 0; r < repetitions; ++r) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

// The l2_mix kernel of `loads` loads and `stores` stores a point over n doubles of slices
// `slice` doubles apart: one warm-up launch of `warm_passes` passes, then `repetitions`
// CUDA-event-timed launches of `passes` passes each; their times in ms.
std::vector<float> time_l2_mix(const double* src, double* dst, long long n, long long slice,
                               int loads, int stores, int blocks, int threads, int warm_passes,
                               int passes, int repetitions) {
    l2_mix<<<blocks, threads>>>(src, dst, n, slice, loads, stores, warm_passes);
    CHECK(cudaGetLastError());
    return event_times(
        [&] { l2_mix<<<blocks, threads>>>(src, dst, n, slice, loads, stores, passes); },
        repetitions);
}

// `"times_ms": [...]}` and the line's end.
void print_times(const std::vector<float>& ms) {
    std::printf("\"times_ms\": [");
    for (size_t r = 0; r < ms.size(); ++r)
        std::printf("%s%.6f", r ? ", " : "", ms[r]);
    std::printf("]}\n");
}

int l2_mix_bandwidth() {
    print_device("l2-mix");
    int device = 0, sms = 0, l2_bytes = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    // Up to 8 slices of n doubles loaded and 8 stored: a quarter of the L2 in all, so the
    // buffers stay within the near partition of a two-partition L2.
    const int max_loads = 8, max_stores = 8;
    const long long n = l2_bytes / 4 / 8 / (max_loads + max_stores);
    double *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, n * max_loads * sizeof(double)));
    CHECK(cudaMalloc(&dst, n * max_stores * sizeof(double)));
    CHECK(cudaMemset(src, 0, n * max_loads * sizeof(double)));
    CHECK(cudaMemset(dst, 0, n * max_stores * sizeof(double)));
    const int passes = 2000, repetitions = 5, threads = 1024;
    const int blocks = 2 * sms;
    // Loads alone, stores alone, and 8 loads with 1..8 stores: a store that costs the loads'
    // L2 bandwidth makes a mix slower than its loads alone by the store bytes.
    const int configurations[][2] = {{8, 0}, {0, 8}, {4, 0}, {0, 4}, {8, 1}, {8, 2},
                                     {8, 4}, {8, 8}, {4, 4}, {4, 1}, {1, 0}, {0, 1}};
    for (const auto& configuration : configurations) {
        const int loads = configuration[0], stores = configuration[1];
        // The warm-up's 2 passes bring the buffers into L2.
        const std::vector<float> ms =
            time_l2_mix(src, dst, n, n, loads, stores, blocks, threads, 2, passes, repetitions);
        const double load_bytes = static_cast<double>(passes) * n * 8.0 * loads;
        const double store_bytes = static_cast<double>(passes) * n * 8.0 * stores;
        std::printf("{\"loads\": %d, \"stores\": %d, \"points\": %lld, \"passes\": %d, "
                    "\"load_bytes_per_launch\": %.0f, \"store_bytes_per_launch\": %.0f, ",
                    loads, stores, n, passes, load_bytes, store_bytes);
        print_times(ms);
    }
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}

// DRAM bandwidth with loads and stores mixed: the l2_mix kernel on buffers far larger than the
// L2 (slices of 256 MiB), one pass per launch. kerncast's DRAM limit divides loads plus stores by
// the probe's load bandwidth; the probe times loads and stores apart (on the H200 4.28 and 4.33
// TB/s), while the box r1 (8 B loaded and 8 B stored a point from DRAM) reaches 3.3 TB/s at
// best there (docs/accuracy.md, 2026-11-26 notes).
// The dram-mix kernel with memory parallelism: each thread takes 4 points of its grid-stride
// loop at once and issues all 4 x LOADS loads (.cg) before it uses one, then STORES stores (.cg)
// a point. The l2_mix kernel has one point's loads in flight a thread at most, which can bound
// it below the DRAM's bandwidth (a latency limit, not a bandwidth one).
template <int LOADS, int STORES>
__global__ void dram_mix_unrolled(const double* __restrict__ src, double* __restrict__ dst,
                                  long long n, long long slice) {
    constexpr int points = 4;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < n;
         p += points * stride) {
        double value[points][LOADS > 0 ? LOADS : 1] = {};
#pragma unroll
        for (int u = 0; u < points; ++u)
#pragma unroll
            for (int k = 0; k < LOADS; ++k)
                if (p + u * stride < n)
                    value[u][k] = __ldcg(src + p + u * stride + k * slice);
#pragma unroll
        for (int u = 0; u < points; ++u) {
            double sum = 1.0;
#pragma unroll
            for (int k = 0; k < LOADS; ++k)
                sum += value[u][k];
#pragma unroll
            for (int k = 0; k < STORES; ++k)
                if (p + u * stride < n)
                    __stcg(dst + p + u * stride + k * slice, sum + k);
            if (STORES == 0 && sum == -1.0) // never true; keeps the loads of a loads-only mix
                dst[0] = sum;
        }
    }
}

using DramMixKernel = void (*)(const double*, double*, long long, long long);

// The unrolled kernel of `loads` loads and `stores` stores (the configurations dram-mix times).
DramMixKernel dram_mix_kernel(int loads, int stores) {
    switch (loads * 10 + stores) {
    case 10:
        return dram_mix_unrolled<1, 0>;
    case 1:
        return dram_mix_unrolled<0, 1>;
    case 11:
        return dram_mix_unrolled<1, 1>;
    case 21:
        return dram_mix_unrolled<2, 1>;
    case 31:
        return dram_mix_unrolled<3, 1>;
    case 41:
        return dram_mix_unrolled<4, 1>;
    case 12:
        return dram_mix_unrolled<1, 2>;
    case 22:
        return dram_mix_unrolled<2, 2>;
    case 32:
        return dram_mix_unrolled<3, 2>;
    }
    std::fprintf(stderr, "dram-mix: no unrolled kernel for %d loads and %d stores\n", loads,
                 stores);
    std::exit(1);
}

// `repetitions` CUDA-event-timed launches of the unrolled kernel after one warm-up launch.
std::vector<float> time_dram_mix_unrolled(const double* src, double* dst, long long n,
                                          long long slice, int loads, int stores, int blocks,
                                          int threads, int repetitions) {
    const DramMixKernel kernel = dram_mix_kernel(loads, stores);
    kernel<<<blocks, threads>>>(src, dst, n, slice);
    CHECK(cudaGetLastError());
    return event_times([&] { kernel<<<blocks, threads>>>(src, dst, n, slice); }, repetitions);
}

int dram_mix_bandwidth() {
    print_device("dram-mix");
    const int max_loads = 4, max_stores = 2;
    const long long largest_n = 1ll << 27; // doubles a slice: 1 GiB
    double *src = nullptr, *dst = nullptr;
    CHECK(cudaMalloc(&src, largest_n * max_loads * sizeof(double)));
    CHECK(cudaMalloc(&dst, largest_n * max_stores * sizeof(double)));
    CHECK(cudaMemset(src, 0, largest_n * max_loads * sizeof(double)));
    CHECK(cudaMemset(dst, 0, largest_n * max_stores * sizeof(double)));
    int device = 0, sms = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int repetitions = 5, threads = 1024;
    // Loads alone, stores alone, and the ratios a stencil's DRAM traffic has (1 to 4 loads a
    // store, 3 to 2), at two occupancies.
    const int configurations[][2] = {{1, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1},
                                     {4, 1}, {1, 2}, {2, 2}, {3, 2}};
    // "loop": the l2_mix kernel (one point's loads in flight a thread); "unrolled": 4 points'
    // loads in flight a thread (dram_mix_unrolled).
    for (const char* kernel : {"loop", "unrolled"})
        for (const long long n : {1ll << 25, largest_n}) // 256 MiB and 1 GiB slices
            for (const int blocks_per_sm : {2, 4})
                for (const auto& configuration : configurations) {
                    const int loads = configuration[0], stores = configuration[1];
                    const int blocks = blocks_per_sm * sms;
                    // The slices are 1 GiB apart whatever n is.
                    const std::vector<float> ms =
                        std::string(kernel) == "loop"
                            ? time_l2_mix(src, dst, n, largest_n, loads, stores, blocks, threads, 1,
                                          1, repetitions)
                            : time_dram_mix_unrolled(src, dst, n, largest_n, loads, stores, blocks,
                                                     threads, repetitions);
                    std::printf("{\"kernel\": \"%s\", \"loads\": %d, \"stores\": %d, "
                                "\"points\": %lld, \"blocks\": %d, \"threads\": %d, "
                                "\"load_bytes_per_launch\": %.0f, "
                                "\"store_bytes_per_launch\": %.0f, ",
                                kernel, loads, stores, n, blocks, threads, 8.0 * n * loads,
                                8.0 * n * stores);
                    print_times(ms);
                }
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "wavefronts")
        return wavefronts(argc > 2 ? argv[2] : "");
    if (what == "l2-mix")
        return l2_mix_bandwidth();
    if (what == "dram-mix")
        return dram_mix_bandwidth();
    std::fprintf(stderr,
                 "usage: %s wavefronts [hit|miss|partial|inflight|store|burst] | l2-mix | "
                 "dram-mix\n",
                 argv[0]);
    return 2;
}
