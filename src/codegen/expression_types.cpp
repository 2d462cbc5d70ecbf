#include "expression_types.hpp"

#include "expr_build.hpp"

namespace kerncast::codegen::detail {

using kernel::DataType;
using kernel::Expr;
using kernel::ExprKind;

namespace {

bool is_unsigned(DataType type) {
    return type == DataType::u8 || type == DataType::u16 || type == DataType::u32 ||
           type == DataType::u64;
}

ValueType typed(DataType type) {
    ValueType t;
    t.dtype = type;
    return t;
}

} // namespace

// The usual arithmetic conversions (C), with literals adopting the other operand's type; an
// integer meeting a real literal becomes f64.
ValueType promote(ValueType a, ValueType b) {
    if (a.literal && b.literal) {
        ValueType t;
        t.literal = true;
        t.real = a.real || b.real;
        return t;
    }
    if (a.literal)
        std::swap(a, b);
    if (b.literal)
        return b.real && !kernel::is_floating(a.dtype) ? typed(DataType::f64) : a;
    const bool fa = kernel::is_floating(a.dtype), fb = kernel::is_floating(b.dtype);
    if (fa != fb)
        return fa ? a : b;
    const int ba = kernel::data_type_bytes(a.dtype), bb = kernel::data_type_bytes(b.dtype);
    if (!fa && ba < 4 && bb < 4)
        return typed(DataType::i32); // integer promotion
    if (ba != bb)
        return ba > bb ? a : b;
    return is_unsigned(a.dtype) ? a : b;
}

ValueType type_of(const Schedule& schedule, const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::integer: {
        ValueType t;
        t.literal = true;
        return t;
    }
    case ExprKind::real: {
        ValueType t;
        t.literal = true;
        t.real = true;
        return t;
    }
    case ExprKind::variable:
    case ExprKind::array_ref:
        if (const ArrayStorage* array = schedule.find_array(expr.name)) // f16 reads as float
            return typed(array->decl.dtype == DataType::f16 ? DataType::f32 : array->decl.dtype);
        return typed(DataType::i32); // index, parameter or launch name
    case ExprKind::negate:
        return type_of(schedule, *expr.operands.at(0));
    case ExprKind::logical_not:
        return typed(DataType::i32);
    case ExprKind::binary:
        if (kernel::is_comparison(expr.op) || expr.op == kernel::BinaryOp::logical_and ||
            expr.op == kernel::BinaryOp::logical_or)
            return typed(DataType::i32);
        return promote(type_of(schedule, *expr.operands.at(0)),
                       type_of(schedule, *expr.operands.at(1)));
    case ExprKind::conditional:
        return promote(type_of(schedule, *expr.operands.at(1)),
                       type_of(schedule, *expr.operands.at(2)));
    case ExprKind::reduction:
        return type_of(schedule, *expr.operands.at(0));
    case ExprKind::call: {
        if (expr.name == "select")
            return promote(type_of(schedule, *expr.operands.at(1)),
                           type_of(schedule, *expr.operands.at(2)));
        ValueType t = type_of(schedule, *expr.operands.at(0));
        for (size_t k = 1; k < expr.operands.size(); ++k)
            t = promote(t, type_of(schedule, *expr.operands[k]));
        const bool keeps_integer = expr.name == "min" || expr.name == "max" || expr.name == "abs";
        if (!keeps_integer && t.is_integer())
            return typed(DataType::f64);
        if (t.literal && t.real && !keeps_integer)
            return typed(DataType::f64);
        return t;
    }
    }
    return typed(DataType::i32);
}

kernel::ExprPtr flat_index(const ArrayStorage& array,
                           const std::vector<kernel::ExprPtr>& subscripts) {
    kernel::ExprPtr flat;
    for (size_t k = 0; k < subscripts.size(); ++k) {
        const bool zero =
            subscripts[k]->kind == kernel::ExprKind::integer && subscripts[k]->integer_value == 0;
        if (!flat && zero && k + 1 < subscripts.size())
            continue; // a leading 0 adds nothing: pdf[0, z, y, x] -> (z * ny + y) * nx + x
        if (!flat)
            flat = subscripts[k];
        else
            flat = make_binary(
                kernel::BinaryOp::add,
                make_binary(kernel::BinaryOp::mul, flat, make_integer(array.extents.at(k))),
                subscripts[k]);
    }
    if (!flat)
        flat = make_integer(0);
    if (array.offset != 0)
        flat = make_binary(kernel::BinaryOp::add, make_integer(array.offset), flat);
    try { // constant subscripts (w[1, 2]) fold to one number
        const kernel::AffineForm form = kernel::to_affine(*flat);
        if (form.is_constant())
            return make_integer(form.constant);
    } catch (const kernel::ExpressionError&) {
        // not affine (an indirect subscript): printed as it is
    }
    return flat;
}

} // namespace kerncast::codegen::detail
