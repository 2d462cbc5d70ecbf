// Kernels built in code: the spec is what its written kernel file reads back as; an invalid
// kernel is a bug in kerncast (internal Error), not bad input.
#include "../../../src/uipick/kernel_builder.hpp"
#include "kerncast/error.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

KernelBuilder saxpy() {
    KernelBuilder b("saxpy", "y = a x + y");
    b.param("n", 4096)
        .assume("n % 256 == 0")
        .array("x", kernel::DataType::f32, {"n"})
        .array("y", kernel::DataType::f32, {"n"})
        .domain("[n] -> { [i] : 0 <= i < n }")
        .thread(0, "i")
        .block(256)
        .statement("y[i] = 2 * x[i] + y[i]");
    return b;
}

} // namespace

TEST(KernelBuilder, BuildsTheKernelItsFileDescribes) {
    const kernel::KernelSpec spec = saxpy().build();
    EXPECT_EQ(spec.name, "saxpy");
    EXPECT_EQ(spec.description, "y = a x + y");
    ASSERT_EQ(spec.params.size(), 1u);
    EXPECT_EQ(spec.params[0].name, "n");
    EXPECT_EQ(spec.params[0].default_value, 4096);
    EXPECT_EQ(spec.assumptions, (std::vector<std::string>{"n % 256 == 0"}));
    ASSERT_EQ(spec.arrays.size(), 2u);
    EXPECT_EQ(spec.arrays[1].name, "y");
    EXPECT_EQ(spec.indices, (std::vector<std::string>{"i"}));
    EXPECT_EQ(spec.launch.block[0], 256);
    ASSERT_EQ(spec.statements.size(), 1u);
    // Building twice gives the same kernel (the file text is the single source).
    EXPECT_EQ(saxpy().build().statements.size(), spec.statements.size());
}

TEST(KernelBuilder, InvalidKernelIsAnInternalError) {
    KernelBuilder b = saxpy();
    b.statement("z[i] = x[i]"); // z is not declared
    try {
        (void)b.build();
        FAIL() << "built a kernel that writes an undeclared array";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::internal) << e.what();
    }
}

TEST(KernelBuilder, DtypeTagsAreThePapersNames) {
    EXPECT_EQ(dtype_of("float16"), kernel::DataType::f16);
    EXPECT_EQ(dtype_of("float32"), kernel::DataType::f32);
    EXPECT_EQ(dtype_of("float64"), kernel::DataType::f64);
}
