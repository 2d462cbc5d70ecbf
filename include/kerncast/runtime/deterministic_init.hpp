// Deterministic buffer contents: element i of a buffer is a hash of (buffer seed, i), mapped
// per dtype. The same functions run on the device (initialisation kernels) and on the host
// (CPU references in tests), so results can be checked bit for bit.
#pragma once

#include "kerncast/host_device.hpp"
#include "kerncast/runtime/half.hpp"

#include <cstdint>
#include <string_view>

namespace kerncast::runtime {

// 32-bit FNV-1a of the buffer's name: buffers with different names get different contents,
// independent of their order on the command line.
constexpr std::uint64_t buffer_seed(std::string_view name) {
    std::uint32_t hash = 2166136261u;
    for (char c : name) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 16777619u;
    }
    return hash;
}

// splitmix64's finaliser (Steele, Lea & Flood 2014) over seed and index.
KERNCAST_HOST_DEVICE constexpr std::uint64_t element_hash(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = (seed << 32 ^ index) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Reals: uniform on [-1, 1) with all bits exactly representable (24 bits for f32, 53 for f64).
KERNCAST_HOST_DEVICE constexpr float initial_f32(std::uint64_t seed, std::uint64_t index) {
    return static_cast<float>(element_hash(seed, index) >> 40) * (2.0f / 16777216.0f) - 1.0f;
}
KERNCAST_HOST_DEVICE constexpr double initial_f64(std::uint64_t seed, std::uint64_t index) {
    return static_cast<double>(element_hash(seed, index) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
// f16: the f32 value rounded to binary16 (round to nearest even), as its bit pattern. Values
// within 2^-25 of zero become (signed) zero, the rest keep 11 significant bits.
KERNCAST_HOST_DEVICE inline std::uint16_t initial_f16_bits(std::uint64_t seed,
                                                           std::uint64_t index) {
    return half_bits_from_float(initial_f32(seed, index));
}
// Integers: 0..1023, small enough that sums and products of a few elements do not overflow
// and that they can serve as indices into small tables.
KERNCAST_HOST_DEVICE constexpr std::int64_t initial_integer(std::uint64_t seed,
                                                            std::uint64_t index) {
    return static_cast<std::int64_t>(element_hash(seed, index) % 1024);
}

} // namespace kerncast::runtime
