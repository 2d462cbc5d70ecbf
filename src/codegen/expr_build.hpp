// Private: building kernel-language expressions in code (for guards, accumulators).
#pragma once

#include "kerncast/kernel/expression.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kerncast::codegen::detail {

inline kernel::ExprPtr make_integer(std::int64_t value) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::integer;
    e->integer_value = value;
    return e;
}

inline kernel::ExprPtr make_variable(const std::string& name) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::variable;
    e->name = name;
    return e;
}

inline kernel::ExprPtr make_binary(kernel::BinaryOp op, kernel::ExprPtr lhs, kernel::ExprPtr rhs) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::binary;
    e->op = op;
    e->operands = {std::move(lhs), std::move(rhs)};
    return e;
}

inline kernel::ExprPtr make_negate(kernel::ExprPtr operand) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::negate;
    e->operands = {std::move(operand)};
    return e;
}

inline kernel::ExprPtr make_call(const std::string& name, std::vector<kernel::ExprPtr> args) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::call;
    e->name = name;
    e->operands = std::move(args);
    return e;
}

inline kernel::ExprPtr make_conditional(kernel::ExprPtr c, kernel::ExprPtr x, kernel::ExprPtr y) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::conditional;
    e->operands = {std::move(c), std::move(x), std::move(y)};
    return e;
}

inline kernel::ExprPtr make_array_ref(const std::string& name,
                                      std::vector<kernel::ExprPtr> subscripts) {
    auto e = std::make_shared<kernel::Expr>();
    e->kind = kernel::ExprKind::array_ref;
    e->name = name;
    e->operands = std::move(subscripts);
    return e;
}

// a && b where either may be null (= true).
inline kernel::ExprPtr conjunction(kernel::ExprPtr a, kernel::ExprPtr b) {
    if (!a)
        return b;
    if (!b)
        return a;
    return make_binary(kernel::BinaryOp::logical_and, std::move(a), std::move(b));
}

} // namespace kerncast::codegen::detail
