// Integer helpers shared by every area: division rounding toward negative infinity and its
// remainder, and rounding up, for the signed index arithmetic of kernels (C's `/` and `%` round
// toward zero, the kernel language's floor and mod do not).
#pragma once

#include <concepts>

namespace kerncast::support {

// floor(a / b) for b != 0, for any signed integer type (std::int64_t, __int128).
template <class Int> constexpr Int floor_div(Int a, Int b) {
    const Int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// a - b * floor(a / b): the remainder with the sign of b, for b != 0.
template <class Int> constexpr Int floor_mod(Int a, Int b) {
    return a - b * floor_div(a, b);
}

// ceil(a / b) for a >= 0 and b > 0 (counts of tiles, waves, transactions).
template <class Int> constexpr Int ceil_div(Int a, Int b) {
    return (a + b - 1) / b;
}

} // namespace kerncast::support
