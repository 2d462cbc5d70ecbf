// The element sets the array checks compare (access_elements.hpp), against elements enumerated
// by hand for small kernels.
#include "../../../src/analysis/access_elements.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::analysis;

namespace {

const char* stencil = R"yaml(
name: stencil
params: {n: 10}
arrays:
  a: {dtype: f32, shape: [n]}
  b: {dtype: f32, shape: [n]}
domain: "[n] -> { [i] : 1 <= i < n - 1 }"
threads: {x: i}
launch: {block: [4], fold: [2]}
statements:
  - "b[i] = a[i - 1] + a[i + 1]"
)yaml";

} // namespace

TEST(AccessElements, LaunchIterationsCoverEveryBlock) {
    const auto spec = kernel::parse_kernel_text(stencil, "stencil.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const kernel::BoundKernel bound = analysis::bind(analysis);
    kerncast::isl::Context ctx;
    // i = 1 .. 8 at n = 10: 8 points over blocks of 4 threads x 2 fold instances.
    const AccessInfo& store = analysis.accesses.back();
    ASSERT_EQ(store.array, "b");
    const ::isl::set iterations = detail::launch_iterations(ctx, analysis, store, bound.values());
    EXPECT_EQ(kerncast::isl::count_points(ctx, iterations), 8);
    // a[i - 1] touches a[0 .. 7]; a[i + 1] a[2 .. 9]; first points "0" and "2".
    for (const AccessInfo& access : analysis.accesses) {
        if (access.array != "a")
            continue;
        const ::isl::set elements = detail::touched_elements(
            detail::launch_iterations(ctx, analysis, access, bound.values()), ctx, access, bound);
        EXPECT_EQ(kerncast::isl::count_points(ctx, elements), 8) << access.text;
        EXPECT_EQ(detail::first_point(elements), access.text == "a[i - 1]" ? "0" : "2")
            << access.text;
        EXPECT_TRUE(elements.subtract(detail::extents_box(ctx, {10})).is_empty());
        // Nine elements hold a[0 .. 8]: a[i + 1] reaches a[9] outside them, a[i - 1] does not.
        EXPECT_EQ(elements.subtract(detail::extents_box(ctx, {9})).is_empty(),
                  access.text == "a[i - 1]");
    }
}

TEST(AccessElements, AffineTextSubstitutesParametersAndPrefixesVariables) {
    const auto spec = kernel::parse_kernel_text(stencil, "stencil.yaml");
    const kernel::BoundKernel bound = analysis::bind(analyze(spec), {{"n", 12}});
    kernel::AffineForm form;
    form.constant = 1;
    form.add_term("tx", 2);
    form.add_term("n", 3);
    EXPECT_EQ(detail::affine_text(form, bound, "a_"), "2*a_tx + 37");
}

TEST(AccessElements, IterationTextNamesTheKernelsIndices) {
    const auto spec = kernel::parse_kernel_text(stencil, "stencil.yaml");
    const KernelAnalysis analysis = analyze(spec);
    const kernel::BoundKernel bound = analysis::bind(analysis);
    kerncast::isl::Context ctx;
    const AccessInfo& access = analysis.accesses.front();
    // The last point, i = 8: block 0 holds i = 1 .. 8 (4 threads x 2 instances), thread 3,
    // fold instance 1.
    const ::isl::set last =
        detail::launch_iterations(ctx, analysis, access, bound.values()).lexmax();
    EXPECT_EQ(detail::iteration_text(analysis, access, bound, last.sample_point()), "i = 8");
}
