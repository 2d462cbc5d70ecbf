// The one evaluation core of the expression AST. The language has three evaluations: formulas
// in double precision (kernel::evaluate: cost models, shapes), exact 64-bit integers
// (kernel::evaluate_integer: shapes, offsets, assumptions) and the reference interpreter's
// host execution of a kernel (codegen/reference_interpreter.cpp: array elements, integer or
// floating division by the operands' types). They differ only at the leaves and in the
// arithmetic of one operator, so the traversal, the control flow (?:, !, && and ||) and the
// order of evaluation live here once, and each evaluation is a Semantics policy:
//
//   struct Semantics {
//       using Value = ...;                          // double, std::int64_t
//       static constexpr bool short_circuit = ...;  // && and || skip their right operand
//       Value integer(const Expr&);  Value real(const Expr&);
//       Value variable(const Expr&); Value array_ref(const Expr&); Value reduction(const Expr&);
//       Value negate(const Expr&, Value);
//       Value binary(const Expr&, Value, Value);    // every BinaryOp but && and ||
//       Value call(const Expr&, const auto& arguments); // arguments() evaluates them all
//       bool truth(Value);  Value boolean(bool);
//   };
//
// A call's semantics receives its arguments unevaluated (a callable) so that it can check
// the function and its arity first: the errors name the call before any argument.
#pragma once

#include "kerncast/kernel/expression.hpp"

#include <vector>

namespace kerncast::kernel {

template <class Semantics>
typename Semantics::Value evaluate_with(const Expr& e, Semantics& semantics) {
    using Value = typename Semantics::Value;
    auto operand = [&](size_t k) { return evaluate_with(*e.operands[k], semantics); };
    switch (e.kind) {
    case ExprKind::integer:
        return semantics.integer(e);
    case ExprKind::real:
        return semantics.real(e);
    case ExprKind::variable:
        return semantics.variable(e);
    case ExprKind::array_ref:
        return semantics.array_ref(e);
    case ExprKind::reduction:
        return semantics.reduction(e);
    case ExprKind::negate:
        return semantics.negate(e, operand(0));
    case ExprKind::logical_not:
        return semantics.boolean(!semantics.truth(operand(0)));
    case ExprKind::conditional:
        return semantics.truth(operand(0)) ? operand(1) : operand(2);
    case ExprKind::binary:
        if (e.op == BinaryOp::logical_and || e.op == BinaryOp::logical_or) {
            const bool and_ = e.op == BinaryOp::logical_and;
            if constexpr (Semantics::short_circuit) {
                const bool left = semantics.truth(operand(0));
                if (left != and_)
                    return semantics.boolean(left);
                return semantics.boolean(semantics.truth(operand(1)));
            } else {
                const bool left = semantics.truth(operand(0));
                const bool right = semantics.truth(operand(1));
                return semantics.boolean(and_ ? left && right : left || right);
            }
        } else {
            const Value left = operand(0);
            const Value right = operand(1);
            return semantics.binary(e, left, right);
        }
    case ExprKind::call: {
        auto arguments = [&]() {
            std::vector<Value> values;
            values.reserve(e.operands.size());
            for (size_t k = 0; k < e.operands.size(); ++k)
                values.push_back(operand(k));
            return values;
        };
        return semantics.call(e, arguments);
    }
    }
    return semantics.reduction(e); // unreachable: every kind is handled above
}

} // namespace kerncast::kernel
