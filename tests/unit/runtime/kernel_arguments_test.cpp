#include "kerncast/error.hpp"
#include "kerncast/runtime/kernel_arguments.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace kerncast::runtime {
namespace {

TEST(KernelArguments, ParsesBufferSpecs) {
    EXPECT_EQ(parse_buffer_spec("x:f32:1048576"),
              (BufferSpec{"x", DType::f32, 1048576, BufferInit::hash}));
    EXPECT_EQ(parse_buffer_spec("out_2:u64:7:zero"),
              (BufferSpec{"out_2", DType::u64, 7, BufferInit::zero}));
    EXPECT_EQ(to_string(parse_buffer_spec("y:f64:1024")), "y:f64:1024:hash");
    EXPECT_EQ(parse_buffer_spec("h:f16:3"), (BufferSpec{"h", DType::f16, 3, BufferInit::hash}));
    EXPECT_EQ(size_bytes(DType::f16), 2u);
    EXPECT_EQ(dtype_list(), "f16, f32, f64, i32, i64, u32, u64");
}

TEST(KernelArguments, PatternInitialisationsRoundTrip) {
    const BufferSpec image = parse_buffer_spec("image:u32:1024:pattern=00010203");
    EXPECT_EQ(image.init, BufferInit::pattern);
    EXPECT_EQ(image.pattern, (std::vector<std::uint8_t>{0, 1, 2, 3}));
    EXPECT_EQ(to_string(image), "image:u32:1024:pattern=00010203");
    // Upper-case digits are read; the text is written in lower case.
    const BufferSpec w = parse_buffer_spec("w:f32:8:pattern=0000C03F");
    EXPECT_EQ(w.pattern, (std::vector<std::uint8_t>{0x00, 0x00, 0xc0, 0x3f})); // 1.5f
    EXPECT_EQ(init_text(w), "pattern=0000c03f");
    BufferSpec b{"b", DType::u32, 4, BufferInit::pattern, {7}};
    ASSERT_TRUE(parse_buffer_init_text("zero", b));
    EXPECT_EQ(b, (BufferSpec{"b", DType::u32, 4, BufferInit::zero}));
    for (const char* bad : {"pattern=", "pattern=0", "pattern=0g", "pattern 00", "patterns=00"})
        EXPECT_FALSE(parse_buffer_init_text(bad, b)) << bad;
    EXPECT_TRUE(parse_buffer_init_text("pattern=" + std::string(2 * max_pattern_bytes, 'a'), b));
    EXPECT_FALSE(
        parse_buffer_init_text("pattern=" + std::string(2 * max_pattern_bytes + 2, 'a'), b));
}

TEST(KernelArguments, RejectsBadBufferSpecs) {
    for (const char* bad :
         {"x", "x:f32", "x:f8:10", "x:f32:0", "x:f32:-3", "x:f32:ten", "1x:f32:10",
          "x:f32:10:random", "x:f32:10:zero:extra", "x:f32:10:pattern=abc"}) {
        try {
            parse_buffer_spec(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
            EXPECT_NE(e.message().find(bad), std::string::npos) << e.message();
        }
    }
}

TEST(KernelArguments, ParsesScalarsAndTheirBytes) {
    const ScalarArgument n = parse_scalar_argument("n:i32:-5");
    EXPECT_EQ(n.dtype, DType::i32);
    const auto n_bytes = scalar_bytes(n);
    ASSERT_EQ(n_bytes.size(), 4u);
    std::int32_t n_value = 0;
    std::memcpy(&n_value, n_bytes.data(), 4);
    EXPECT_EQ(n_value, -5);

    const auto a_bytes = scalar_bytes(parse_scalar_argument("a:f32:2.5"));
    ASSERT_EQ(a_bytes.size(), 4u);
    float a_value = 0;
    std::memcpy(&a_value, a_bytes.data(), 4);
    EXPECT_EQ(a_value, 2.5f);

    const auto big = parse_scalar_argument("big:u64:18446744073709551615");
    EXPECT_EQ(std::get<std::uint64_t>(big.value), 18446744073709551615ull);
    EXPECT_EQ(scalar_bytes(big).size(), 8u);
    EXPECT_EQ(to_string(parse_scalar_argument("a:f64:0.1")), "a:f64:0.10000000000000001");

    // f16 scalars travel as binary16 bits, rounded to nearest even.
    const auto half_bytes = [](const char* text) {
        const auto bytes = scalar_bytes(parse_scalar_argument(text));
        EXPECT_EQ(bytes.size(), 2u);
        std::uint16_t bits = 0;
        std::memcpy(&bits, bytes.data(), 2);
        return bits;
    };
    EXPECT_EQ(half_bytes("h:f16:1"), 0x3c00);
    EXPECT_EQ(half_bytes("h:f16:-2.5"), 0xc100);
    EXPECT_EQ(half_bytes("h:f16:0.1"), 0x2e66);
    EXPECT_EQ(half_bytes("h:f16:65504"), 0x7bff);
}

TEST(KernelArguments, RejectsBadScalars) {
    for (const char* bad : {"n:i32", "n:i32:1.5", "n:i32:3000000000", "n:u32:-1", "a:f32:abc",
                            "a:f32:1e39", "a:f64:inf", "h:f16:65505", "n:q8:1", ":i32:1"}) {
        try {
            parse_scalar_argument(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
        }
    }
}

} // namespace
} // namespace kerncast::runtime
