// Private: atomics CUDA has no function for, emulated with a compare-and-swap loop in a small
// __device__ helper (docs/codegen.md, "Atomics"): min, max and cas on reals, and every atomic
// on 1- and 2-byte elements except the f16 add.
#pragma once

#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <string>

namespace kerncast::codegen::detail {

// Whether `kind` on `type` elements needs the compare-and-swap loop helper.
bool needs_cas_loop(kernel::DataType type, kernel::AtomicKind kind);

// The C type an atomic's operands and arithmetic have: the element type, f16 computes in float.
const char* atomic_operand_type_name(kernel::DataType type);

// "kc_atomic_max_f32".
std::string atomic_helper_name(kernel::DataType type, kernel::AtomicKind kind);

// The helper's definition: `V kc_atomic_<kind>_<dtype>(T* address, [T compare,] T value)`, where
// T is the element type and V the operand type; it returns the element's old value.
std::string atomic_helper_source(kernel::DataType type, kernel::AtomicKind kind);

} // namespace kerncast::codegen::detail
