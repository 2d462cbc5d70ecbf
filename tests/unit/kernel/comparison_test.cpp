#include "kerncast/kernel/comparison.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <limits>

namespace kerncast::kernel {
namespace {

// Every comparison against the built-in operator, on integers at the 64-bit extremes and on
// reals (a NaN compares false except with !=, as in C).
TEST(Comparison, EachOperatorIsCsOnIntegersAndReals) {
    const std::int64_t low = std::numeric_limits<std::int64_t>::min();
    const std::int64_t high = std::numeric_limits<std::int64_t>::max();
    for (const auto& [a, b] : {std::pair{low, high}, std::pair{high, high}, std::pair{high, low}}) {
        EXPECT_EQ(compare(BinaryOp::less, a, b), a < b);
        EXPECT_EQ(compare(BinaryOp::less_equal, a, b), a <= b);
        EXPECT_EQ(compare(BinaryOp::greater, a, b), a > b);
        EXPECT_EQ(compare(BinaryOp::greater_equal, a, b), a >= b);
        EXPECT_EQ(compare(BinaryOp::equal, a, b), a == b);
        EXPECT_EQ(compare(BinaryOp::not_equal, a, b), a != b);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(compare(BinaryOp::less, nan, 1.0));
    EXPECT_FALSE(compare(BinaryOp::equal, nan, nan));
    EXPECT_TRUE(compare(BinaryOp::not_equal, nan, nan));
    EXPECT_TRUE(compare(BinaryOp::greater_equal, 2.5, 2.5));
}

TEST(Comparison, AnArithmeticOperatorIsAnInternalError) {
    try {
        (void)compare(BinaryOp::add, 1, 2);
        FAIL() << "compare(+) returned";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::internal);
    }
}

} // namespace
} // namespace kerncast::kernel
