// The comparison operators on values of any ordered type: one definition for the evaluators
// that apply BinaryOp to numbers (the real and integer evaluators of expression.cpp, codegen's
// reference interpreter); each keeps its own arithmetic (overflow checks, floor division).
#pragma once

#include "kerncast/error.hpp"
#include "kerncast/kernel/expression.hpp"

namespace kerncast::kernel {

// a op b for a comparison operator (is_comparison(op)).
template <class T> bool compare(BinaryOp op, const T& a, const T& b) {
    switch (op) {
    case BinaryOp::less:
        return a < b;
    case BinaryOp::less_equal:
        return a <= b;
    case BinaryOp::greater:
        return a > b;
    case BinaryOp::greater_equal:
        return a >= b;
    case BinaryOp::equal:
        return a == b;
    case BinaryOp::not_equal:
        return a != b;
    default:
        KERNCAST_CHECK(false, std::string("compare() of the non-comparison operator ") +
                                  binary_op_symbol(op));
        return false;
    }
}

} // namespace kerncast::kernel
