// The domain at fixed parameters through isl's C++ binding: index ranges, and guards simplified
// against the known facts, checked on small hand-written domains.
#include "../../../../src/codegen/lowering/domain_guards.hpp"
#include "../../../../src/support/isl_support.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen::lowering;

namespace {

kernel::KernelSpec triangle() {
    return kernel::parse_kernel_text(R"yaml(
name: triangle
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n, n]}}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }"
threads: {x: i}
statements: [{do: "a[i, j] = 1", within: [j]}]
)yaml",
                                     "triangle.yaml");
}

std::string text(const kernel::ExprPtr& guard) {
    return guard ? kernel::to_string(*guard) : "(always)";
}

} // namespace

TEST(DomainGuards, RangesAreTheBoundingBoxAtTheParameterValues) {
    DomainGuards domain(triangle(), {{"n", 10}});
    EXPECT_FALSE(domain.empty());
    EXPECT_EQ(domain.range("i"), (std::pair<std::int64_t, std::int64_t>{0, 9}));
    EXPECT_EQ(domain.range("j"), (std::pair<std::int64_t, std::int64_t>{0, 9}));
}

TEST(DomainGuards, EmptyAtParametersThatLeaveNoPoint) {
    EXPECT_TRUE(DomainGuards(triangle(), {{"n", 0}}).empty());
}

TEST(DomainGuards, GuardKeepsOnlyWhatTheKnownRangesDoNotImply) {
    DomainGuards domain(triangle(), {{"n", 10}});
    // Without facts, the whole projected domain is the guard.
    const std::string unknown = text(domain.guard({"i"}));
    EXPECT_NE(unknown.find("i"), std::string::npos) << unknown;
    domain.know("i", 0, 9);
    EXPECT_EQ(domain.guard({"i"}), nullptr); // 0 <= i <= 9 is all the domain asks of i
    domain.know("j", 0, 9);
    EXPECT_EQ(text(domain.guard({"i", "j"})), "i >= j"); // the triangle is left
}

TEST(DomainGuards, GuardOfARangePastTheDomainIsAGuardOnTheExcess) {
    DomainGuards domain(triangle(), {{"n", 10}});
    domain.know("i", 0, 15); // a grid of 16 threads over 10 rows
    EXPECT_EQ(text(domain.guard({"i"})), "i <= 9");
}

TEST(DomainGuards, BadDomainTextIsAnIslError) {
    kernel::KernelSpec spec = triangle();
    spec.domain = "[n] -> { [i, j] : 0 <= i < }";
    EXPECT_THROW(DomainGuards(spec, {{"n", 4}}), kerncast::isl::IslError);
}
