// KernelSpec and its vocabulary: data types and memory spaces by name (round trips and the
// aliases the kernel format accepts), element sizes, axis and builtin names, lookups in a spec,
// and parameter values (defaults, overrides, and values that negate an extent).
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

namespace {

const DataType all_types[] = {DataType::i8,  DataType::i16, DataType::i32, DataType::i64,
                              DataType::u8,  DataType::u16, DataType::u32, DataType::u64,
                              DataType::f16, DataType::f32, DataType::f64};

const std::string two_arrays = R"yaml(name: t
params: {n: 64, m: 8}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f64, shape: [n, m - 4], offset: 1}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: j, y: i}
launch: {block: [32, 4]}
statements:
  - "b[i, 0] = 2*a[i, j]"
)yaml";

Error input_error_of(const KernelSpec& spec,
                     const std::vector<std::pair<std::string, std::int64_t>>& overrides) {
    try {
        (void)spec.param_values(overrides);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error(ErrorKind::internal, "none");
}

} // namespace

TEST(KernelSpecDataType, NamesRoundTripAndAliasesParse) {
    for (const DataType type : all_types)
        EXPECT_EQ(parse_data_type(data_type_name(type)), type) << data_type_name(type);
    EXPECT_EQ(parse_data_type("float32"), DataType::f32);
    EXPECT_EQ(parse_data_type("float16"), DataType::f16);
    EXPECT_EQ(parse_data_type("uint8"), DataType::u8);
    EXPECT_EQ(parse_data_type("int64"), DataType::i64);
    EXPECT_EQ(std::string(data_type_name(DataType::u16)), "u16");
    EXPECT_FALSE(parse_data_type("F32").has_value()); // names are case-sensitive
    EXPECT_FALSE(parse_data_type("f8").has_value());
    EXPECT_FALSE(parse_data_type("").has_value());
}

TEST(KernelSpecDataType, BytesAndFloatingPoint) {
    EXPECT_EQ(data_type_bytes(DataType::i8), 1);
    EXPECT_EQ(data_type_bytes(DataType::u8), 1);
    EXPECT_EQ(data_type_bytes(DataType::i16), 2);
    EXPECT_EQ(data_type_bytes(DataType::f16), 2);
    EXPECT_EQ(data_type_bytes(DataType::u32), 4);
    EXPECT_EQ(data_type_bytes(DataType::f32), 4);
    EXPECT_EQ(data_type_bytes(DataType::i64), 8);
    EXPECT_EQ(data_type_bytes(DataType::f64), 8);
    int floating = 0;
    for (const DataType type : all_types)
        floating += is_floating(type) ? 1 : 0;
    EXPECT_EQ(floating, 3);
    EXPECT_TRUE(is_floating(DataType::f16));
    EXPECT_FALSE(is_floating(DataType::u64));
}

TEST(KernelSpecMemorySpace, NamesRoundTripAndAliasesParse) {
    for (const MemorySpace space :
         {MemorySpace::global, MemorySpace::shared, MemorySpace::constant, MemorySpace::private_})
        EXPECT_EQ(parse_memory_space(memory_space_name(space)), space);
    EXPECT_EQ(std::string(memory_space_name(MemorySpace::private_)), "private");
    EXPECT_EQ(parse_memory_space("local"), MemorySpace::shared); // OpenCL's name
    EXPECT_EQ(parse_memory_space("register"), MemorySpace::private_);
    EXPECT_FALSE(parse_memory_space("texture").has_value());
    EXPECT_FALSE(parse_memory_space("Global").has_value());
}

TEST(KernelSpecNames, AxesAndBuiltins) {
    EXPECT_EQ(std::string(axis_name(0)), "x");
    EXPECT_EQ(std::string(axis_name(1)), "y");
    EXPECT_EQ(std::string(axis_name(2)), "z");
    EXPECT_EQ(std::string(axis_name(3)), "?");
    EXPECT_EQ(std::string(axis_name(-1)), "?");
    for (const char* name : {"tx", "ty", "tz", "bx", "by", "bz", "fx", "fy", "fz"})
        EXPECT_TRUE(is_builtin_name(name)) << name;
    for (const char* name : {"tw", "i", "", "TX", "blockIdx", "xt", "t", "txx", "fw", "ax"})
        EXPECT_FALSE(is_builtin_name(name)) << name;
}

TEST(KernelSpecLookups, ArraysParametersAndIndices) {
    const KernelSpec spec = parse_kernel_text(two_arrays, "k.yaml");
    const ArrayDecl* b = spec.find_array("b");
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->name, "b");
    EXPECT_EQ(b->dtype, DataType::f64);
    EXPECT_EQ(b->shape.size(), 2u);
    EXPECT_EQ(spec.find_array("c"), nullptr);
    const Parameter* m = spec.find_param("m");
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->default_value, 8);
    EXPECT_EQ(spec.find_param("a"), nullptr); // an array is not a parameter
    EXPECT_TRUE(spec.is_index("i"));
    EXPECT_TRUE(spec.is_index("j"));
    EXPECT_FALSE(spec.is_index("n"));
}

TEST(KernelSpecParamValues, DefaultsInDeclarationOrderThenOverrides) {
    const KernelSpec spec = parse_kernel_text(two_arrays, "k.yaml");
    using Values = std::vector<std::pair<std::string, std::int64_t>>;
    EXPECT_EQ(spec.param_values(), (Values{{"n", 64}, {"m", 8}}));
    EXPECT_EQ(spec.param_values({{"m", 4}}), (Values{{"n", 64}, {"m", 4}}));
    // The last override of a name wins.
    EXPECT_EQ(spec.param_values({{"n", 2}, {"n", 3}}), (Values{{"n", 3}, {"m", 8}}));
}

TEST(KernelSpecParamValues, UnknownParameterNamesTheKnownOnes) {
    const KernelSpec spec = parse_kernel_text(two_arrays, "k.yaml");
    const Error e = input_error_of(spec, {{"k", 1}});
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_EQ(e.message(), "kernel 't' has no parameter 'k'");
    ASSERT_EQ(e.notes().size(), 1u);
    EXPECT_EQ(e.notes()[0], "parameters: n, m");
}

TEST(KernelSpecParamValues, NegativeExtentNamesTheDimensionAndTheValues) {
    const KernelSpec spec = parse_kernel_text(two_arrays, "k.yaml");
    // m - 4 = -1 in b's second dimension.
    const Error e = input_error_of(spec, {{"m", 3}});
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_EQ(e.message(), "array 'b' has the negative extent -1 in dimension 2 for n=64, m=3");
    EXPECT_EQ(e.where().file, "k.yaml");
    EXPECT_EQ(e.where().line, 5);
    // m = 4 gives an empty (zero) extent, which is allowed.
    EXPECT_NO_THROW((void)spec.param_values({{"m", 4}}));
}

TEST(KernelSpecParamValues, EmptyDomainIsAnErrorAtTheFile) {
    const KernelSpec spec = parse_kernel_text(two_arrays, "k.yaml");
    const Error e = input_error_of(spec, {{"n", 0}});
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_NE(e.message().find("kernel 't': the domain"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("is empty for n=0, m=8"), std::string::npos) << e.message();
    EXPECT_EQ(e.where().file, "k.yaml");
    ASSERT_FALSE(e.notes().empty());
    EXPECT_EQ(e.notes().back(), "every parameter that sizes the domain must be at least 1");
    // n = 1 leaves one point.
    EXPECT_NO_THROW((void)spec.param_values({{"n", 1}}));
}

TEST(KernelSpecParamValues, ASpecBuiltInCodeWithoutADomainChecksOnlyExtents) {
    KernelSpec spec;
    spec.name = "in_code";
    spec.params.push_back(Parameter{"n", 5, false, ""});
    EXPECT_EQ(spec.param_values({{"n", 0}}).front().second, 0); // no domain to empty
    const Error e = input_error_of(spec, {{"q", 1}});
    ASSERT_EQ(e.notes().size(), 1u);
    EXPECT_EQ(e.notes()[0], "parameters: n");
}
