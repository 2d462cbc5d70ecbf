// Buffer element types and initialisations of `kerncast run`: names, sizes, round trips.
#include "kerncast/runtime/dtype.hpp"

#include <gtest/gtest.h>

using namespace kerncast::runtime;

TEST(DType, NamesRoundTripAndSizesAreTheCTypes) {
    const std::pair<DType, std::size_t> expected[] = {
        {DType::f16, 2}, {DType::f32, 4}, {DType::f64, 8}, {DType::i32, 4},
        {DType::i64, 8}, {DType::u32, 4}, {DType::u64, 8}};
    for (const auto& [dtype, bytes] : expected) {
        EXPECT_EQ(parse_dtype(to_string(dtype)), dtype) << to_string(dtype);
        EXPECT_EQ(size_bytes(dtype), bytes) << to_string(dtype);
    }
    EXPECT_EQ(size_bytes(DType::f32), sizeof(float));
    EXPECT_EQ(size_bytes(DType::f64), sizeof(double));
}

TEST(DType, UnknownNamesAreRejected) {
    EXPECT_FALSE(parse_dtype("float32"));
    EXPECT_FALSE(parse_dtype(""));
    EXPECT_FALSE(parse_dtype("F32"));
}

TEST(DType, ListNamesEveryTypeInOrder) {
    EXPECT_EQ(dtype_list(), "f16, f32, f64, i32, i64, u32, u64");
}

TEST(BufferInit, NamesRoundTrip) {
    EXPECT_EQ(parse_buffer_init("hash"), BufferInit::hash);
    EXPECT_EQ(parse_buffer_init("zero"), BufferInit::zero);
    EXPECT_FALSE(parse_buffer_init("random"));
    EXPECT_STREQ(to_string(BufferInit::hash), "hash");
    EXPECT_STREQ(to_string(BufferInit::zero), "zero");
}
