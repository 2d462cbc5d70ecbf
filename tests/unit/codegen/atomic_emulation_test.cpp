// Which atomics the generator emulates with a compare-and-swap loop, and the helpers' source.
// (The host-emulation and NVRTC tests compile and run them; here: their shape per type.)
#include "../../../src/codegen/atomic_emulation.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen::detail;
using kernel::AtomicKind;
using kernel::DataType;

namespace {

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(AtomicEmulation, OnlyWhatCudaLacksIsEmulated) {
    // Native: 32- and 64-bit integers of every kind, real add/sub/inc/exch, the f16 add.
    for (DataType type : {DataType::i32, DataType::u32, DataType::i64, DataType::u64})
        for (AtomicKind kind : {AtomicKind::add, AtomicKind::sub, AtomicKind::min, AtomicKind::max,
                                AtomicKind::inc, AtomicKind::exch, AtomicKind::cas,
                                AtomicKind::bit_and, AtomicKind::bit_or, AtomicKind::bit_xor})
            EXPECT_FALSE(needs_cas_loop(type, kind)) << kernel::data_type_name(type);
    for (DataType type : {DataType::f32, DataType::f64})
        for (AtomicKind kind :
             {AtomicKind::add, AtomicKind::sub, AtomicKind::inc, AtomicKind::exch})
            EXPECT_FALSE(needs_cas_loop(type, kind));
    for (AtomicKind kind : {AtomicKind::add, AtomicKind::sub, AtomicKind::inc})
        EXPECT_FALSE(needs_cas_loop(DataType::f16, kind));
    // Emulated: real min/max/cas, everything on 1- and 2-byte integers, the rest of f16.
    for (DataType type : {DataType::f32, DataType::f64, DataType::f16})
        for (AtomicKind kind : {AtomicKind::min, AtomicKind::max, AtomicKind::cas})
            EXPECT_TRUE(needs_cas_loop(type, kind)) << kernel::data_type_name(type);
    EXPECT_TRUE(needs_cas_loop(DataType::f16, AtomicKind::exch));
    for (DataType type : {DataType::i8, DataType::u8, DataType::i16, DataType::u16})
        for (AtomicKind kind :
             {AtomicKind::add, AtomicKind::inc, AtomicKind::cas, AtomicKind::bit_xor})
            EXPECT_TRUE(needs_cas_loop(type, kind)) << kernel::data_type_name(type);
    EXPECT_EQ(atomic_helper_name(DataType::u16, AtomicKind::bit_xor), "kc_atomic_xor_u16");
    EXPECT_STREQ(atomic_operand_type_name(DataType::f16), "float");
    EXPECT_STREQ(atomic_operand_type_name(DataType::i8), "signed char");
}

TEST(AtomicEmulation, RealsSwapTheirBitPattern) {
    const std::string f64 = atomic_helper_source(DataType::f64, AtomicKind::min);
    EXPECT_NE(f64.find("__device__ __forceinline__ double kc_atomic_min_f64(double* address, "
                       "double value) {"),
              std::string::npos)
        << f64;
    EXPECT_NE(f64.find("unsigned long long* word = reinterpret_cast<unsigned long "
                       "long*>(address);"),
              std::string::npos);
    EXPECT_NE(f64.find("const double current = __longlong_as_double(static_cast<long "
                       "long>(assumed));"),
              std::string::npos);
    EXPECT_NE(f64.find("const double next = static_cast<double>(value < current ? value : "
                       "current);"),
              std::string::npos);
    EXPECT_EQ(occurrences(f64, "atomicCAS("), 1);
    EXPECT_NE(f64.find("if (replaced == assumed)\n            break;"), std::string::npos);
    const std::string cas = atomic_helper_source(DataType::f32, AtomicKind::cas);
    EXPECT_NE(cas.find("float kc_atomic_cas_f32(float* address, float compare, float value)"),
              std::string::npos);
    EXPECT_NE(cas.find("current == compare ? value : current"), std::string::npos);
}

TEST(AtomicEmulation, SmallElementsSwapTheWordHoldingThem) {
    const std::string u8 = atomic_helper_source(DataType::u8, AtomicKind::add);
    EXPECT_NE(u8.find("unsigned int* word = reinterpret_cast<unsigned int*>(byte & ~3ull);"),
              std::string::npos)
        << u8;
    EXPECT_NE(u8.find("const unsigned int shift = static_cast<unsigned int>(byte & 3ull) * 8u;"),
              std::string::npos);
    EXPECT_NE(u8.find("const unsigned int mask = 0xffu << shift;"), std::string::npos);
    EXPECT_NE(u8.find("const unsigned char next = static_cast<unsigned char>(current + value);"),
              std::string::npos);
    EXPECT_NE(u8.find("const unsigned int replaced = (assumed & ~mask) | "
                      "((static_cast<unsigned int>(next) << shift) & mask);"),
              std::string::npos);
    const std::string i16 = atomic_helper_source(DataType::i16, AtomicKind::max);
    EXPECT_NE(i16.find("const unsigned int mask = 0xffffu << shift;"), std::string::npos);
    EXPECT_NE(i16.find("const short current = static_cast<short>((assumed & mask) >> shift);"),
              std::string::npos);
    // f16: __half operands, float arithmetic, the result rounded back into the word.
    const std::string f16 = atomic_helper_source(DataType::f16, AtomicKind::cas);
    EXPECT_NE(f16.find("float kc_atomic_cas_f16(__half* address, __half compare_half, __half "
                       "value_half) {\n    const float compare = __half2float(compare_half);\n"
                       "    const float value = __half2float(value_half);"),
              std::string::npos)
        << f16;
    EXPECT_NE(f16.find("static_cast<unsigned int>(__half_as_ushort(__float2half_rn(next)))"),
              std::string::npos);
}
