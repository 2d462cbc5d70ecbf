// Model expressions: precedence, the step of eq. (6), the overlap of eq. (5), smooth max/min,
// derivatives through the compiled expression (ceres::Jet) against finite differences, and
// syntax errors at their character.
#include "kerncast/models/calibrated/model_expression.hpp"

#include <ceres/jet.h>
#include <cmath>
#include <gtest/gtest.h>

using namespace kerncast::models::calibrated;

namespace {

struct Compiled {
    ModelSymbols symbols;
    CompiledExpression expression;
    double operator()(const std::vector<double>& p, const std::vector<double>& f) const {
        return expression.evaluate(p.data(), f.data());
    }
};

Compiled compile(const std::string& text) {
    Compiled c;
    c.expression = CompiledExpression(parse_model_expression(text, c.symbols));
    return c;
}

ModelSyntaxError error_of(const std::string& text) {
    try {
        ModelSymbols symbols;
        parse_model_expression(text, symbols);
    } catch (const ModelSyntaxError& e) {
        return e;
    }
    ADD_FAILURE() << text << " parsed";
    return ModelSyntaxError("", -1);
}

} // namespace

TEST(ModelExpression, PrecedenceAndAssociativity) {
    EXPECT_DOUBLE_EQ(compile("1 + 2*3^2")({}, {}), 19);
    EXPECT_DOUBLE_EQ(compile("-2^2")({}, {}), -4);
    EXPECT_DOUBLE_EQ(compile("2^3^2")({}, {}), 512);
    EXPECT_DOUBLE_EQ(compile("8/2/2 - 1 - 1")({}, {}), 0);
    EXPECT_DOUBLE_EQ(compile("(1 + 2)*3")({}, {}), 9);
    EXPECT_DOUBLE_EQ(compile("exp(log(5)) + tanh(0) + sqrt(16)")({}, {}), 9);
}

TEST(ModelExpression, FeaturesAndParametersAreIndexedInOrderOfUse) {
    const Compiled c = compile("p_madd * f_op_float32_madd + p_launch * f_sync_kernel_launch + "
                               "p_madd * f_op_float32_madd");
    ASSERT_EQ(c.symbols.parameters, (std::vector<std::string>{"p_madd", "p_launch"}));
    ASSERT_EQ(c.symbols.features.size(), 2u);
    EXPECT_EQ(c.symbols.features[1].name, "f_sync_kernel_launch");
    EXPECT_DOUBLE_EQ(c({2e-12, 1e-5}, {1e9, 1}), 2 * 2e-12 * 1e9 + 1e-5);
}

TEST(ModelExpression, StepAndOverlapOfTheUnitStep) {
    // Stevens & Klöckner eq. (6): s(x) = (tanh(p_edge x) + 1) / 2.
    const Compiled step = compile("step(p_x, p_edge)");
    EXPECT_DOUBLE_EQ(step({0.3, 10}, {}), (std::tanh(3.0) + 1) / 2);
    EXPECT_DOUBLE_EQ(step({0, 10}, {}), 0.5);
    // eq. (5): with a sharp step, overlap(a, b) = max(a, b).
    const Compiled overlap = compile("overlap(p_a, p_b, 1e6)");
    EXPECT_NEAR(overlap({3, 2}, {}), 3, 1e-12);
    EXPECT_NEAR(overlap({2, 3}, {}), 3, 1e-12);
    EXPECT_DOUBLE_EQ(overlap({2, 2}, {}), 2); // a/2 + b/2
    const Compiled smooth = compile("smax(p_a, p_b, 1e3) + smin(p_a, p_b, 1e3)");
    EXPECT_NEAR(smooth({3, 2}, {}), 5, 1e-9);
    EXPECT_NEAR(compile("smax(1, 1, 2)")({}, {}), 1 + std::log(2.0) / 2, 1e-15);
    // No overflow for large arguments.
    EXPECT_NEAR(compile("smax(1e6, 0, 10)")({}, {}), 1e6, 1e-9);
}

TEST(ModelExpression, JetDerivativesMatchFiniteDifferences) {
    const Compiled c = compile("p_o * f_thread_groups + overlap(p_g * f_op_float32_add, "
                               "p_l * f_op_float32_mul^1.5, p_edge) + p_o^2/exp(p_g)");
    const std::vector<double> features{100, 3e3, 4e2};
    const std::vector<double> at{1e-3, 2e-3, 1e-2, 40};
    using Jet = ceres::Jet<double, 4>;
    std::vector<Jet> jets;
    for (std::size_t i = 0; i < at.size(); ++i)
        jets.emplace_back(at[i], static_cast<int>(i));
    const Jet value = c.expression.evaluate(jets.data(), features.data());
    EXPECT_DOUBLE_EQ(value.a, c(at, features));
    for (std::size_t i = 0; i < at.size(); ++i) {
        const double h = 1e-6 * std::max(1.0, std::abs(at[i]));
        auto up = at, down = at;
        up[i] += h;
        down[i] -= h;
        const double numeric = (c(up, features) - c(down, features)) / (2 * h);
        EXPECT_NEAR(value.v[static_cast<int>(i)], numeric, 1e-6 * std::max(1.0, std::abs(numeric)))
            << c.symbols.parameters[i];
    }
}

TEST(ModelExpression, ErrorsPointAtTheOffendingCharacter) {
    EXPECT_EQ(error_of("p_a * ").offset(), 6);
    EXPECT_EQ(error_of("p_a + (p_b").offset(), 10);
    EXPECT_EQ(error_of("p_a p_b").offset(), 4);
    EXPECT_EQ(error_of("p_a # 2").offset(), 4);
    EXPECT_EQ(error_of("2 * f_op_float32_madd + f_op_float32_mad").offset(), 37);
    EXPECT_EQ(error_of("2 * f_op_float32_madd + f_op_float32_mad").suggestions().front(),
              "f_op_float32_madd");
    const ModelSyntaxError function = error_of("1 + tnh(p_a)");
    EXPECT_EQ(function.offset(), 4);
    EXPECT_EQ(function.suggestions().front(), "tanh");
    EXPECT_EQ(error_of("step(p_a)").offset(), 0);
    const ModelSyntaxError name = error_of("c_gmem + 1");
    EXPECT_EQ(name.offset(), 0);
    EXPECT_EQ(error_of("1.5.5e").offset(), 0);
    EXPECT_EQ(error_of("f_mem_access_lstrides:{0:1").offset(), 22);
}

TEST(ModelExpression, DefinitionsAreInlined) {
    ModelSymbols symbols;
    symbols.definitions["c_gmem"] = parse_model_expression("p_g * f_mem_access_global", symbols);
    const CompiledExpression e(parse_model_expression("2*c_gmem + p_o", symbols));
    const std::vector<double> p{3, 1};
    const std::vector<double> f{5};
    EXPECT_DOUBLE_EQ(e.evaluate(p.data(), f.data()), 31);
    EXPECT_EQ(model_expression_text(parse_model_expression("2*c_gmem + p_o", symbols), symbols),
              "((2 * (p_g * f_mem_access_global)) + p_o)");
}
