// Element types of kernel buffers and scalar arguments, and how buffers are initialised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kerncast::runtime {

// f16 is IEEE binary16 (CUDA's __half; host conversion in half.hpp).
enum class DType { f16, f32, f64, i32, i64, u32, u64 };

std::optional<DType> parse_dtype(std::string_view name); // "f16", "f32", ...
const char* to_string(DType dtype);
std::size_t size_bytes(DType dtype);
// "f16, f32, f64, i32, i64, u32, u64" for messages.
std::string dtype_list();

// hash: every element is a deterministic function of (buffer name, index) (deterministic_init.hpp);
// zero: all bytes zero; pattern: the bytes of one period repeated from the first byte on
// (BufferSpec::pattern, kernel_arguments.hpp).
enum class BufferInit { hash, zero, pattern };

// "hash" or "zero" (a pattern's text carries its bytes: parse_buffer_init_text).
std::optional<BufferInit> parse_buffer_init(std::string_view name);
const char* to_string(BufferInit init); // "hash", "zero", "pattern"

} // namespace kerncast::runtime
