// splitmix64 (Steele, Lea & Flood 2014): the host side's one fixed-seed generator and integer
// hash. (runtime/deterministic_init.hpp keeps a host/device copy for buffer contents.)
#pragma once

#include <cstdint>

namespace kerncast::support {

// splitmix64's output function of state `z` after its increment: a well-mixed 64-bit hash.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// The generator: each next() advances the state by the golden-ratio increment and mixes it.
struct SplitMix64 {
    std::uint64_t state = 0;
    constexpr std::uint64_t next() { return splitmix64_mix(state += 0x9e3779b97f4a7c15ull); }
};

// A hash of one value: the generator's first output from state `z`.
constexpr std::uint64_t splitmix64_hash(std::uint64_t z) {
    return splitmix64_mix(z + 0x9e3779b97f4a7c15ull);
}

} // namespace kerncast::support
