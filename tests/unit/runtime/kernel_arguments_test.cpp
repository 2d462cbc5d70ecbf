#include "kerncast/error.hpp"
#include "kerncast/runtime/kernel_arguments.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace kerncast::runtime {
namespace {

ErrorKind kind_of(void (*f)()) {
    try {
        f();
    } catch (const Error& e) {
        return e.kind();
    }
    return ErrorKind::internal;
}

TEST(KernelArguments, ParsesBufferSpecs) {
    EXPECT_EQ(parse_buffer_spec("x:f32:1048576"),
              (BufferSpec{"x", DType::f32, 1048576, BufferInit::hash}));
    EXPECT_EQ(parse_buffer_spec("out_2:u64:7:zero"),
              (BufferSpec{"out_2", DType::u64, 7, BufferInit::zero}));
    EXPECT_EQ(to_string(parse_buffer_spec("y:f64:1024")), "y:f64:1024:hash");
}

TEST(KernelArguments, RejectsBadBufferSpecs) {
    for (const char* bad : {"x", "x:f32", "x:f16:10", "x:f32:0", "x:f32:-3", "x:f32:ten",
                            "1x:f32:10", "x:f32:10:random", "x:f32:10:zero:extra"}) {
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
}

TEST(KernelArguments, RejectsBadScalars) {
    for (const char* bad : {"n:i32", "n:i32:1.5", "n:i32:3000000000", "n:u32:-1", "a:f32:abc",
                            "a:f32:1e39", "a:f64:inf", "n:q8:1", ":i32:1"}) {
        try {
            parse_scalar_argument(bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
        }
    }
}

TEST(KernelArguments, ParsesDim3) {
    EXPECT_EQ(parse_dim3("256", "--block"), (Dim3{256, 1, 1}));
    EXPECT_EQ(parse_dim3("32,4", "--block"), (Dim3{32, 4, 1}));
    EXPECT_EQ(parse_dim3("32,4,2", "--block"), (Dim3{32, 4, 2}));
    EXPECT_EQ(kind_of([] { parse_dim3("0", "--grid"); }), ErrorKind::usage);
    EXPECT_EQ(kind_of([] { parse_dim3("1,2,3,4", "--grid"); }), ErrorKind::usage);
    EXPECT_EQ(kind_of([] { parse_dim3("32x4", "--grid"); }), ErrorKind::usage);
}

} // namespace
} // namespace kerncast::runtime
