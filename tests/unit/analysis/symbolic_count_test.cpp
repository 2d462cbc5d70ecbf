// Closed-form counts against isl point counting and brute-force enumeration.
#include "kerncast/analysis/symbolic_count.hpp"
#include "kerncast/error.hpp"

#include <gtest/gtest.h>
#include <random>

using kerncast::analysis::SymbolicCount;

namespace {

struct Case {
    const char* set;
    std::vector<std::string> params;
    std::vector<std::pair<int, int>> ranges; // random range per parameter
};

// Random parameter values: the closed form must equal isl's count everywhere.
void check_against_isl(const Case& c, int samples, bool expect_closed_form = true) {
    SCOPED_TRACE(c.set);
    const SymbolicCount count = SymbolicCount::of_set(c.set, c.params);
    if (expect_closed_form) {
        EXPECT_TRUE(count.closed_form()) << count.formula();
    }
    std::mt19937 rng(12345);
    for (int s = 0; s < samples; ++s) {
        std::vector<std::int64_t> values;
        for (const auto& [lo, hi] : c.ranges)
            values.push_back(std::uniform_int_distribution<int>(lo, hi)(rng));
        ASSERT_EQ(count.evaluate(values), count.evaluate_with_isl(values))
            << "params " << ::testing::PrintToString(values) << " formula " << count.formula();
    }
}

} // namespace

TEST(SymbolicCount, BoxIsProductOfExtents) {
    const SymbolicCount count = SymbolicCount::of_set(
        "[nx, ny, nz] -> { [z, y, x] : 4 <= x < nx - 4 and 4 <= y < ny - 4 and 4 <= z < nz - 4 }",
        {"nx", "ny", "nz"});
    EXPECT_TRUE(count.closed_form());
    EXPECT_EQ(count.evaluate({640, 512, 512}), 632LL * 504 * 504);
    EXPECT_EQ(count.evaluate({8, 512, 512}), 0); // empty, not negative
    EXPECT_EQ(count.evaluate({3, 512, 512}), 0);
}

TEST(SymbolicCount, RandomParametersMatchIsl) {
    const std::vector<Case> cases = {
        {"[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }", {"n"}, {{-3, 40}}},
        {"[n, m] -> { [i, j] : 0 <= i < n and i <= j < m }", {"n", "m"}, {{-3, 30}, {-3, 30}}},
        {"[m] -> { [ko, kk] : 0 <= 16*ko < m and 0 <= kk < 16 }", {"m"}, {{-20, 200}}},
        {"[n] -> { [b, f] : b >= 0 and 0 <= f < 2 and 8*b + f <= n - 9 }", {"n"}, {{-5, 120}}},
        {"[n] -> { [b, f] : b >= 0 and 0 <= f < 3 and 96*b + f <= n }", {"n"}, {{-5, 500}}},
        {"[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and i <= k < i + m }",
         {"n", "m"},
         {{-2, 25}, {-2, 25}}},
        {"[n] -> { [i, j] : 0 <= i < n and 0 <= j < n and i + j < n + 3 }", {"n"}, {{-3, 40}}},
        {"[n, l] -> { [bx, by] : 0 <= 16*bx < l and 0 <= 16*by < n }",
         {"n", "l"},
         {{1, 300}, {1, 300}}},
        {"[a, b] -> { [i] : 0 <= i < a and i < b }", {"a", "b"}, {{-5, 30}, {-5, 30}}},
        {"[n] -> { [i] : 0 <= i < n and i = 3 }", {"n"}, {{-2, 10}}},
        {"[n] -> { [i, j] : 0 <= i < n and j = 2 + i }", {"n"}, {{-2, 10}}},
    };
    for (const auto& c : cases)
        check_against_isl(c, 150);
}

TEST(SymbolicCount, FallsBackToIslWhenNoClosedForm) {
    // An existentially quantified stride: no closed form, but exact counts via isl.
    const Case c{"[n] -> { [i] : 0 <= i < n and exists (e : i = 3*e) }", {"n"}, {{0, 50}}};
    const SymbolicCount count = SymbolicCount::of_set(c.set, c.params);
    EXPECT_EQ(count.evaluate({10}), 4); // 0 3 6 9
    check_against_isl(c, 30, false);
}

TEST(SymbolicCount, BruteForceTriangle) {
    const SymbolicCount count = SymbolicCount::of_set(
        "[n] -> { [i, j, k] : 0 <= i < n and 0 <= j <= i and j <= k < n }", {"n"});
    for (int n = 0; n < 12; ++n) {
        std::int64_t brute = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j <= i; ++j)
                for (int k = j; k < n; ++k)
                    ++brute;
        EXPECT_EQ(count.evaluate({n}), brute) << n;
    }
}

TEST(SymbolicCount, CombinationsAndConstants) {
    const SymbolicCount a = SymbolicCount::of_set("[n] -> { [i] : 0 <= i < n }", {"n"});
    const SymbolicCount sum = a.scaled(3) + SymbolicCount::constant(2) + a;
    EXPECT_EQ(sum.evaluate({10}), 42);
    EXPECT_TRUE(SymbolicCount().is_zero());
    EXPECT_EQ(SymbolicCount().evaluate({5}), 0);
}

TEST(SymbolicCount, IslErrorsBecomeInputErrors) {
    try {
        (void)SymbolicCount::of_set("[n] -> { [i] : 0 <= i < }", {"n"});
        FAIL() << "expected an error";
    } catch (const kerncast::Error& e) {
        EXPECT_EQ(e.kind(), kerncast::ErrorKind::input);
    }
    EXPECT_THROW((void)SymbolicCount::of_set("[q] -> { [i] : 0 <= i < q }", {"n"}),
                 kerncast::Error);
}

// Counts of one set are shared by every caller (explore analyses each launch afresh; about half
// of a sweep's sets recur): the same text and parameters give the same count object, so a sum of
// two is one term with factor 2, as a count scaled by 2 is; other parameters make another count.
// A set isl rejects is not kept: it is an error each time.
TEST(SymbolicCount, TheSameSetIsCountedOnceForEveryCaller) {
    const std::string set = "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }";
    const SymbolicCount twice =
        SymbolicCount::of_set(set, {"n"}) + SymbolicCount::of_set(set, {"n"});
    EXPECT_EQ(twice.formula(), SymbolicCount::of_set(set, {"n"}).scaled(2).formula());
    EXPECT_EQ(twice.evaluate(std::vector<std::int64_t>{10}), 110);
    EXPECT_TRUE((SymbolicCount::of_set(set, {"n"}) + SymbolicCount::of_set(set, {"n"}).scaled(-1))
                    .is_zero());
    const SymbolicCount other_parameters =
        SymbolicCount::of_set(set, {"m", "n"}) + SymbolicCount::of_set(set, {"n"}).scaled(-1);
    EXPECT_FALSE(other_parameters.is_zero());
    for (int attempt = 0; attempt < 2; ++attempt)
        EXPECT_THROW(SymbolicCount::of_set("[n] -> { [i] : 0 <= i < n and }", {"n"}),
                     kerncast::Error);
}
