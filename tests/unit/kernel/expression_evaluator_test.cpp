// The one evaluation core: a counting semantics records the order the core visits nodes and
// whether && / || short-circuit; evaluate and evaluate_integer agree on integer formulas.
#include "kerncast/kernel/expression_evaluator.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace kerncast::kernel;

namespace {

// Values are the variables' lengths; records every leaf visited, in order.
template <bool ShortCircuit> struct Recording {
    using Value = long;
    static constexpr bool short_circuit = ShortCircuit;
    std::vector<std::string> visited;

    long integer(const Expr& e) { return e.integer_value; }
    long real(const Expr& e) { return static_cast<long>(e.real_value); }
    long variable(const Expr& e) {
        visited.push_back(e.name);
        return static_cast<long>(e.name.size());
    }
    long array_ref(const Expr& e) {
        visited.push_back(e.name + "[]");
        return 100;
    }
    long reduction(const Expr&) { return -1; }
    long negate(const Expr&, long a) { return -a; }
    bool truth(long a) { return a != 0; }
    long boolean(bool b) { return b ? 1 : 0; }
    long binary(const Expr& e, long a, long b) {
        return e.op == BinaryOp::add ? a + b : e.op == BinaryOp::mul ? a * b : a - b;
    }
    template <class Arguments> long call(const Expr& e, const Arguments& arguments) {
        visited.push_back(e.name + "()");
        long total = 0;
        for (long v : arguments())
            total += v;
        return total;
    }
};

template <bool ShortCircuit> std::pair<long, std::vector<std::string>> run(const char* text) {
    Recording<ShortCircuit> semantics;
    const long value = evaluate_with(*parse_expression(text), semantics);
    return {value, semantics.visited};
}

} // namespace

TEST(ExpressionEvaluator, VisitsLeavesLeftToRightAndCallsBeforeTheirArguments) {
    const auto [value, visited] = run<false>("ab * (c + f(d, e[1]))");
    EXPECT_EQ(value, 2 * (1 + (1 + 100)));
    EXPECT_EQ(visited, (std::vector<std::string>{"ab", "c", "f()", "d", "e[]"}));
}

TEST(ExpressionEvaluator, ShortCircuitIsTheSemanticsChoice) {
    // 0 && b: the right operand is skipped only when the semantics short-circuits.
    EXPECT_EQ(run<true>("0 && b").second, std::vector<std::string>{});
    EXPECT_EQ(run<false>("0 && b").second, std::vector<std::string>{"b"});
    EXPECT_EQ(run<true>("a || b").second, std::vector<std::string>{"a"});
    EXPECT_EQ(run<true>("a || b").first, 1);
    EXPECT_EQ(run<true>("0 || b").first, 1);
    EXPECT_EQ(run<false>("0 || 0").first, 0);
}

TEST(ExpressionEvaluator, ConditionalEvaluatesOnlyTheChosenBranch) {
    EXPECT_EQ(run<false>("0 ? a : bb"), (std::pair<long, std::vector<std::string>>{2, {"bb"}}));
    EXPECT_EQ(run<false>("!0 ? a : bb"), (std::pair<long, std::vector<std::string>>{1, {"a"}}));
}

TEST(ExpressionEvaluator, FloatingAndIntegerEvaluationsAgreeOnIntegerFormulas) {
    const IntegerLookup integer_lookup =
        [](const std::string& name) -> std::optional<std::int64_t> {
        return name == "n" ? std::optional<std::int64_t>(12) : std::nullopt;
    };
    const VariableLookup real_lookup = [](const std::string& name) -> std::optional<double> {
        return name == "n" ? std::optional<double>(12.0) : std::nullopt;
    };
    for (const char* text : {"n * (n + 1) - 3", "min(n, 4, 9) + max(n - 20, 2)", "n > 3 && n < 20",
                             "!(n == 12) ? 7 : -n", "n >= 12 || n < 0"}) {
        const ExprPtr e = parse_expression(text);
        EXPECT_DOUBLE_EQ(evaluate(*e, real_lookup),
                         static_cast<double>(evaluate_integer(*e, integer_lookup)))
            << text;
    }
    // The integer evaluation divides by floor; the floating one does not.
    const ExprPtr half = parse_expression("(0 - n - 1) / 2");
    EXPECT_EQ(evaluate_integer(*half, integer_lookup), -7);
    EXPECT_DOUBLE_EQ(evaluate(*half, real_lookup), -6.5);
}
