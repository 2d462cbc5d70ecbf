// Checked 64-bit integer arithmetic for counts, sizes and launch products: an overflow is a
// clear input error ("exceeds the 64-bit integer range"), never a silent wrap.
#pragma once

#include "kerncast/error.hpp"

#include <cstdint>
#include <string>

namespace kerncast {

// Input error naming what overflowed, e.g. "the point count".
[[noreturn]] inline void throw_overflow(const std::string& what) {
    throw_input_error(what + " exceeds the 64-bit integer range (over 9.2e18); the parameters "
                             "or launch sizes are too large");
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what) {
    std::int64_t result = 0;
    if (__builtin_add_overflow(a, b, &result))
        throw_overflow(what);
    return result;
}

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what) {
    std::int64_t result = 0;
    if (__builtin_mul_overflow(a, b, &result))
        throw_overflow(what);
    return result;
}

} // namespace kerncast
