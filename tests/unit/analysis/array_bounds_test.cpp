// Global accesses that reach outside their arrays (array_bounds.hpp): the user-written
// 3-point average of issue 42 without its halo, worked by hand, and the examples, which stay
// inside their arrays at every launch the tests use.
#include "bind_error.hpp"
#include "kerncast/analysis/array_bounds.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;
using kerncast::analysis::testing::bind_error;
using kerncast::analysis::testing::bind_failure;

namespace {

std::string source(const std::string& path) {
    return std::string(KERNCAST_SOURCE_DIR) + "/" + path;
}

const char* shifted = R"yaml(
name: shifted
params: {n: 100}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 1 <= i < n - 1 and 0 <= j < n - 1 }"
threads: {x: j, y: i}
launch: {block: [32, 4]}
statements:
  - "b[i, j] = a[i - 1, j] + a[i + 1, j] + a[i, j + 1]"
  - "b[i, j + 2] = a[i, j]"
)yaml";

} // namespace

TEST(ArrayBounds, ReadsBeforeTheFirstElementAreRefused) {
    // b[i] = a[i - 1] + a[i + 1] over 0 <= i < n: i = 0 reads a[-1], the first element outside.
    const auto spec =
        kernel::load_kernel_file(source("tests/user_kernels/shift_out_of_bounds.yaml"));
    const auto failure = bind_failure(spec, spec.launch);
    ASSERT_TRUE(failure);
    EXPECT_NE(failure->message().find(
                  "'a[i - 1]' reads a[-1], outside the array's extents [1048576] at i = 0"),
              std::string::npos)
        << failure->message();
    EXPECT_EQ(failure->where().line, 12); // the statement's
}

TEST(ArrayBounds, TheLastElementPastTheEndIsNamed) {
    // Rows 1..98 and columns 0..98: a[i - 1, j] and a[i + 1, j] stay inside; a[i, j + 1]
    // reaches column 99 (inside); the store b[i, j + 2] reaches b[1, 100] at i = 1, j = 98.
    const auto spec = kernel::parse_kernel_text(shifted, "shifted.yaml");
    const std::string message = bind_error(spec, spec.launch);
    EXPECT_NE(message.find("'b[i, j + 2]' writes b[1, 100], outside the array's extents [100, 100] "
                           "at i = 1, j = 98"),
              std::string::npos)
        << message;
}

TEST(ArrayBounds, ExamplesStayInsideTheirArrays) {
    for (const char* name : {"star3d_r4", "matmul_naive", "matmul_tiled16", "hk_matmul", "fd5pt_16",
                             "absmax_f32", "histogram_reordered", "dg_diff_2"}) {
        SCOPED_TRACE(name);
        const auto spec =
            kernel::load_kernel_file(source(std::string("examples/kernels/") + name + ".yaml"));
        EXPECT_EQ(bind_error(spec, spec.launch), "");
    }
}

TEST(ArrayBounds, ParameterValuesDecide) {
    // In bounds at every n: the domain's j < n - 1 keeps a[i, j + 1] inside whatever n is.
    const char* inside = R"yaml(
name: inside
params: {n: 100, m: 50}
arrays:
  a: {dtype: f32, shape: [n]}
  b: {dtype: f32, shape: [m]}
domain: "[n, m] -> { [i] : 0 <= i < m }"
threads: {x: i}
statements:
  - "b[i] = a[i]"
)yaml";
    const auto spec = kernel::parse_kernel_text(inside, "inside.yaml");
    EXPECT_EQ(bind_error(spec, spec.launch), "");
    // a holds n elements; m = 200 > n = 100 reads a[100] first.
    const std::string message = bind_error(spec, spec.launch, {{"m", 200}});
    EXPECT_NE(message.find("'a[i]' reads a[100], outside the array's extents [100] at i = 100"),
              std::string::npos)
        << message;
}
