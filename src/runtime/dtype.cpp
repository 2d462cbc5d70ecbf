#include "kerncast/runtime/dtype.hpp"

namespace kerncast::runtime {

namespace {
struct DTypeInfo {
    DType dtype;
    const char* name;
    std::size_t bytes;
};
constexpr DTypeInfo dtypes[] = {
    {DType::f16, "f16", 2}, {DType::f32, "f32", 4}, {DType::f64, "f64", 8}, {DType::i32, "i32", 4},
    {DType::i64, "i64", 8}, {DType::u32, "u32", 4}, {DType::u64, "u64", 8},
};
} // namespace

std::optional<DType> parse_dtype(std::string_view name) {
    for (const auto& info : dtypes)
        if (name == info.name)
            return info.dtype;
    return std::nullopt;
}

const char* to_string(DType dtype) {
    for (const auto& info : dtypes)
        if (info.dtype == dtype)
            return info.name;
    return "?";
}

std::size_t size_bytes(DType dtype) {
    for (const auto& info : dtypes)
        if (info.dtype == dtype)
            return info.bytes;
    return 0;
}

std::string dtype_list() {
    std::string list;
    for (const auto& info : dtypes)
        list += (list.empty() ? "" : ", ") + std::string(info.name);
    return list;
}

std::optional<BufferInit> parse_buffer_init(std::string_view name) {
    if (name == "hash")
        return BufferInit::hash;
    if (name == "zero")
        return BufferInit::zero;
    return std::nullopt;
}

const char* to_string(BufferInit init) {
    switch (init) {
    case BufferInit::hash:
        return "hash";
    case BufferInit::zero:
        return "zero";
    case BufferInit::pattern:
        return "pattern";
    }
    return "hash";
}

} // namespace kerncast::runtime
