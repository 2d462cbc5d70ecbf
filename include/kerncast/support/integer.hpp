// Integer helpers shared by every area: division rounding toward negative infinity and its
// remainder, and rounding up, for the signed index arithmetic of kernels (C's `/` and `%` round
// toward zero, the kernel language's floor and mod do not); one divisor's remainders by
// multiplication.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>

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

// floor(a / divisor) for one divisor > 0 and many a: an arithmetic shift when the divisor is a
// power of two (sector, line and bank sizes; C++20 defines >> of a negative value as floor
// division by the power), floor_div otherwise. Hot loops of the L1 models divide every lane's
// address this way.
class FloorDivider {
public:
    explicit constexpr FloorDivider(std::int64_t divisor)
        : divisor_(divisor),
          shift_(divisor > 0 && std::has_single_bit(static_cast<std::uint64_t>(divisor))
                     ? std::countr_zero(static_cast<std::uint64_t>(divisor))
                     : -1) {}
    constexpr std::int64_t operator()(std::int64_t a) const {
        return shift_ >= 0 ? a >> shift_ : floor_div(a, divisor_);
    }
    constexpr std::int64_t divisor() const { return divisor_; }

private:
    std::int64_t divisor_;
    int shift_;
};

// a % divisor for one divisor > 0 and many unsigned 64-bit a, by multiplications instead of a
// division (the simulated L1 places every line in a set this way): with the 128-bit inverse
// c = ceil(2^128 / divisor), a % divisor is the high 64 bits of ((c * a) mod 2^128) * divisor,
// exact for every 64-bit a and divisor (Lemire, Kaser & Kurz, "Faster remainder by direct
// computation", Software: Practice and Experience 49(6), 2019, theorem 1 with F = 128). For
// the divisor 1, c is taken as 0, and so is every remainder.
class Remainder {
public:
    explicit constexpr Remainder(std::uint64_t divisor)
        : divisor_(divisor), inverse_(divisor > 1 ? ~Wide{0} / divisor + 1 : 0) {}
    constexpr std::uint64_t operator()(std::uint64_t a) const {
        const Wide fraction = inverse_ * a; // mod 2^128
        const Wide low = Wide{static_cast<std::uint64_t>(fraction)} * divisor_;
        const Wide high = (fraction >> 64) * divisor_;
        return static_cast<std::uint64_t>((high + (low >> 64)) >> 64);
    }
    constexpr std::uint64_t divisor() const { return divisor_; }

private:
    __extension__ using Wide = unsigned __int128;
    std::uint64_t divisor_;
    Wide inverse_;
};

} // namespace kerncast::support
