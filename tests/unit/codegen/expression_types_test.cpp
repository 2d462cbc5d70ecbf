// Static types of kernel-language expressions (C's usual arithmetic conversions, literals taking
// the other operand's type) and the row-major flattening of subscripts.
#include "../../../src/codegen/expr_build.hpp"
#include "../../../src/codegen/expression_types.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::detail;
using kernel::DataType;

namespace {

ValueType typed(DataType type) {
    ValueType t;
    t.dtype = type;
    return t;
}

ValueType literal(bool real) {
    ValueType t;
    t.literal = true;
    t.real = real;
    return t;
}

Schedule typed_schedule() {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: types
params: {n: 4}
arrays:
  h: {dtype: f16, shape: [n]}
  f: {dtype: f32, shape: [n]}
  d: {dtype: f64, shape: [n]}
  u8: {dtype: u8, shape: [n]}
  i64: {dtype: i64, shape: [n]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
statements: ["d[i] = f[i] + h[i] + u8[i] + i64[i]"]
)yaml",
                                                              "types.yaml");
    return lower_kernel(spec, spec.launch);
}

kernel::ExprPtr expr(const std::string& text) {
    return kernel::parse_expression(text);
}

} // namespace

TEST(ExpressionTypes, PromoteFollowsTheUsualArithmeticConversions) {
    EXPECT_EQ(promote(typed(DataType::f32), typed(DataType::i32)).dtype, DataType::f32);
    EXPECT_EQ(promote(typed(DataType::f32), typed(DataType::f64)).dtype, DataType::f64);
    EXPECT_EQ(promote(typed(DataType::u8), typed(DataType::i16)).dtype, DataType::i32);
    EXPECT_EQ(promote(typed(DataType::i32), typed(DataType::u32)).dtype, DataType::u32);
    EXPECT_EQ(promote(typed(DataType::i64), typed(DataType::u32)).dtype, DataType::i64);
}

TEST(ExpressionTypes, LiteralsTakeTheOtherOperandsType) {
    EXPECT_EQ(promote(literal(false), typed(DataType::u8)).dtype, DataType::u8);
    EXPECT_EQ(promote(literal(true), typed(DataType::f32)).dtype, DataType::f32);
    // An integer meeting a real literal becomes f64.
    EXPECT_EQ(promote(typed(DataType::i32), literal(true)).dtype, DataType::f64);
    const ValueType both = promote(literal(false), literal(true));
    EXPECT_TRUE(both.literal);
    EXPECT_TRUE(both.real);
    EXPECT_FALSE(both.is_integer());
}

TEST(ExpressionTypes, TypeOfReadsTheArraysAndTheOperators) {
    const Schedule s = typed_schedule();
    EXPECT_EQ(type_of(s, *expr("h[i]")).dtype, DataType::f32); // f16 reads as float
    EXPECT_EQ(type_of(s, *expr("f[i] * d[i]")).dtype, DataType::f64);
    EXPECT_EQ(type_of(s, *expr("u8[i] + u8[i]")).dtype, DataType::i32);
    EXPECT_EQ(type_of(s, *expr("i64[i] + 1")).dtype, DataType::i64);
    EXPECT_EQ(type_of(s, *expr("f[i] < d[i]")).dtype, DataType::i32); // comparisons are int
    EXPECT_EQ(type_of(s, *expr("i")).dtype, DataType::i32);           // an index
    EXPECT_EQ(type_of(s, *expr("sqrt(i)")).dtype, DataType::f64);     // math on integers
    EXPECT_EQ(type_of(s, *expr("max(u8[i], i64[i])")).dtype, DataType::i64);
    EXPECT_EQ(type_of(s, *expr("i > 0 ? f[i] : d[i]")).dtype, DataType::f64);
    EXPECT_TRUE(type_of(s, *expr("2.5")).literal);
}

TEST(ExpressionTypes, FlatIndexIsOffsetPlusRowMajor) {
    ArrayStorage array;
    array.extents = {3, 5, 7};
    array.offset = 4;
    const kernel::ExprPtr flat =
        flat_index(array, {make_variable("z"), make_variable("y"), make_variable("x")});
    EXPECT_EQ(kernel::to_string(*flat), "4 + ((z * 5 + y) * 7 + x)");
    // Constant subscripts fold to one number: 4 + (1*5 + 2)*7 + 3.
    EXPECT_EQ(
        kernel::to_string(*flat_index(array, {make_integer(1), make_integer(2), make_integer(3)})),
        "56");
}

TEST(ExpressionTypes, LeadingZeroSubscriptsAddNothing) {
    ArrayStorage array;
    array.extents = {1, 5, 7};
    const kernel::ExprPtr flat =
        flat_index(array, {make_integer(0), make_variable("y"), make_variable("x")});
    EXPECT_EQ(kernel::to_string(*flat), "y * 7 + x");
    EXPECT_EQ(kernel::to_string(*flat_index(ArrayStorage{}, {})), "0"); // a scalar
}
