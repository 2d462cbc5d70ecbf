#include "kerncast/kernel/expression.hpp"

#include <gtest/gtest.h>
#include <limits>

using namespace kerncast::kernel;

TEST(Expression, TokensCarryOffsets) {
    const auto tokens = tokenize("a$aLD[i, k+1] += 2.5e-1*x");
    ASSERT_EQ(tokens.size(), 14u);
    EXPECT_EQ(tokens[0].kind, TokenKind::identifier);
    EXPECT_EQ(tokens[1].kind, TokenKind::tag);
    EXPECT_EQ(tokens[1].text, "aLD");
    EXPECT_EQ(tokens[1].offset, 1);
    EXPECT_EQ(tokens[7].kind, TokenKind::integer);
    EXPECT_EQ(tokens[7].offset, 11);
    EXPECT_EQ(tokens[9].kind, TokenKind::plus_assign);
    EXPECT_EQ(tokens[10].kind, TokenKind::real);
    EXPECT_EQ(tokens[12].kind, TokenKind::identifier);
    EXPECT_EQ(tokens[13].kind, TokenKind::end);
}

TEST(Expression, PrecedenceAndPrinting) {
    EXPECT_EQ(to_string(*parse_expression("a + b*c - d/e")), "a + b * c - d / e");
    EXPECT_EQ(to_string(*parse_expression("(a + b)*c")), "(a + b) * c");
    EXPECT_EQ(to_string(*parse_expression("a - (b - c)")), "a - (b - c)");
    EXPECT_EQ(to_string(*parse_expression("x < 3 && y >= 2 || !z")), "x < 3 && y >= 2 || !z");
    EXPECT_EQ(to_string(*parse_expression("sum([i, j], a[i, j])")), "sum([i, j], a[i, j])");
    EXPECT_EQ(to_string(*parse_expression("c ? 1 : 2.5")), "c ? 1 : 2.5");
}

TEST(Expression, OneTableOfBinaryOperators) {
    // Each operator parses from its symbol to itself and prints back; a looser operator
    // around a tighter one needs no parentheses, a tighter one around a looser one does.
    for (int o = 0; o <= static_cast<int>(BinaryOp::logical_or); ++o) {
        const BinaryOpInfo& info = binary_op_info(static_cast<BinaryOp>(o));
        EXPECT_EQ(static_cast<int>(info.op), o);
        const std::string text = std::string("a ") + info.symbol + " b";
        const auto e = parse_expression(text);
        ASSERT_EQ(e->kind, ExprKind::binary) << text;
        EXPECT_EQ(e->op, info.op) << text;
        EXPECT_EQ(to_string(*e), text);
        EXPECT_EQ(binary_op_symbol(info.op), std::string(info.symbol));
        for (int p = 0; p <= static_cast<int>(BinaryOp::logical_or); ++p) {
            const BinaryOpInfo& other = binary_op_info(static_cast<BinaryOp>(p));
            // Kernel files and C order the operators alike.
            EXPECT_EQ(info.binding<other.binding, info.c_level> other.c_level)
                << info.symbol << " " << other.symbol;
        }
    }
    EXPECT_TRUE(is_comparison(BinaryOp::less_equal));
    EXPECT_FALSE(is_comparison(BinaryOp::logical_and));
    EXPECT_EQ(to_string(*parse_expression("(a || b) && c")), "(a || b) && c");
    EXPECT_EQ(to_string(*parse_expression("a == b < c")), "a == b < c");
    EXPECT_EQ(to_string(*parse_expression("(a == b) < c")), "(a == b) < c");
}

TEST(Expression, AffineForms) {
    const AffineForm f = to_affine(*parse_expression("2*(i + 3) - j + 16*ko + n"));
    EXPECT_EQ(f.coefficient("i"), 2);
    EXPECT_EQ(f.coefficient("j"), -1);
    EXPECT_EQ(f.coefficient("ko"), 16);
    EXPECT_EQ(f.coefficient("n"), 1);
    EXPECT_EQ(f.constant, 6);
    EXPECT_EQ(to_affine(*parse_expression("i - i")).coefficients.size(), 0u);
    EXPECT_EQ(to_affine(*parse_expression("B*i"), {{"B", 4}}).coefficient("i"), 4);
}

TEST(Expression, NonAffinePointsAtTheOffendingTerm) {
    try {
        (void)to_affine(*parse_expression("i + j*k"));
        FAIL();
    } catch (const ExpressionError& e) {
        EXPECT_EQ(e.offset(), 4);
        EXPECT_NE(std::string(e.what()).find("multiplies two non-constant"), std::string::npos);
    }
    EXPECT_THROW((void)to_affine(*parse_expression("i / 2")), ExpressionError);
    EXPECT_THROW((void)to_affine(*parse_expression("a[i]")), ExpressionError);
}

TEST(Expression, Evaluation) {
    auto lookup = [](const std::string& name) -> std::optional<double> {
        if (name == "x")
            return 2.0;
        return std::nullopt;
    };
    EXPECT_DOUBLE_EQ(evaluate(*parse_expression("3*x + max(1, x, 5) - sqrt(16)"), lookup), 7.0);
    EXPECT_DOUBLE_EQ(evaluate(*parse_expression("x > 1 ? tanh(0) : 9"), lookup), 0.0);
    EXPECT_THROW((void)evaluate(*parse_expression("y + 1"), lookup), ExpressionError);
    auto ints = [](const std::string&) -> std::optional<std::int64_t> { return 7; };
    EXPECT_EQ(evaluate_integer(*parse_expression("-7 / 2"), ints), -4); // floor division
    EXPECT_EQ(evaluate_integer(*parse_expression("n % 4 == 3"), ints), 1);
    EXPECT_THROW((void)evaluate_integer(*parse_expression("n / (n - 7)"), ints), ExpressionError);
}

TEST(Expression, Statements) {
    const Statement s = parse_statement("c[i, j] += a[i, k]*b[k, j]");
    EXPECT_EQ(s.op, AssignOp::add_assign);
    EXPECT_EQ(s.target->name, "c");
    const Statement atomic = parse_statement("atomic_add(h[3*c + v[p]], 1)");
    ASSERT_TRUE(atomic.atomic.has_value());
    EXPECT_EQ(*atomic.atomic, AtomicKind::add);
    const Statement scalar = parse_statement("acc = 0");
    EXPECT_EQ(scalar.target->kind, ExprKind::array_ref);
    EXPECT_TRUE(scalar.target->operands.empty());
}

TEST(Expression, SyntaxErrorsHaveOffsets) {
    auto offset_of = [](const char* text) {
        try {
            (void)parse_statement(text);
        } catch (const ExpressionError& e) {
            return e.offset();
        }
        return -1;
    };
    EXPECT_EQ(offset_of("a[i = 1"), 4);        // expected ']' at '='
    EXPECT_EQ(offset_of("a[i] = b[i] +"), 13); // end of text
    EXPECT_EQ(offset_of("a[i] = 3 # 4"), 9);   // unexpected character
    EXPECT_EQ(offset_of("a[i] 3"), 5);         // missing assignment
    EXPECT_EQ(offset_of("atomic_foo(a[i], 1)"), 0);
    EXPECT_EQ(offset_of("a[i] = 1x"), 7); // malformed number
}

// A character beyond ASCII is named whole, with its code point, so that the message stays
// valid UTF-8 (the Python module decodes it; a lone lead byte raised UnicodeDecodeError) and an
// invisible one can be seen.
TEST(Expression, UnexpectedCharactersAreNamedWholeWithTheirCodePoint) {
    const auto message_of = [](const std::string& text) {
        try {
            (void)parse_statement(text);
        } catch (const ExpressionError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(message_of("a[i] = 3 # 4"), "unexpected character '#'");
    EXPECT_EQ(message_of("a[i] = b[i] \u200b+ 1"), "unexpected character '\u200b' (U+200B)");
    EXPECT_EQ(message_of("a[i] = 2 \u00d7 b[i]"), "unexpected character '\u00d7' (U+00D7)");
    EXPECT_EQ(message_of("a[i] = \U0001F600"), "unexpected character '\U0001F600' (U+1F600)");
    EXPECT_EQ(message_of("a[i] = \xe2\x80"), "unexpected character byte 0xe2"); // cut short
    EXPECT_EQ(describe_character("x\xff", 1), "byte 0xff");
}

TEST(Expression, CompareAndSwapTakesACompareAndAValue) {
    const Statement cas = parse_statement("atomic_cas(flag[i], 0, i + 1)");
    ASSERT_TRUE(cas.atomic.has_value());
    EXPECT_EQ(*cas.atomic, AtomicKind::cas);
    ASSERT_NE(cas.compare, nullptr);
    EXPECT_EQ(to_string(*cas.compare), "0");
    ASSERT_NE(cas.value, nullptr);
    EXPECT_EQ(to_string(*cas.value), "i + 1");
    // Other atomics have no compare operand.
    EXPECT_EQ(parse_statement("atomic_exch(flag[i], 3)").compare, nullptr);
    // The old two-operand form names the expected one, at the closing parenthesis.
    try {
        (void)parse_statement("atomic_cas(flag[i], 1)");
        FAIL() << "expected an error";
    } catch (const ExpressionError& e) {
        EXPECT_NE(std::string(e.what()).find("atomic_cas(target, compare, value)"),
                  std::string::npos)
            << e.what();
        EXPECT_EQ(e.offset(), 21);
    }
    try {
        (void)parse_statement("atomic_cas(flag[i])");
        FAIL() << "expected an error";
    } catch (const ExpressionError& e) {
        EXPECT_NE(std::string(e.what()).find("atomic_cas(target, compare, value)"),
                  std::string::npos);
        EXPECT_EQ(e.offset(), 18);
    }
    EXPECT_THROW((void)parse_statement("atomic_cas(flag[i], 1, 2, 3)"), ExpressionError);
}

// ---- limits that keep recursive walks on the stack (issue 15) -------------------------------

namespace {

std::string error_text(const std::string& text, int* offset = nullptr) {
    try {
        (void)parse_expression(text);
    } catch (const ExpressionError& e) {
        if (offset)
            *offset = e.offset();
        return e.what();
    }
    return "";
}

std::string flat_sum(int terms) {
    std::string text = "a0";
    for (int k = 1; k < terms; ++k)
        text += " + a" + std::to_string(k);
    return text;
}

} // namespace

TEST(ExpressionLimits, DeepParenthesesAreAnErrorNotACrash) {
    const std::string deep = std::string(5000, '(') + "x" + std::string(5000, ')');
    int offset = -1;
    const std::string message = error_text(deep, &offset);
    EXPECT_NE(message.find("nested more than 200 levels"), std::string::npos) << message;
    EXPECT_EQ(offset, max_expression_nesting); // the first '(' past the limit
    // At the limit it parses.
    const int levels = max_expression_nesting - 1;
    EXPECT_EQ(error_text(std::string(levels, '(') + "x" + std::string(levels, ')')), "");
}

TEST(ExpressionLimits, UnaryChainsAndSubscriptsCountAsNesting) {
    EXPECT_NE(error_text(std::string(100000, '-') + "x").find("nested"), std::string::npos);
    EXPECT_NE(error_text(std::string(100000, '!') + "x").find("nested"), std::string::npos);
    std::string subscripts = "x";
    for (int k = 0; k < 1000; ++k)
        subscripts = "a[" + subscripts + "]";
    EXPECT_NE(error_text(subscripts).find("nested"), std::string::npos);
}

TEST(ExpressionLimits, LongFlatSumsAreAnErrorNotACrash) {
    // 20,000 terms (an 80 KB statement) in an expression and in a statement.
    const std::string sum = flat_sum(20000);
    int offset = -1;
    const std::string message = error_text(sum, &offset);
    EXPECT_NE(message.find("more than 1000 operators deep"), std::string::npos) << message;
    EXPECT_EQ(offset, 0); // a left-deep chain starts at its first term
    try {
        (void)parse_statement("y[i] = " + sum);
        ADD_FAILURE() << "no error";
    } catch (const ExpressionError& e) {
        EXPECT_NE(std::string(e.what()).find("operators deep"), std::string::npos);
    }
    // 1000 terms are 999 levels: within the limit, and evaluated exactly.
    const ExprPtr ok = parse_expression(flat_sum(max_expression_height));
    EXPECT_EQ(evaluate_integer(*ok, [](const std::string&) { return std::int64_t{2}; }),
              2 * max_expression_height);
}

TEST(ExpressionLimits, IntegerOverflowIsAnError) {
    auto evaluate = [](const std::string& text) {
        return evaluate_integer(*parse_expression(text),
                                [](const std::string&) { return std::int64_t{1} << 62; });
    };
    EXPECT_THROW(evaluate("n * 4"), ExpressionError);
    EXPECT_THROW(evaluate("n + n"), ExpressionError);
    EXPECT_THROW(evaluate("-n - n - n"), ExpressionError);
    EXPECT_THROW(evaluate("(-n - n) / -1"), ExpressionError);
    EXPECT_EQ(evaluate("(-n - n) % -1"), 0);
    EXPECT_EQ(evaluate("n + (n - 1)"), std::numeric_limits<std::int64_t>::max());
}

TEST(Expression, ReplaceSubexpressionsSharesWhatItKeeps) {
    const ExprPtr e = parse_expression("a[i] + sum(k, b[i, k]) * c[k]");
    const ExprPtr replaced = replace_subexpressions(e, [](const Expr& node) -> ExprPtr {
        return node.kind == ExprKind::variable && node.name == "i" ? parse_expression("j + 1")
                                                                   : nullptr;
    });
    EXPECT_EQ(to_string(*replaced), "a[j + 1] + sum(k, b[j + 1, k]) * c[k]");
    EXPECT_EQ(to_string(*e), "a[i] + sum(k, b[i, k]) * c[k]"); // the original is kept
    // c[k] holds no i: the result shares it with the original.
    EXPECT_EQ(replaced->operands[1]->operands[1], e->operands[1]->operands[1]);
    EXPECT_EQ(replace_subexpressions(nullptr, [](const Expr&) { return ExprPtr(); }), nullptr);
    EXPECT_EQ(replace_subexpressions(e, [](const Expr&) { return ExprPtr(); }), e);
}

TEST(Expression, StatementsPrintBackToWhatParses) {
    for (const char* text :
         {"c[i, j] = sum(k, a[i, k] * b[k, j])", "s[] += 2 * x[i]", "y[i] -= a[i]", "y[i] *= 3",
          "y[i] /= a[i] + 1", "atomic_add(h[b[i]], 1)", "atomic_inc(count[])",
          "atomic_cas(flag[0], 0, i)", "atomic_and(mask[i / 32], m[i])",
          "atomic_max(top[], v[i])"}) {
        SCOPED_TRACE(text);
        const Statement parsed = parse_statement(text);
        const std::string printed = to_string(parsed);
        const Statement again = parse_statement(printed);
        EXPECT_EQ(to_string(again), printed);
        EXPECT_EQ(again.op, parsed.op);
        EXPECT_EQ(again.atomic, parsed.atomic);
        EXPECT_EQ(to_string(*again.target), to_string(*parsed.target));
    }
    EXPECT_EQ(to_string(parse_statement("y[i]+=a[i]*2")), "y[i] += a[i] * 2");
    EXPECT_EQ(to_string(parse_statement("atomic_xor(w[0],v[i])")), "atomic_xor(w[0], v[i])");
}
