// Element types of kernel buffers and scalar arguments, and how buffers are initialised.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kerncast::runtime {

enum class DType { f32, f64, i32, i64, u32, u64 };

std::optional<DType> parse_dtype(std::string_view name); // "f32", ...
const char* to_string(DType dtype);
std::size_t size_bytes(DType dtype);
// "f32, f64, i32, i64, u32, u64" for messages.
std::string dtype_list();

// hash: every element is a deterministic function of (buffer name, index) (deterministic_init.hpp);
// zero: all bytes zero.
enum class BufferInit { hash, zero };

std::optional<BufferInit> parse_buffer_init(std::string_view name);
const char* to_string(BufferInit init);

} // namespace kerncast::runtime
