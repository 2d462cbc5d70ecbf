#include "../../../src/support/isl_support.hpp"

#include <gtest/gtest.h>

namespace kisl = kerncast::isl;

TEST(IslSupport, ParseSetNamesParametersAndIndices) {
    kisl::Context ctx;
    const ::isl::set set = kisl::parse_set(ctx, "[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }");
    EXPECT_EQ(kisl::dim_names(set, isl_dim_param), (std::vector<std::string>{"n", "m"}));
    EXPECT_EQ(kisl::dim_names(set, isl_dim_set), (std::vector<std::string>{"i", "j"}));
    EXPECT_EQ(kisl::dim_count(set, isl_dim_set), 2);
    // The C-pointer API reads the same text the same way.
    const kisl::Set raw = kisl::read_set(ctx, "[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }");
    EXPECT_EQ(kisl::to_string(raw.get()), kisl::to_string(set));
}

TEST(IslSupport, ParseErrorCarriesIslsDiagnosticAndOffset) {
    kisl::Context ctx;
    const std::string text = "[n] -> { [i] : 0 <= i < q }";
    try {
        (void)kisl::parse_set(ctx, text);
        FAIL() << "parsed an unknown identifier";
    } catch (const kisl::IslError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown identifier"), std::string::npos) << e.what();
        ASSERT_GE(e.offset(), 0);
        EXPECT_LE(e.offset(), static_cast<int>(text.size()));
    }
    // The context stays usable after the error.
    EXPECT_EQ(kisl::count_points(ctx, kisl::parse_set(ctx, "{ [i] : 0 <= i < 7 }")), 7);
}

TEST(IslSupport, IslsOwnSourcePositionNeverReachesTheMessage) {
    // isl reports a division by zero as "isl_aff.c:NNNN: factor needs to be positive".
    kisl::Context ctx;
    for (const char* text : {"[n] -> { [x] : 0 <= x < n and x mod 0 = 1 }",
                             "{ [x] : 0 <= x < 9 and x = floor(x/0) }"}) {
        try {
            (void)kisl::parse_set(ctx, text);
            FAIL() << "parsed a division by zero: " << text;
        } catch (const kisl::IslError& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.find(".c:"), std::string::npos) << message;
            EXPECT_NE(message.find("a division or mod by a constant that is not positive"),
                      std::string::npos)
                << message;
        }
    }
}

TEST(IslSupport, FixProjectAndCountMatchEnumeration) {
    kisl::Context ctx;
    const ::isl::set triangle = kisl::parse_set(ctx, "[n] -> { [i, j] : 0 <= j <= i < n }");
    for (std::int64_t n = 0; n <= 9; ++n) {
        const ::isl::set fixed = kisl::fix_param(triangle, 0, n);
        EXPECT_EQ(kisl::count_points(ctx, fixed), n * (n + 1) / 2) << n;
        // Projecting j out leaves the distinct i: n of them.
        EXPECT_EQ(kisl::count_points(ctx, kisl::project_out(fixed, isl_dim_set, 1, 1)), n);
    }
}

TEST(IslSupport, AlignParamsOrdersAndExtendsParameters) {
    kisl::Context ctx;
    const ::isl::set set = kisl::parse_set(ctx, "[m, n] -> { [i] : 0 <= i < n }");
    const ::isl::set aligned = kisl::align_params(set, {"n", "k", "m"});
    EXPECT_EQ(kisl::dim_names(aligned, isl_dim_param), (std::vector<std::string>{"n", "k", "m"}));
    EXPECT_EQ(
        kisl::count_points(
            ctx, kisl::fix_param(kisl::fix_param(kisl::fix_param(aligned, 0, 5), 1, 1), 2, 100)),
        5);
}

// (isl 0.25's isl_set_count_val answers 0 for an unbounded set such as { [i] : i >= 0 }:
// callers check boundedness first, as the kernel reader does.)
TEST(IslSupport, CountsBeyond64BitsAreErrors) {
    kisl::Context ctx;
    // A value beyond 64 bits is an error, not a silently truncated number.
    const ::isl::val huge = ::isl::val(ctx.cpp(), "100000000000000000000");
    EXPECT_THROW(kisl::to_int64(huge), std::exception);
    EXPECT_EQ(kisl::to_int64(::isl::val(ctx.cpp(), "-9000000000000000000")), -9000000000000000000);
}

// Sets of independent factors are counted factor by factor; against loops over every point,
// for coupled pairs (a block index and its strided fold index), a triangle, a factor with an
// existential (a stride), unions, a product over 10^10 points (beyond enumeration) and empty
// factors.
TEST(IslSupport, CountsProductsOfIndependentFactorsExactly) {
    kisl::Context ctx;
    for (std::int64_t h = 1; h <= 70; h += 23) {
        std::int64_t expected = 0;
        for (std::int64_t by = 0; by < 8; ++by)
            for (std::int64_t fy = 0; fy <= 1; ++fy)
                for (std::int64_t i = 0; i < 5; ++i)
                    for (std::int64_t j = 0; j <= i; ++j)
                        for (std::int64_t k = 0; k < 9; k += 3)
                            expected += (16 * fy < h - 32 * by) ? 1 : 0;
        const std::string text = "{ [by, fy, i, j, k] : by >= 0 and 0 <= fy <= 1 and 16fy < " +
                                 std::to_string(h) +
                                 " - 32by and 0 <= j <= i < 5 and 0 <= k < 9 and k mod 3 = 0 }";
        EXPECT_EQ(kisl::count_points(ctx, kisl::parse_set(ctx, text)), expected) << text;
    }
    EXPECT_EQ(
        kisl::count_points(ctx, kisl::parse_set(ctx, "{ [a, b] : 0 <= a < 3 and 0 <= b < 4 or "
                                                     "0 <= a < 2 and 0 <= b < 10 }")),
        3 * 4 + 2 * 6);
    EXPECT_EQ(kisl::count_points(
                  ctx, kisl::parse_set(ctx, "{ [a, b, c, d, e] : 0 <= a, b, c, d, e < 100 }")),
              10000000000);
    EXPECT_EQ(
        kisl::count_points(ctx, kisl::parse_set(ctx, "{ [a, b] : 0 <= a < 5 and 3 <= b < 3 }")), 0);
}

TEST(IslSupport, CheckedTurnsBindingExceptionsIntoIslError) {
    kisl::Context ctx;
    const ::isl::set one = kisl::parse_set(ctx, "{ [i] : 0 <= i < 3 }");
    const ::isl::set two = kisl::parse_set(ctx, "{ [i, j] : 0 <= i, j < 3 }");
    try {
        (void)kisl::checked("uniting footprints", [&] { return one.unite(two); });
        FAIL() << "united sets of different dimensions";
    } catch (const kisl::IslError& e) {
        const std::string text = e.what();
        EXPECT_EQ(text.rfind("uniting footprints: ", 0), 0u) << text;
        // isl's message without the binding's "file.c:123: " prefix.
        EXPECT_EQ(text.find(".c:"), std::string::npos) << text;
    }
    EXPECT_EQ(kisl::checked("uniting", [&] { return kisl::count_points(ctx, one.unite(one)); }), 3);
}

TEST(IslSupport, MessageOfStripsOnlyAFileLinePrefix) {
    EXPECT_EQ(kisl::message_of(::isl::exception("isl_map.c:1234: spaces don't match")),
              "spaces don't match");
    EXPECT_EQ(kisl::message_of(::isl::exception("invalid argument")), "invalid argument");
    EXPECT_EQ(kisl::message_of(::isl::exception("a: b")), "a: b");
}

TEST(IslSupport, CoordinatesOfTheLexicographicMinimum) {
    kisl::Context ctx;
    const ::isl::set set = kisl::parse_set(ctx, "{ [i, j] : 2 <= i < 5 and i + 3 <= j < 9 }");
    const ::isl::point point = set.lexmin().sample_point();
    EXPECT_EQ(kisl::to_int64(kisl::coordinate(point, 0)), 2);
    EXPECT_EQ(kisl::to_int64(kisl::coordinate(point, 1)), 5);
}

TEST(IslSupport, CopyToContextRebuildsTheSameSet) {
    // Sets rebuilt in another context from their constraint matrices: equal, point for point,
    // to the same text parsed there (parameters, names, a union of overlapping pieces); a set
    // with existentials is not rebuilt (the matrices do not carry a division's definition).
    kisl::Context from, to;
    for (const char* text :
         {"[w, h] -> { [by, bx, fy, fx] : by >= 0 and bx >= 0 and 0 <= fy <= 2 and 4fy < h - "
          "12by and 0 <= fx <= 1 and 32fx < w - 64bx }",
          "[n] -> { [a, b] : 0 <= a < n and 0 <= b < 4 or 0 <= a < 2 and 0 <= b < n + 6 }",
          "{ [i] : 0 <= i <= 9 }"}) {
        SCOPED_TRACE(text);
        const ::isl::set copy = kisl::copy_to_context(kisl::parse_set(from, text), to);
        ASSERT_FALSE(copy.is_null());
        EXPECT_TRUE(copy.is_equal(kisl::parse_set(to, text)));
        EXPECT_EQ(kisl::dim_names(copy, isl_dim_param),
                  kisl::dim_names(kisl::parse_set(to, text), isl_dim_param));
    }
    const ::isl::set fixed = kisl::fix_param(
        kisl::fix_param(kisl::copy_to_context(
                            kisl::parse_set(from, "[w, h] -> { [b, f] : b >= 0 and 0 <= f <= 2 "
                                                  "and 4f < h - 12b and w >= 0 }"),
                            to),
                        0, 5),
        1, 100);
    std::int64_t expected = 0;
    for (int b = 0; b < 100; ++b)
        for (int f = 0; f <= 2; ++f)
            expected += 4 * f < 100 - 12 * b ? 1 : 0;
    EXPECT_EQ(kisl::count_points(to, fixed), expected);
    EXPECT_TRUE(kisl::copy_to_context(kisl::parse_set(from, "{ [i] : exists k : i = 3k and 0 <= "
                                                            "i < 10 }"),
                                      to)
                    .is_null());
}
