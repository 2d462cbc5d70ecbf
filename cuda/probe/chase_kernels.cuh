// Pointer-chase microbenchmarks (thesis 002, sec. 3.1, 4.2-4.6). Every chain holds absolute
// element indices into one device buffer (allocated once); a chain is a cycle, so a chase can
// run longer than the chain. One thread per block chases; batched launches give each block
// its own chain (one array size per block, thesis sec. 4.7.2).
#pragma once

#include "kerncast/probe/chain_layout.hpp"

#include <cstdint>
#include <cuda_runtime.h>

namespace kerncast::probe::device {

enum class LoadKind : int {
    global_ca, // ld.global.ca: cache in L1 and L2 (thesis sec. 4.2.1)
    global_cg, // ld.global.cg: L2 only
    global_nc, // ld.global.nc: the read-only (__ldg) path (sec. 4.2.3)
    texture,   // tex1Dfetch on a linear texture object (sec. 4.2.2)
    constant,  // the __constant__ chain below (sec. 4.2.4)
};

// 62 KiB of constant memory: the 64 KiB module limit minus what the module itself needs
// (thesis sec. 5.3.4 saw 1.5 KiB taken).
constexpr std::uint32_t constant_chain_elements = 62 * 1024 / 4;
__constant__ std::uint32_t constant_chain[constant_chain_elements];

// Clock reads the compiler may not move across memory operations or each other.
__device__ __forceinline__ long long clock_fenced() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned long long globaltimer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ std::uint32_t sm_id() {
    std::uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

// Pins j behind the preceding volatile asm (a clock read): loads issued through intrinsics
// (texture, constant) cannot be hoisted above it.
__device__ __forceinline__ std::uint32_t after_fence(std::uint32_t j) {
    asm volatile("mov.u32 %0, %0;" : "+r"(j)::"memory");
    return j;
}

// One chase step: the next index from element j. wrap_elements only matters for the
// constant chain, which is one sequential chain over all of constant memory and is cut at
// the size being measured (thesis sec. 4.2.4: j = j % N).
template <LoadKind Kind>
__device__ __forceinline__ std::uint32_t load_next(const std::uint32_t* buffer, std::uint32_t j,
                                                   cudaTextureObject_t texture,
                                                   std::uint32_t wrap_elements) {
    std::uint32_t next;
    if constexpr (Kind == LoadKind::global_ca) {
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(next) : "l"(buffer + j) : "memory");
    } else if constexpr (Kind == LoadKind::global_cg) {
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(next) : "l"(buffer + j) : "memory");
    } else if constexpr (Kind == LoadKind::global_nc) {
        asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(next) : "l"(buffer + j) : "memory");
    } else if constexpr (Kind == LoadKind::texture) {
        next = tex1Dfetch<unsigned int>(texture, static_cast<int>(j));
    } else {
        next = constant_chain[j];
        next = next >= wrap_elements ? 0u : next;
    }
    return next;
}

// Per-block result of a timed kernel: SM cycles and globaltimer nanoseconds over the whole
// block (the SM clock of this launch), and the SM it ran on.
struct BlockClock {
    unsigned long long cycles;
    unsigned long long nanoseconds;
    unsigned long long sm;
};

// Fine-grained chase (thesis fig. 4.2-4.4): round 1 walks the chain once (lengths[b] loads)
// to fill the cache; round 2 times measure_count loads one by one. The loaded index is
// stored to shared memory before the second clock read, so the read waits for the load
// (the "dual issue" guard of sec. 3.1.2). times: measure_count per block.
template <LoadKind Kind>
__global__ void
fine_grained_chase(const std::uint32_t* __restrict__ buffer, cudaTextureObject_t texture,
                   const std::uint32_t* __restrict__ starts,
                   const std::uint32_t* __restrict__ lengths, std::uint32_t wrap_elements,
                   std::uint32_t measure_count, int warm, std::uint32_t* __restrict__ times,
                   std::uint32_t* __restrict__ sink, BlockClock* __restrict__ clocks) {
    extern __shared__ std::uint32_t s_times[];
    __shared__ std::uint32_t s_sink;
    if (threadIdx.x != 0)
        return;
    const unsigned b = blockIdx.x;
    std::uint32_t j = starts[b];
    const long long c0 = clock_fenced();
    const unsigned long long g0 = globaltimer_ns();
    if (warm)
        for (std::uint32_t k = 0; k < lengths[b]; ++k)
            j = load_next<Kind>(buffer, j, texture, wrap_elements);
    const auto sink_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&s_sink));
    for (std::uint32_t k = 0; k < measure_count; ++k) {
        const long long t0 = clock_fenced();
        j = load_next<Kind>(buffer, after_fence(j), texture, wrap_elements);
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink_address), "r"(j) : "memory");
        const long long t1 = clock_fenced();
        s_times[k] = static_cast<std::uint32_t>(t1 - t0);
    }
    const long long c1 = clock_fenced();
    const unsigned long long g1 = globaltimer_ns();
    for (std::uint32_t k = 0; k < measure_count; ++k)
        times[static_cast<std::size_t>(b) * measure_count + k] = s_times[k];
    sink[b] = j;
    clocks[b] = {static_cast<unsigned long long>(c1 - c0), g1 - g0, sm_id()};
}

// Plain chase (thesis fig. 4.14): warm round, then `iterations` loads timed as a whole.
// cycles_per_load is written per block; the overhead kernel below is subtracted on the host.
template <LoadKind Kind>
__global__ void plain_chase(const std::uint32_t* __restrict__ buffer, cudaTextureObject_t texture,
                            std::uint32_t start, std::uint32_t length, std::uint32_t wrap_elements,
                            std::uint32_t iterations, int warm,
                            double* __restrict__ cycles_per_load, std::uint32_t* __restrict__ sink,
                            BlockClock* __restrict__ clocks) {
    if (threadIdx.x != 0)
        return;
    std::uint32_t j = start;
    if (warm)
        for (std::uint32_t k = 0; k < length; ++k)
            j = load_next<Kind>(buffer, j, texture, wrap_elements);
    const unsigned long long g0 = globaltimer_ns();
    const long long t0 = clock_fenced();
    j = after_fence(j);
    for (std::uint32_t k = 0; k < iterations; ++k)
        j = load_next<Kind>(buffer, j, texture, wrap_elements);
    sink[blockIdx.x] = j; // the last load completes before the clock read below
    const long long t1 = clock_fenced();
    const unsigned long long g1 = globaltimer_ns();
    cycles_per_load[blockIdx.x] = static_cast<double>(t1 - t0) / iterations;
    clocks[blockIdx.x] = {static_cast<unsigned long long>(t1 - t0), g1 - g0, sm_id()};
}

// The plain chase without the load (thesis sec. 4.4): the same dependent address arithmetic
// (64-bit multiply-add of the index into an address) and loop, so that its cycles per step
// are the overhead to subtract from plain_chase.
__global__ void chase_overhead(const std::uint32_t* __restrict__ buffer, std::uint32_t start,
                               std::uint32_t iterations, double* __restrict__ cycles_per_step,
                               std::uint32_t* __restrict__ sink) {
    if (threadIdx.x != 0)
        return;
    std::uint32_t j = start;
    const long long t0 = clock_fenced();
    for (std::uint32_t k = 0; k < iterations; ++k) {
        // address = buffer + 4 * j, then back to an index: the same mul.wide + add a load's
        // address needs, kept dependent on the previous step.
        asm volatile("{\n\t.reg .u64 a;\n\t"
                     "mul.wide.u32 a, %0, 4;\n\t"
                     "add.u64 a, a, %1;\n\t"
                     "cvt.u32.u64 %0, a;\n\t}"
                     : "+r"(j)
                     : "l"(buffer));
        j &= 0xffu;
    }
    sink[blockIdx.x] = j;
    const long long t1 = clock_fenced();
    cycles_per_step[blockIdx.x] = static_cast<double>(t1 - t0) / iterations;
}

// Shared-memory latency: the chain lives in dynamic shared memory (built by thread 0; shared
// memory cannot be set from the host, sec. 4.4).
__global__ void shared_chase(std::uint32_t elements, std::uint32_t stride_elements,
                             std::uint32_t iterations, double* __restrict__ cycles_per_load,
                             std::uint32_t* __restrict__ sink) {
    extern __shared__ std::uint32_t s_chain[];
    if (threadIdx.x != 0)
        return;
    for (std::uint32_t k = 0; k < elements; k += stride_elements)
        s_chain[k] = (k + stride_elements) % elements;
    std::uint32_t j = 0;
    const long long t0 = clock_fenced();
    for (std::uint32_t k = 0; k < iterations; ++k) {
        const auto address = static_cast<std::uint32_t>(__cvta_generic_to_shared(s_chain + j));
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(j) : "r"(address) : "memory");
    }
    sink[blockIdx.x] = j;
    const long long t1 = clock_fenced();
    cycles_per_load[blockIdx.x] = static_cast<double>(t1 - t0) / iterations;
}

// Two-thread interference (thesis sec. 4.5, 4.6): thread 0 fills cache A with its chain,
// then thread `other` fills B with its own (other < 0: nobody, the reference run), then
// thread 0 times its chain again. Misses in thread 0's times mean B evicted A: one cache.
template <LoadKind A, LoadKind B>
__global__ void interference(const std::uint32_t* __restrict__ buffer, cudaTextureObject_t texture,
                             std::uint32_t a_start, std::uint32_t a_length, std::uint32_t b_start,
                             std::uint32_t b_length, int other, std::uint32_t measure_count,
                             std::uint32_t* __restrict__ times, std::uint32_t* __restrict__ sink) {
    extern __shared__ std::uint32_t s_times[];
    __shared__ std::uint32_t s_sink;
    const int tid = static_cast<int>(threadIdx.x);
    std::uint32_t j = a_start;
    if (tid == 0)
        for (std::uint32_t k = 0; k < a_length; ++k)
            j = load_next<A>(buffer, j, texture, 0xffffffffu);
    __syncthreads(); // other warps must not run ahead of the branch (sec. 4.6)
    if (tid == other) {
        std::uint32_t i = b_start;
        for (std::uint32_t k = 0; k < b_length; ++k)
            i = load_next<B>(buffer, i, texture, 0xffffffffu);
        sink[1] = i;
    }
    __syncthreads();
    if (tid == 0) {
        j = a_start;
        const auto sink_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&s_sink));
        for (std::uint32_t k = 0; k < measure_count; ++k) {
            const long long t0 = clock_fenced();
            j = load_next<A>(buffer, after_fence(j), texture, 0xffffffffu);
            asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink_address), "r"(j) : "memory");
            const long long t1 = clock_fenced();
            s_times[k] = static_cast<std::uint32_t>(t1 - t0);
        }
        for (std::uint32_t k = 0; k < measure_count; ++k)
            times[k] = s_times[k];
        sink[0] = j;
    }
}

// Hong & Kim 2009 sec. 5.1 departure delay: all warps of one block issue one load each
// (coalesced: one 128-byte line per warp; uncoalesced: one line per thread) to lines never
// touched before, at once; the time from the first issue to the last completion is
// Mem_LD + (warps - 1) * delay per warp.
template <bool Coalesced>
__global__ void departure(const std::uint32_t* __restrict__ buffer, std::size_t first_element,
                          unsigned long long* __restrict__ span_cycles,
                          std::uint32_t* __restrict__ sink) {
    __shared__ unsigned long long s_first;
    __shared__ unsigned long long s_last;
    __shared__ std::uint32_t s_sink;
    if (threadIdx.x == 0) {
        s_first = ~0ull;
        s_last = 0;
    }
    __syncthreads();
    const std::size_t thread = threadIdx.x;
    const std::size_t element =
        first_element + (Coalesced ? thread : thread * 32); // 32 elements = one 128 B line
    const auto sink_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&s_sink));
    const long long t0 = clock_fenced();
    std::uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buffer + element) : "memory");
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(sink_address), "r"(v) : "memory");
    const long long t1 = clock_fenced();
    atomicMin(&s_first, static_cast<unsigned long long>(t0));
    atomicMax(&s_last, static_cast<unsigned long long>(t1));
    __syncthreads();
    if (threadIdx.x == 0) {
        span_cycles[0] = s_last - s_first;
        sink[0] = s_sink;
    }
}

// Clock calibration: spin for `cycles` SM cycles; the host times the launch with events.
__global__ void spin(long long cycles, unsigned long long* __restrict__ elapsed) {
    const long long t0 = clock_fenced();
    long long t = t0;
    while (t - t0 < cycles)
        t = clock_fenced();
    elapsed[0] = static_cast<unsigned long long>(t - t0);
}

// Block launch rate: a block that does nothing. The store's condition never holds (the host
// passes never = 0), but the compiler cannot know, so the launch and its blocks stay.
__global__ void empty_block(unsigned never, unsigned* __restrict__ sink) {
    if (never != 0 && threadIdx.x == never)
        sink[0] = blockIdx.x;
}

// Chains built on the device (chain_layout.hpp, checked on the host by walking every chain).
// Sequential: multiplier 1, element k*stride -> (k+1)*stride (mod count). Random: position
// p_k = (k * multiplier) mod count visits every position once when gcd(multiplier, count) = 1;
// p_k -> p_{k+1} is a pseudo-random cycle, built in parallel.
__global__ void build_chain(std::uint32_t* __restrict__ buffer, std::uint32_t first_element,
                            std::uint32_t count, std::uint32_t stride_elements,
                            std::uint64_t multiplier) {
    const std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (k >= count)
        return;
    const chain::ChainLink link =
        chain::chain_link(first_element, count, stride_elements, multiplier, k);
    buffer[link.element] = static_cast<std::uint32_t>(link.next);
}

// ---- TLB reach (docs/probe.md, "TLB") ----------------------------------------------------

// The TLB chain: one 8-byte pointer per stride slot of the TLB allocation (element k ->
// k + 1, the last -> 0), so a chase loads once per candidate page.
__global__ void build_tlb_chain(unsigned char* __restrict__ base, std::uint64_t count,
                                std::uint64_t stride_bytes) {
    const std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
    if (k >= count)
        return;
    auto* element =
        reinterpret_cast<std::uint64_t*>(base + chain::tlb_element_offset(k, stride_bytes));
    *element =
        reinterpret_cast<std::uint64_t>(base + chain::tlb_next_offset(k, count, stride_bytes));
}

// All footprints of one stride in one launch, one after another (one thread: the L2 TLB is
// shared, so footprints cannot run side by side on several SMs). Footprint f cuts the chain
// after counts[f] elements (chain::tlb_cut_offset): a warm round walks the footprint once,
// then measure_count loads are timed one by one with ld.global.cg (the data is L2-resident;
// only the translation misses). times: footprints x measure_count.
__global__ void tlb_chase(const unsigned char* __restrict__ base,
                          const std::uint64_t* __restrict__ counts, std::uint32_t footprints,
                          std::uint64_t built_count, std::uint64_t stride_bytes,
                          std::uint32_t measure_count, std::uint32_t* __restrict__ times,
                          std::uint64_t* __restrict__ sink, BlockClock* __restrict__ clock) {
    extern __shared__ std::uint32_t s_times[];
    __shared__ std::uint64_t s_sink;
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    const auto sink_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(&s_sink));
    const auto origin = reinterpret_cast<std::uint64_t>(base);
    const long long c0 = clock_fenced();
    const unsigned long long g0 = globaltimer_ns();
    std::uint64_t offset = 0;
    for (std::uint32_t f = 0; f < footprints; ++f) {
        const std::uint64_t cut = chain::tlb_cut_offset(counts[f], built_count, stride_bytes);
        offset = 0;
        for (std::uint64_t k = 0; k < counts[f]; ++k) {
            std::uint64_t next;
            asm volatile("ld.global.cg.u64 %0, [%1];"
                         : "=l"(next)
                         : "l"(origin + offset)
                         : "memory");
            offset = chain::tlb_cut_step(next - origin, cut);
        }
        for (std::uint32_t k = 0; k < measure_count; ++k) {
            const long long t0 = clock_fenced();
            std::uint64_t next;
            asm volatile("ld.global.cg.u64 %0, [%1];"
                         : "=l"(next)
                         : "l"(origin + offset)
                         : "memory");
            asm volatile("st.shared.u64 [%0], %1;" ::"r"(sink_address), "l"(next) : "memory");
            const long long t1 = clock_fenced();
            offset = chain::tlb_cut_step(next - origin, cut);
            s_times[k] = static_cast<std::uint32_t>(t1 - t0);
        }
        for (std::uint32_t k = 0; k < measure_count; ++k)
            times[static_cast<std::size_t>(f) * measure_count + k] = s_times[k];
    }
    const long long c1 = clock_fenced();
    const unsigned long long g1 = globaltimer_ns();
    sink[0] = offset;
    clock[0] = {static_cast<unsigned long long>(c1 - c0), g1 - g0, sm_id()};
}

} // namespace kerncast::probe::device
