#include "kerncast/runtime/kernel_arguments.hpp"

#include "kerncast/error.hpp"
#include "kerncast/runtime/half.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace kerncast::runtime {

static std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = text.find(separator, begin);
        parts.emplace_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
        if (end == std::string_view::npos)
            return parts;
        begin = end + 1;
    }
}

template <typename Integer> static bool parse_integer(std::string_view text, Integer& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

static bool valid_identifier(std::string_view name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

// --buffer and --constant: name:dtype:count[:init]; `option` names the option in messages.
static BufferSpec parse_buffer_like(std::string_view text, const std::string& option) {
    const std::string form =
        "expected name:dtype:count[:hash|zero|pattern=HEX], e.g. x:f32:1048576";
    const auto parts = split(text, ':');
    if (parts.size() < 3 || parts.size() > 4)
        throw_usage_error("bad " + option + " '" + std::string(text) + "': " + form);
    BufferSpec buffer;
    buffer.name = parts[0];
    if (!valid_identifier(buffer.name))
        throw_usage_error("bad " + option + " '" + std::string(text) + "': '" + parts[0] +
                          "' is not a name (letters, digits, _)");
    const auto dtype = parse_dtype(parts[1]);
    if (!dtype)
        throw_usage_error("bad " + option + " '" + std::string(text) + "': unknown dtype '" +
                          parts[1] + "'; expected one of " + dtype_list());
    buffer.dtype = *dtype;
    if (!parse_integer(parts[2], buffer.count) || buffer.count < 1)
        throw_usage_error("bad " + option + " '" + std::string(text) + "': the count '" + parts[2] +
                          "' is not a positive integer");
    if (parts.size() == 4 && !parse_buffer_init_text(parts[3], buffer))
        throw_usage_error("bad " + option + " '" + std::string(text) +
                          "': unknown initialisation '" + parts[3] +
                          "'; expected hash, zero or pattern=HEX (1 to " +
                          std::to_string(max_pattern_bytes) + " bytes, two hex digits each)");
    return buffer;
}

std::string init_text(const BufferSpec& buffer) {
    if (buffer.init != BufferInit::pattern)
        return to_string(buffer.init);
    static constexpr char digits[] = "0123456789abcdef";
    std::string text = "pattern=";
    for (std::uint8_t byte : buffer.pattern) {
        text += digits[byte >> 4];
        text += digits[byte & 15];
    }
    return text;
}

bool parse_buffer_init_text(std::string_view text, BufferSpec& buffer) {
    if (const auto init = parse_buffer_init(text)) {
        buffer.init = *init;
        buffer.pattern.clear();
        return true;
    }
    constexpr std::string_view prefix = "pattern=";
    if (text.substr(0, prefix.size()) != prefix)
        return false;
    const std::string_view hex = text.substr(prefix.size());
    if (hex.empty() || hex.size() % 2 != 0 || hex.size() / 2 > max_pattern_bytes)
        return false;
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::vector<std::uint8_t> bytes;
    for (std::size_t k = 0; k < hex.size(); k += 2) {
        const int high = nibble(hex[k]);
        const int low = nibble(hex[k + 1]);
        if (high < 0 || low < 0)
            return false;
        bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
    }
    buffer.init = BufferInit::pattern;
    buffer.pattern = std::move(bytes);
    return true;
}

BufferSpec parse_buffer_spec(std::string_view text) {
    return parse_buffer_like(text, "--buffer");
}

BufferSpec parse_constant_spec(std::string_view text) {
    return parse_buffer_like(text, "--constant");
}

ScalarArgument parse_scalar_argument(std::string_view text) {
    const auto parts = split(text, ':');
    if (parts.size() != 3)
        throw_usage_error("bad --scalar '" + std::string(text) +
                          "': expected name:dtype:value, e.g. n:i32:1048576");
    ScalarArgument scalar;
    scalar.name = parts[0];
    if (!valid_identifier(scalar.name))
        throw_usage_error("bad --scalar '" + std::string(text) + "': '" + parts[0] +
                          "' is not a name (letters, digits, _)");
    const auto dtype = parse_dtype(parts[1]);
    if (!dtype)
        throw_usage_error("bad --scalar '" + std::string(text) + "': unknown dtype '" + parts[1] +
                          "'; expected one of " + dtype_list());
    scalar.dtype = *dtype;
    const std::string& value = parts[2];
    const auto bad_value = [&](const std::string& why) {
        throw_usage_error("bad --scalar '" + std::string(text) + "': " + why);
    };
    switch (scalar.dtype) {
    case DType::f16:
    case DType::f32:
    case DType::f64: {
        double real = 0;
        std::size_t used = 0;
        try {
            real = std::stod(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != value.size() || value.empty() || !std::isfinite(real))
            bad_value("'" + value + "' is not a finite real number");
        if (scalar.dtype == DType::f32 && std::abs(real) > std::numeric_limits<float>::max())
            bad_value("'" + value + "' does not fit in f32");
        if (scalar.dtype == DType::f16 && std::abs(real) > half_max_finite)
            bad_value("'" + value + "' does not fit in f16 (largest finite value 65504)");
        scalar.value = real;
        break;
    }
    case DType::i32:
    case DType::i64: {
        std::int64_t integer = 0;
        if (!parse_integer(value, integer))
            bad_value("'" + value + "' is not an integer");
        if (scalar.dtype == DType::i32 && (integer < std::numeric_limits<std::int32_t>::min() ||
                                           integer > std::numeric_limits<std::int32_t>::max()))
            bad_value("'" + value + "' does not fit in i32");
        scalar.value = integer;
        break;
    }
    case DType::u32:
    case DType::u64: {
        std::uint64_t integer = 0;
        if (!parse_integer(value, integer))
            bad_value("'" + value + "' is not a non-negative integer");
        if (scalar.dtype == DType::u32 && integer > std::numeric_limits<std::uint32_t>::max())
            bad_value("'" + value + "' does not fit in u32");
        scalar.value = integer;
        break;
    }
    }
    return scalar;
}

std::vector<unsigned char> scalar_bytes(const ScalarArgument& scalar) {
    std::vector<unsigned char> bytes(size_bytes(scalar.dtype));
    const auto store = [&](auto value) {
        static_assert(std::is_trivially_copyable_v<decltype(value)>);
        KERNCAST_CHECK(sizeof value == bytes.size(), "scalar size mismatch");
        std::memcpy(bytes.data(), &value, sizeof value);
    };
    const auto as_int = [&] {
        return std::holds_alternative<std::int64_t>(scalar.value)
                   ? std::get<std::int64_t>(scalar.value)
                   : static_cast<std::int64_t>(std::get<std::uint64_t>(scalar.value));
    };
    const auto as_uint = [&] {
        return std::holds_alternative<std::uint64_t>(scalar.value)
                   ? std::get<std::uint64_t>(scalar.value)
                   : static_cast<std::uint64_t>(std::get<std::int64_t>(scalar.value));
    };
    switch (scalar.dtype) {
    case DType::f16: // binary16 bits, rounded to nearest even
        store(half_bits_from_double(std::get<double>(scalar.value)));
        break;
    case DType::f32:
        store(static_cast<float>(std::get<double>(scalar.value)));
        break;
    case DType::f64:
        store(std::get<double>(scalar.value));
        break;
    case DType::i32:
        store(static_cast<std::int32_t>(as_int()));
        break;
    case DType::i64:
        store(as_int());
        break;
    case DType::u32:
        store(static_cast<std::uint32_t>(as_uint()));
        break;
    case DType::u64:
        store(as_uint());
        break;
    }
    return bytes;
}

std::string to_string(const BufferSpec& buffer) {
    return buffer.name + ":" + to_string(buffer.dtype) + ":" + std::to_string(buffer.count) + ":" +
           init_text(buffer);
}

std::string to_string(const ScalarArgument& scalar) {
    std::ostringstream text;
    text.precision(17);
    std::visit([&](auto v) { text << v; }, scalar.value);
    return scalar.name + ":" + to_string(scalar.dtype) + ":" + text.str();
}

} // namespace kerncast::runtime
