// IEEE 754 binary16 ("half", CUDA's __half, kerncast's f16) on the host, and on the device
// where the same definition must give the same bits: conversion from double and float with
// round-to-nearest-even, and back. Integer arithmetic on the bit patterns only, so the result
// does not depend on the compiler, the FPU's rounding mode or flush-to-zero.
//
// binary16: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits (IEEE 754-2019, 3.6).
// Normal numbers (1 + f/1024) * 2^(e-15) for e = 1..30, subnormals f * 2^-24, e = 31 is
// infinity (f = 0) or NaN. Largest finite value 65504, smallest normal 2^-14, smallest
// subnormal 2^-24.
#pragma once

#include "kerncast/host_device.hpp"

#include <cstdint>
#include <cstring>

namespace kerncast::runtime {

inline constexpr std::uint16_t half_positive_infinity_bits = 0x7c00;
inline constexpr std::uint16_t half_quiet_nan_bits = 0x7e00;
inline constexpr double half_max_finite = 65504.0;

// `value` rounded to the nearest binary16, ties to the even fraction (IEEE 754-2019, 4.3.1
// roundTiesToEven). Magnitudes from 65520 (halfway between 65504 and 2^16) up round to
// infinity, as IEEE rounding prescribes; magnitudes up to 2^-25 round to (signed) zero; NaN
// gives a quiet NaN of the same sign.
KERNCAST_HOST_DEVICE inline std::uint16_t half_bits_from_double(double value) {
    std::uint64_t bits = 0;
    memcpy(&bits, &value, sizeof bits);
    const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
    const int biased_exponent = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    if (biased_exponent == 0x7ff) // infinity or NaN
        return static_cast<std::uint16_t>(
            sign | (fraction != 0 ? half_quiet_nan_bits : half_positive_infinity_bits));
    if (biased_exponent == 0) // zero or a double subnormal (< 2^-1022): rounds to zero
        return sign;
    const int exponent = biased_exponent - 1023; // value = significand * 2^(exponent - 52)
    if (exponent > 15)                           // >= 2^16: beyond rounding distance of 65504
        return static_cast<std::uint16_t>(sign | half_positive_infinity_bits);
    const std::uint64_t significand = fraction | (std::uint64_t{1} << 52); // 53 bits
    // Keep the bits of the result's last place and round the rest away. A normal result keeps
    // the exponent field and 10 fraction bits; a subnormal one counts units of 2^-24.
    std::uint64_t kept = 0;
    int dropped_bits = 0;
    if (exponent >= -14) {
        dropped_bits = 42;
        kept = (static_cast<std::uint64_t>(exponent + 15) << 10) |
               ((significand >> dropped_bits) & 0x3ffu);
    } else {
        dropped_bits = 28 - exponent; // significand * 2^(exponent - 52) / 2^-24
        if (dropped_bits > 53)        // below 2^-25: rounds to zero
            return sign;
        kept = significand >> dropped_bits;
    }
    const std::uint64_t rest = significand & ((std::uint64_t{1} << dropped_bits) - 1);
    const std::uint64_t halfway = std::uint64_t{1} << (dropped_bits - 1);
    if (rest > halfway || (rest == halfway && (kept & 1u) != 0))
        ++kept; // may carry into the exponent: 0x3ff -> 0x400 (normal), 0x7bff -> 0x7c00 (inf)
    return static_cast<std::uint16_t>(sign | kept);
}

// Exact float -> double first, so the result is the float rounded once to binary16.
KERNCAST_HOST_DEVICE inline std::uint16_t half_bits_from_float(float value) {
    return half_bits_from_double(static_cast<double>(value));
}

// The value of a binary16 bit pattern (exact: every binary16 is a double). NaN payloads are
// kept in the top fraction bits.
KERNCAST_HOST_DEVICE inline double double_from_half_bits(std::uint16_t half) {
    const std::uint64_t sign = static_cast<std::uint64_t>(half & 0x8000u) << 48;
    const int exponent = (half >> 10) & 0x1f;
    const std::uint64_t fraction = half & 0x3ffu;
    std::uint64_t bits = 0;
    if (exponent == 0) {
        const double magnitude = static_cast<double>(fraction) * (1.0 / 16777216.0); // f * 2^-24
        memcpy(&bits, &magnitude, sizeof bits);
        bits |= sign;
    } else if (exponent == 0x1f) {
        bits = sign | (std::uint64_t{0x7ff} << 52) | (fraction << 42);
    } else {
        bits = sign | (static_cast<std::uint64_t>(exponent - 15 + 1023) << 52) | (fraction << 42);
    }
    double value = 0;
    memcpy(&value, &bits, sizeof value);
    return value;
}

// `value` as the nearest binary16 would hold it (what storing it in an f16 element does).
KERNCAST_HOST_DEVICE inline double round_to_half(double value) {
    return double_from_half_bits(half_bits_from_double(value));
}

} // namespace kerncast::runtime
