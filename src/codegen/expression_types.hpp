// Private: static types of kernel-language expressions in a schedule (for printing C) and the
// row-major flattening of array subscripts (shared by the code generator and the interpreter).
#pragma once

#include "kerncast/codegen/schedule.hpp"

namespace kerncast::codegen::detail {

// The type of an expression: a dtype, or an untyped literal (integer or real) that takes the
// type of what it meets.
struct ValueType {
    bool literal = false;
    bool real = false; // literal only
    kernel::DataType dtype = kernel::DataType::i32;

    bool is_integer() const { return literal ? !real : !kernel::is_floating(dtype); }
};

ValueType type_of(const Schedule& schedule, const kernel::Expr& expr);
ValueType promote(ValueType a, ValueType b);

// offset + row-major flattening of `subscripts` for `array`, as an expression.
kernel::ExprPtr flat_index(const ArrayStorage& array,
                           const std::vector<kernel::ExprPtr>& subscripts);

} // namespace kerncast::codegen::detail
