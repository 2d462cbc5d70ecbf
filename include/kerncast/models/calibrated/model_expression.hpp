// Model expressions of calibrated cost models (Stevens & Klöckner, sec. 6-7): arithmetic over
// kernel features `f_...`, parameters `p_...` and named sub-expressions, with + - * / ^,
// exp, log, tanh, sqrt, the smooth step of eq. (6), the overlap of eq. (5), smooth max/min
// (docs/model-format.md, "Expressions"). The parsed tree is compiled to a postfix program
// evaluated for doubles (prediction) and for Ceres jets (derivatives for calibration).
#pragma once

#include "kerncast/models/calibrated/feature.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerncast::models::calibrated {

// A syntax or name error inside an expression: the offset of the offending character and
// suggestions ("did you mean").
class ModelSyntaxError : public std::runtime_error {
public:
    ModelSyntaxError(std::string message, int offset, std::vector<std::string> suggestions = {})
        : std::runtime_error(std::move(message)), offset_(offset),
          suggestions_(std::move(suggestions)) {}
    int offset() const { return offset_; }
    const std::vector<std::string>& suggestions() const { return suggestions_; }

private:
    int offset_;
    std::vector<std::string> suggestions_;
};

enum class ModelOp {
    constant,
    feature,   // index into the model's features
    parameter, // index into the model's parameters
    negate,
    add,
    subtract,
    multiply,
    divide,
    power,
    exp,
    log,
    tanh,
    sqrt,
    step,       // step(x, edge) = (tanh(edge x) + 1) / 2, Stevens & Klöckner eq. (6)
    smooth_max, // smax(a, b, k) = log(exp(k a) + exp(k b)) / k
    smooth_min, // smin(a, b, k) = -smax(-a, -b, k)
};

struct ModelNode;
using ModelNodePtr = std::shared_ptr<const ModelNode>;
struct ModelNode {
    ModelOp op = ModelOp::constant;
    double value = 0; // constant
    int index = 0;    // feature / parameter
    int offset = 0;   // in the expression text
    std::vector<ModelNodePtr> operands;
};

// Names an expression may use: the model's features and parameters (indices are positions in
// these lists; new names are appended as they are met) and the definitions made so far.
struct ModelSymbols {
    std::vector<FeatureSpec> features;
    std::vector<std::string> parameters;
    std::map<std::string, ModelNodePtr> definitions;
    // Position of the first use of each feature / parameter in its text, for messages.
    int feature_index(const FeatureSpec& feature);
    int parameter_index(const std::string& name);
};

// Parses `text`; features and parameters it uses are added to `symbols`. Throws
// ModelSyntaxError (offset into text).
ModelNodePtr parse_model_expression(const std::string& text, ModelSymbols& symbols);

// The tree in postfix form: what evaluation runs.
struct ModelInstruction {
    ModelOp op = ModelOp::constant;
    int index = 0;
    double value = 0;
};

class CompiledExpression {
public:
    CompiledExpression() = default;
    explicit CompiledExpression(const ModelNodePtr& root);

    // The expression at these parameter values (T = double or a ceres::Jet) and feature values.
    template <class T> T evaluate(const T* parameters, const double* features) const;

    std::size_t size() const { return code_.size(); }

private:
    std::vector<ModelInstruction> code_;
    std::size_t max_stack_ = 0;
};

// The canonical text of a tree (for reports and tests): fully parenthesised.
std::string model_expression_text(const ModelNodePtr& node, const ModelSymbols& symbols);

template <class T> T CompiledExpression::evaluate(const T* p, const double* f) const {
    using std::exp;
    using std::log;
    using std::pow;
    using std::sqrt;
    using std::tanh;
    std::vector<T> stack;
    stack.reserve(max_stack_);
    auto pop = [&stack] {
        T top = stack.back();
        stack.pop_back();
        return top;
    };
    // log(exp(k a) + exp(k b)) / k, shifted by the larger argument so that exp cannot
    // overflow.
    auto smooth_max = [](const T& a, const T& b, const T& k) {
        const T high = a > b ? a : b;
        return high + log(exp(k * (a - high)) + exp(k * (b - high))) / k;
    };
    for (const auto& in : code_) {
        switch (in.op) {
        case ModelOp::constant:
            stack.push_back(T(in.value));
            break;
        case ModelOp::feature:
            stack.push_back(T(f[in.index]));
            break;
        case ModelOp::parameter:
            stack.push_back(p[in.index]);
            break;
        case ModelOp::negate:
            stack.back() = -stack.back();
            break;
        case ModelOp::exp:
            stack.back() = exp(stack.back());
            break;
        case ModelOp::log:
            stack.back() = log(stack.back());
            break;
        case ModelOp::tanh:
            stack.back() = tanh(stack.back());
            break;
        case ModelOp::sqrt:
            stack.back() = sqrt(stack.back());
            break;
        case ModelOp::add: {
            const T b = pop();
            stack.back() = stack.back() + b;
            break;
        }
        case ModelOp::subtract: {
            const T b = pop();
            stack.back() = stack.back() - b;
            break;
        }
        case ModelOp::multiply: {
            const T b = pop();
            stack.back() = stack.back() * b;
            break;
        }
        case ModelOp::divide: {
            const T b = pop();
            stack.back() = stack.back() / b;
            break;
        }
        case ModelOp::power: {
            if (in.index == 1) { // constant exponent
                stack.back() = pow(stack.back(), in.value);
            } else {
                const T b = pop();
                stack.back() = pow(stack.back(), b);
            }
            break;
        }
        case ModelOp::step: {
            const T edge = pop();
            stack.back() = (tanh(edge * stack.back()) + T(1.0)) / T(2.0);
            break;
        }
        case ModelOp::smooth_max:
        case ModelOp::smooth_min: {
            const T k = pop();
            const T b = pop();
            const T a = stack.back();
            stack.back() =
                in.op == ModelOp::smooth_max ? smooth_max(a, b, k) : -smooth_max(-a, -b, k);
            break;
        }
        }
    }
    return stack.back();
}

} // namespace kerncast::models::calibrated
