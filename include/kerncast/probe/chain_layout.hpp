// The index arithmetic of the probe's device code, shared by the CUDA kernels (cuda/probe/)
// and the host: pointer chains (random via a multiplier coprime to the count, strided,
// page-strided for the TLB), the per-block regions of batched launches, and the bytes the
// bandwidth kernels move. Compiled by nvcc for the device and by the host compiler for the
// runner and the unit tests, which walk every chain on the host and check that it is one
// cycle over exactly the intended elements (tests/unit/probe/chain_layout_test.cpp).
// Header-only and free of the standard library beyond <cstdint>: device code can use it.
#pragma once

#include "kerncast/host_device.hpp"

#include <cstdint>

namespace kerncast::probe::chain {

// ---- pointer chains over 4-byte elements (size, line, latency chases) --------------------

// Greatest common divisor (Euclid), usable on the device.
KERNCAST_HOST_DEVICE constexpr std::uint64_t gcd(std::uint64_t a, std::uint64_t b) {
    while (b != 0) {
        const std::uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

// A multiplier coprime to count, near count * 0.618 (the golden ratio spreads consecutive
// chain positions across the array). 1 for count <= 2, where every order is sequential.
KERNCAST_HOST_DEVICE constexpr std::uint64_t coprime_multiplier(std::uint64_t count) {
    if (count <= 2)
        return 1;
    // count * 0.6180339887, in integers: 2654435769 / 2^32 = 0.6180339887.
    std::uint64_t m = ((count * 2654435769ull) >> 32) | 1u;
    while (gcd(m, count) != 1)
        m += 2;
    return m % count == 0 ? 1 : m % count;
}

// Position of the k-th element of a chain in its array: p_k = k * multiplier mod count.
// With gcd(multiplier, count) = 1 this is a permutation of 0 .. count-1, so the links
// p_k -> p_{k+1} (k = 0 .. count-1, p_count = p_0) form one cycle through every position.
// multiplier 1 is the sequential chain. (count * multiplier must fit 64 bits: count < 2^32.)
KERNCAST_HOST_DEVICE constexpr std::uint64_t chain_position(std::uint64_t k, std::uint64_t count,
                                                            std::uint64_t multiplier) {
    return (k % count) * (multiplier % count) % count;
}

// One link of the chain that build_chain writes: the element at chain position k (absolute
// element index into the probe's buffer) and the element it points to.
struct ChainLink {
    std::uint64_t element = 0;
    std::uint64_t next = 0;
};

// Chain of count elements, stride_elements apart, starting at first_element.
KERNCAST_HOST_DEVICE constexpr ChainLink chain_link(std::uint64_t first_element,
                                                    std::uint64_t count,
                                                    std::uint64_t stride_elements,
                                                    std::uint64_t multiplier, std::uint64_t k) {
    return {first_element + chain_position(k, count, multiplier) * stride_elements,
            first_element + chain_position(k + 1, count, multiplier) * stride_elements};
}

// Elements of a chain over bytes with stride_bytes between elements (at least one).
KERNCAST_HOST_DEVICE constexpr std::uint64_t chain_count(std::int64_t bytes, int stride_bytes) {
    return bytes / stride_bytes > 0 ? static_cast<std::uint64_t>(bytes / stride_bytes) : 1u;
}

// ---- batched launches: block b chases its own size in its own region ---------------------

// First element (4-byte index) of block b's region; regions are region_bytes apart.
KERNCAST_HOST_DEVICE constexpr std::uint64_t
batch_region_first(std::uint64_t region_first, std::uint64_t block, std::int64_t region_bytes) {
    return region_first + block * static_cast<std::uint64_t>(region_bytes / 4);
}

// ---- TLB chains: one 8-byte pointer per stride slot ---------------------------------------

// A TLB chase loads once per stride_bytes (a candidate page size). Element k lives in the
// k-th stride slot [k * stride, (k + 1) * stride) of the allocation, shifted by a skew of
// (k mod 32) * 128 bytes so that consecutive elements fall into different cache sets and L2
// slices (the data must stay cache-resident: only the translation may miss). Offsets are
// bytes from the start of the TLB allocation and 8-byte aligned (the chain holds pointers).
inline constexpr std::uint64_t tlb_skew_period = 32;
inline constexpr std::uint64_t tlb_skew_bytes = 128;

KERNCAST_HOST_DEVICE constexpr std::uint64_t tlb_skew(std::uint64_t k, std::uint64_t stride_bytes) {
    const std::uint64_t skew = (k % tlb_skew_period) * tlb_skew_bytes;
    // Strides below the skew span get no skew (the element must stay in its slot).
    return stride_bytes >= tlb_skew_period * tlb_skew_bytes ? skew : 0;
}

KERNCAST_HOST_DEVICE constexpr std::uint64_t tlb_element_offset(std::uint64_t k,
                                                                std::uint64_t stride_bytes) {
    return k * stride_bytes + tlb_skew(k, stride_bytes);
}

// Bytes of allocation the TLB chain of count elements needs.
KERNCAST_HOST_DEVICE constexpr std::uint64_t tlb_chain_bytes(std::uint64_t count,
                                                             std::uint64_t stride_bytes) {
    return count == 0 ? 0 : tlb_element_offset(count - 1, stride_bytes) + 8;
}

// The TLB chain is built once over the largest footprint (element k -> k + 1, the last
// element -> element 0); a chase over a smaller footprint of `count` elements cuts it: a
// pointer equal to element `count`'s address is replaced by element 0's (the kernel compares
// with tlb_cut_offset). The chase then cycles through exactly elements 0 .. count-1.
KERNCAST_HOST_DEVICE constexpr std::uint64_t
tlb_next_offset(std::uint64_t k, std::uint64_t built_count, std::uint64_t stride_bytes) {
    return tlb_element_offset(k + 1 == built_count ? 0 : k + 1, stride_bytes);
}

KERNCAST_HOST_DEVICE constexpr std::uint64_t
tlb_cut_offset(std::uint64_t count, std::uint64_t built_count, std::uint64_t stride_bytes) {
    return tlb_element_offset(count == built_count ? 0 : count, stride_bytes);
}

// One chase step of a cut TLB chain, in offsets: what the kernel computes from a loaded
// pointer (next) with the cut applied.
KERNCAST_HOST_DEVICE constexpr std::uint64_t tlb_cut_step(std::uint64_t next_offset,
                                                          std::uint64_t cut_offset) {
    return next_offset == cut_offset ? 0 : next_offset;
}

// ---- bandwidth kernels: which 16-byte elements a thread touches ---------------------------

// Grid-stride loop (read_stream, write_stream): thread t of block b starts at
// b * block_threads + t and steps by grid_blocks * block_threads; every element below count
// is touched once per pass.
KERNCAST_HOST_DEVICE constexpr std::uint64_t
grid_stride_first(std::uint64_t block, std::uint64_t block_threads, std::uint64_t thread) {
    return block * block_threads + thread;
}
KERNCAST_HOST_DEVICE constexpr std::uint64_t grid_stride_step(std::uint64_t grid_blocks,
                                                              std::uint64_t block_threads) {
    return grid_blocks * block_threads;
}

// Block-stride loop over a block's own slice (read_slices, write_slices, read_shared,
// write_shared): thread t starts at t and steps by block_threads.
KERNCAST_HOST_DEVICE constexpr std::uint64_t slice_first(std::uint64_t block,
                                                         std::uint64_t slice_elements) {
    return block * slice_elements;
}

// Bytes a launch moves: 16-byte elements, each touched once per pass.
KERNCAST_HOST_DEVICE constexpr std::int64_t stream_bytes(std::int64_t elements, int passes) {
    return elements * 16 * passes;
}
// Slices (L1, shared): every block moves its own slice `passes` times.
KERNCAST_HOST_DEVICE constexpr std::int64_t slices_bytes(std::int64_t blocks,
                                                         std::int64_t slice_elements, int passes) {
    return blocks * stream_bytes(slice_elements, passes);
}

} // namespace kerncast::probe::chain
