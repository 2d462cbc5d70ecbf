// Closed-form point counts of parametric sets (Stevens & Klöckner sec. 5, derived without
// barvinok): every formula is checked against counting the points by explicit loops.
#include "../../../src/analysis/closed_form.hpp"

#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <vector>

namespace kisl = kerncast::isl;
using kerncast::analysis::detail::ClosedForm;
using kerncast::analysis::detail::CompiledClosedForm;
using kerncast::analysis::detail::derive_closed_form;

namespace {

// The form derived for `text` (one parameter n); fails the test when there is none.
ClosedForm form_of(kisl::Context& ctx, const std::string& text) {
    const auto form = derive_closed_form(kisl::parse_set(ctx, text), 1);
    EXPECT_TRUE(form.has_value()) << text;
    return form.value_or(ClosedForm{});
}

// Both evaluators of `form` against `brute(n)` for n in [low, high].
void expect_counts(const ClosedForm& form, const std::function<std::int64_t(std::int64_t)>& brute,
                   std::int64_t low, std::int64_t high) {
    const CompiledClosedForm compiled(form);
    for (std::int64_t n = low; n <= high; ++n) {
        EXPECT_EQ(form.evaluate(&n), brute(n)) << "n = " << n;
        EXPECT_EQ(compiled.evaluate(&n), brute(n)) << "n = " << n;
    }
}

} // namespace

TEST(ClosedForm, TriangleIsFaulhabersSum) {
    kisl::Context ctx;
    const ClosedForm form = form_of(ctx, "[n] -> { [i, j] : 0 <= j <= i < n }");
    expect_counts(
        form,
        [](std::int64_t n) {
            std::int64_t count = 0;
            for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = 0; j <= i; ++j)
                    ++count;
            return count;
        },
        -3, 40);
    EXPECT_EQ(form.to_string({"n"}).find("isl"), std::string::npos);
}

TEST(ClosedForm, MinAndMaxBoundsSplitIntoPieces) {
    kisl::Context ctx;
    // j runs from max(0, i - 4) to min(i, 10): two lower and two upper bounds.
    const ClosedForm form =
        form_of(ctx, "[n] -> { [i, j] : 0 <= i < n and 0 <= j and i - 4 <= j and j <= i and "
                     "j <= 10 }");
    expect_counts(
        form,
        [](std::int64_t n) {
            std::int64_t count = 0;
            for (std::int64_t i = 0; i < n; ++i)
                for (std::int64_t j = std::max<std::int64_t>(0, i - 4);
                     j <= std::min<std::int64_t>(i, 10); ++j)
                    ++count;
            return count;
        },
        -2, 40);
}

TEST(ClosedForm, FloorOfParametersForTiles) {
    kisl::Context ctx;
    // Tiles of 16 over [0, n): t < ceil(n / 16), an existential floor of the parameter.
    const ClosedForm form =
        form_of(ctx, "[n] -> { [t, i] : 0 <= t and 16t <= i < 16t + 16 and i < n }");
    expect_counts(
        form,
        [](std::int64_t n) {
            std::int64_t count = 0;
            for (std::int64_t t = 0; 16 * t < n; ++t)
                for (std::int64_t i = 16 * t; i < 16 * t + 16 && i < n; ++i)
                    ++count;
            return count;
        },
        -5, 100);
}

TEST(ClosedForm, DivisibilityThroughLiftedExistentials) {
    kisl::Context ctx;
    // The even i in [0, n): an existential that depends on the set dimension is lifted.
    const ClosedForm form = form_of(ctx, "[n] -> { [i] : 0 <= i < n and exists e : i = 2e }");
    expect_counts(
        form, [](std::int64_t n) { return n <= 0 ? 0 : (n + 1) / 2; }, -4, 60);
}

TEST(ClosedForm, NonUnitCoefficientOnAnOuterIndexHasNoClosedForm) {
    kisl::Context ctx;
    // j <= i / 2 with i an outer index: not a bound this derivation handles; the caller
    // counts with isl instead.
    EXPECT_FALSE(derive_closed_form(
                     kisl::parse_set(ctx, "[n] -> { [i, j] : 0 <= i < n and 0 <= 2j <= i }"), 1)
                     .has_value());
}

TEST(ClosedForm, ParameterCountMustMatch) {
    kisl::Context ctx;
    EXPECT_FALSE(derive_closed_form(kisl::parse_set(ctx, "[n, m] -> { [i] : 0 <= i < n + m }"), 1)
                     .has_value());
}

// explore derives closed forms on several threads at once; the Faulhaber table they share
// grows on demand (degrees 7..10 here: higher than any other test asks, so that it grows
// while the threads race). Each simplex 0 <= i_d <= ... <= i_1 < n has C(n + d - 1, d) points.
TEST(ClosedForm, DerivedOnSeveralThreadsAtOnce) {
    std::vector<std::thread> threads;
    std::vector<std::int64_t> counts(4, -1);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([t, &counts] {
            const int d = 7 + t;
            std::string vars, chain;
            for (int k = 1; k <= d; ++k) {
                vars += (k > 1 ? ", i" : "i") + std::to_string(k);
                chain += (k > 1 ? " <= i" : "i") + std::to_string(d + 1 - k);
            }
            kisl::Context ctx;
            const auto form = derive_closed_form(
                kisl::parse_set(ctx, "[n] -> { [" + vars + "] : 0 <= " + chain + " < n }"), 1);
            const std::int64_t n = 5;
            counts[static_cast<size_t>(t)] = form ? form->evaluate(&n) : -2;
        });
    for (auto& thread : threads)
        thread.join();
    // C(n + d - 1, d) at n = 5: C(11, 7), C(12, 8), C(13, 9), C(14, 10).
    EXPECT_EQ(counts, (std::vector<std::int64_t>{330, 495, 715, 1001}));
}
