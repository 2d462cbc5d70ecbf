// binary16 conversion (half.hpp): exhaustive over all 65536 bit patterns and every midpoint
// between adjacent values, the subnormal and overflow boundaries, and two independent oracles
// (nearest value in the sorted table of all halves; the compiler's _Float16 where it has one).
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/half.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace kerncast::runtime {
namespace {

bool is_nan_bits(std::uint16_t bits) {
    return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0;
}

float float_from_bits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

TEST(Half, KnownValues) {
    EXPECT_EQ(half_bits_from_double(0.0), 0x0000);
    EXPECT_EQ(half_bits_from_double(-0.0), 0x8000);
    EXPECT_EQ(half_bits_from_double(1.0), 0x3c00);
    EXPECT_EQ(half_bits_from_double(-2.0), 0xc000);
    EXPECT_EQ(half_bits_from_double(0.5), 0x3800);
    EXPECT_EQ(half_bits_from_double(0.1), 0x2e66);       // 0.0999755859375
    EXPECT_EQ(half_bits_from_double(1.0 / 3.0), 0x3555); // 0.333251953125
    EXPECT_EQ(half_bits_from_double(65504.0), 0x7bff);
    EXPECT_EQ(half_bits_from_double(std::ldexp(1.0, -14)), 0x0400); // smallest normal
    EXPECT_EQ(half_bits_from_double(std::ldexp(1.0, -24)), 0x0001); // smallest subnormal
    EXPECT_EQ(half_bits_from_double(std::ldexp(1023.0, -24)), 0x03ff);
    EXPECT_EQ(half_bits_from_double(std::numeric_limits<double>::infinity()), 0x7c00);
    EXPECT_EQ(half_bits_from_double(-std::numeric_limits<double>::infinity()), 0xfc00);
    EXPECT_TRUE(is_nan_bits(half_bits_from_double(std::numeric_limits<double>::quiet_NaN())));
    EXPECT_EQ(half_bits_from_double(-std::numeric_limits<double>::quiet_NaN()) & 0x8000, 0x8000);
    EXPECT_EQ(double_from_half_bits(0x3c00), 1.0);
    EXPECT_EQ(double_from_half_bits(0x7bff), 65504.0);
    EXPECT_EQ(double_from_half_bits(0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(double_from_half_bits(0xfc00), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::signbit(double_from_half_bits(0x8000)));
    EXPECT_TRUE(std::isnan(double_from_half_bits(0x7e00)));
    EXPECT_EQ(round_to_half(0.1), 0.0999755859375);
}

TEST(Half, EveryBitPatternRoundTrips) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const double value = double_from_half_bits(bits);
        if (is_nan_bits(bits)) {
            ASSERT_TRUE(std::isnan(value)) << b;
            ASSERT_TRUE(is_nan_bits(half_bits_from_double(value))) << b;
            ASSERT_EQ(half_bits_from_double(value) & 0x8000, bits & 0x8000) << b;
            continue;
        }
        ASSERT_EQ(half_bits_from_double(value), bits) << b;
        ASSERT_EQ(half_bits_from_float(static_cast<float>(value)), bits) << b;
        ASSERT_EQ(static_cast<double>(static_cast<float>(value)), value) << b; // exact in float
    }
    // The finite values are ordered like their bit patterns (sign apart).
    for (std::uint16_t b = 0; b < 0x7c00; ++b)
        ASSERT_LT(double_from_half_bits(b),
                  double_from_half_bits(static_cast<std::uint16_t>(b + 1)));
}

TEST(Half, EveryMidpointRoundsToEven) {
    for (std::uint16_t b = 0; b < 0x7bff; ++b) {
        const auto next = static_cast<std::uint16_t>(b + 1);
        const double low = double_from_half_bits(b), high = double_from_half_bits(next);
        const double middle = (low + high) / 2; // exact: 12 significant bits at most
        const std::uint16_t even = (b & 1u) == 0 ? b : next;
        for (const std::uint16_t sign : {std::uint16_t{0}, std::uint16_t{0x8000}}) {
            const double s = sign ? -1.0 : 1.0;
            ASSERT_EQ(half_bits_from_double(s * middle), even | sign) << b;
            ASSERT_EQ(half_bits_from_double(s * std::nextafter(middle, 0.0)), b | sign) << b;
            ASSERT_EQ(half_bits_from_double(s * std::nextafter(middle, 1e9)), next | sign) << b;
            // The midpoint is a float too; the float path rounds the same way.
            const float middle_f = static_cast<float>(s * middle);
            ASSERT_EQ(static_cast<double>(middle_f), s * middle);
            ASSERT_EQ(half_bits_from_float(middle_f), even | sign) << b;
            ASSERT_EQ(half_bits_from_float(std::nextafter(middle_f, 0.0f)), b | sign) << b;
            ASSERT_EQ(half_bits_from_float(std::nextafter(middle_f, static_cast<float>(s) * 1e9f)),
                      next | sign)
                << b;
        }
    }
}

TEST(Half, OverflowAndUnderflowBoundaries) {
    // Overflow: halfway between 65504 and 2^16 (the next value the exponent would give) rounds
    // to even, which is infinity (0x7c00); just below stays 65504.
    EXPECT_EQ(half_bits_from_double(65520.0), 0x7c00);
    EXPECT_EQ(half_bits_from_double(-65520.0), 0xfc00);
    EXPECT_EQ(half_bits_from_double(std::nextafter(65520.0, 0.0)), 0x7bff);
    EXPECT_EQ(half_bits_from_float(std::nextafter(65520.0f, 0.0f)), 0x7bff);
    EXPECT_EQ(half_bits_from_double(65536.0), 0x7c00);
    EXPECT_EQ(half_bits_from_double(1e300), 0x7c00);
    EXPECT_EQ(half_bits_from_double(std::numeric_limits<double>::max()), 0x7c00);
    EXPECT_EQ(half_bits_from_float(std::numeric_limits<float>::max()), 0x7c00);
    // Underflow: 2^-25 is halfway between 0 and the smallest subnormal: ties to even (zero).
    const double tiny = std::ldexp(1.0, -25);
    EXPECT_EQ(half_bits_from_double(tiny), 0x0000);
    EXPECT_EQ(half_bits_from_double(-tiny), 0x8000);
    EXPECT_EQ(half_bits_from_double(std::nextafter(tiny, 1.0)), 0x0001);
    EXPECT_EQ(half_bits_from_double(std::ldexp(3.0, -25)), 0x0002); // 1.5 units: to even 2
    EXPECT_EQ(half_bits_from_double(std::ldexp(1.0, -26)), 0x0000);
    EXPECT_EQ(half_bits_from_double(std::numeric_limits<double>::denorm_min()), 0x0000);
    EXPECT_EQ(half_bits_from_double(-std::numeric_limits<double>::denorm_min()), 0x8000);
    EXPECT_EQ(half_bits_from_float(std::numeric_limits<float>::denorm_min()), 0x0000);
    // Largest subnormal to smallest normal: 1023.5 units rounds to even, 0x0400.
    EXPECT_EQ(half_bits_from_double(std::ldexp(1023.5, -24)), 0x0400);
    EXPECT_EQ(half_bits_from_double(std::nextafter(std::ldexp(1023.5, -24), 0.0)), 0x03ff);
}

// Oracle: the nearest of all finite halves by value (ties to the even pattern), found by
// binary search in the table of their values, not by manipulating bits.
std::uint16_t nearest_half_by_search(double value, const std::vector<double>& positive_values) {
    const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double magnitude = std::fabs(value);
    if (magnitude >= 65520.0)
        return sign | 0x7c00;
    const auto upper = std::lower_bound(positive_values.begin(), positive_values.end(), magnitude);
    if (upper == positive_values.end()) // between 65504 and the overflow threshold
        return sign | 0x7bff;
    const auto high = static_cast<std::uint16_t>(upper - positive_values.begin());
    if (*upper == magnitude || high == 0)
        return sign | high;
    const auto low = static_cast<std::uint16_t>(high - 1);
    const double below = magnitude - positive_values[low], above = *upper - magnitude;
    if (below < above)
        return sign | low;
    if (above < below)
        return sign | high;
    return sign | ((low & 1u) == 0 ? low : high);
}

TEST(Half, FloatsAgreeWithNearestValueSearch) {
    std::vector<double> positive_values;
    for (std::uint16_t b = 0; b <= 0x7bff; ++b)
        positive_values.push_back(double_from_half_bits(b));
    // Every float whose magnitude lies in the range where rounding decides (2^-26 .. 2^17),
    // with a prime stride, plus every 1009th pattern overall.
    std::uint64_t checked = 0;
    for (std::uint64_t pattern = 0; pattern < (std::uint64_t{1} << 32); pattern += 1009) {
        const float value = float_from_bits(static_cast<std::uint32_t>(pattern));
        if (std::isnan(value))
            continue;
        ASSERT_EQ(half_bits_from_float(value), nearest_half_by_search(value, positive_values))
            << value;
        ++checked;
    }
    for (std::uint32_t pattern = 101u << 23; pattern < (145u << 23); pattern += 7) {
        const float value = float_from_bits(pattern);
        ASSERT_EQ(half_bits_from_float(value), nearest_half_by_search(value, positive_values))
            << value;
        ++checked;
    }
    EXPECT_GT(checked, 50'000'000u);
}

#if defined(__FLT16_MAX__)
// GCC and Clang's _Float16 conversions (libgcc's soft-float, round to nearest even).
TEST(Half, AgreesWithTheCompilersFloat16) {
    const auto bits_of = [](_Float16 h) {
        std::uint16_t bits;
        std::memcpy(&bits, &h, sizeof bits);
        return bits;
    };
    for (std::uint64_t pattern = 0; pattern < (std::uint64_t{1} << 32); pattern += 251) {
        const float value = float_from_bits(static_cast<std::uint32_t>(pattern));
        if (std::isnan(value))
            continue;
        ASSERT_EQ(half_bits_from_float(value), bits_of(static_cast<_Float16>(value))) << value;
    }
    // Doubles with bits below float precision: rounding once (double -> half) differs from
    // rounding twice (double -> float -> half) exactly here.
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 2'000'000; ++i) {
        state = element_hash(state, static_cast<std::uint64_t>(i));
        const double value = std::ldexp(static_cast<double>(state >> 11), -53) * 131072.0 *
                             (i % 2 ? 1 : -1) * std::ldexp(1.0, -(i % 40));
        ASSERT_EQ(half_bits_from_double(value), bits_of(static_cast<_Float16>(value))) << value;
    }
}
#endif

TEST(Half, DoubleRoundsOnceNotViaFloat) {
    // 1 + 2^-11 + 2^-40: just above the midpoint between 1 and 1 + 2^-10. Via float the 2^-40
    // is lost, the midpoint ties to even (1.0); rounded once it goes up.
    const double value = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(half_bits_from_double(value), 0x3c01);
    EXPECT_EQ(half_bits_from_float(static_cast<float>(value)), 0x3c00);
}

TEST(Half, InitialF16IsTheF32ValueRounded) {
    const std::uint64_t seed = buffer_seed("h");
    int zeros = 0;
    for (std::uint64_t i = 0; i < 200000; ++i) {
        const double exact = initial_f32(seed, i);
        const double rounded = double_from_half_bits(initial_f16_bits(seed, i));
        ASSERT_GE(rounded, -1.0);
        ASSERT_LE(rounded, 1.0); // values just below 1 round up to 1.0
        // Half an ulp: 2^-11 relative for normals, 2^-25 absolute in the subnormal range.
        ASSERT_LE(std::fabs(rounded - exact),
                  std::max(std::fabs(exact) * std::ldexp(1.0, -11), std::ldexp(1.0, -25)))
            << i;
        zeros += rounded == 0;
    }
    EXPECT_LT(zeros, 5); // |x| <= 2^-25 has probability 2^-25 per element
}

} // namespace
} // namespace kerncast::runtime
