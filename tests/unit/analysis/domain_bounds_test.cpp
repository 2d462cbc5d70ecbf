// Index bounds over a domain as affine forms in the parameters (domain_bounds.hpp), against
// bounds read off the sets by hand.
#include "../../../src/analysis/domain_bounds.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

std::optional<kernel::AffineForm> bound(const std::string& domain, int position, bool maximum) {
    kerncast::isl::Context ctx;
    return analysis::detail::index_bound(kerncast::isl::parse_set(ctx, domain), position, maximum);
}

std::string text(const std::optional<kernel::AffineForm>& form) {
    return form ? form->to_string() : "none";
}

} // namespace

TEST(DomainBounds, AffineBoundsInTheParameters) {
    const std::string triangle = "[n, m] -> { [i, j] : 0 <= i < n and m >= 2 and 2 <= j <= i + m }";
    EXPECT_EQ(text(bound(triangle, 0, false)), "0");
    EXPECT_EQ(text(bound(triangle, 0, true)), "n - 1");
    EXPECT_EQ(text(bound(triangle, 1, false)), "2");
    EXPECT_EQ(text(bound(triangle, 1, true)), "m + n - 1");
}

TEST(DomainBounds, NoFormForFloorsOrSeveralPieces) {
    // i <= floor(n / 2) needs a division; i < min(n, 10) has two pieces.
    EXPECT_EQ(text(bound("[n] -> { [i] : 0 <= i and 2*i <= n }", 0, true)), "none");
    EXPECT_EQ(text(bound("[n] -> { [i] : 0 <= i < n and i < 10 }", 0, true)), "none");
    EXPECT_EQ(text(bound("[n] -> { [i] : 0 <= i < n and i < 10 }", 0, false)), "0");
}
