#include "kerncast/codegen/array_fill.hpp"

#include "kerncast/error.hpp"
#include "kerncast/runtime/half.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace kerncast::codegen {

namespace {

[[noreturn]] void fill_error(const ArrayFill& fill, const std::string& problem) {
    throw_input_error("--fill " + to_string(fill) + ": " + problem);
}

// The value's bytes in `type`, little-endian.
void append_value(const ArrayFill& fill, kernel::DataType type, const std::string& text,
                  std::vector<std::uint8_t>& bytes) {
    const int size = kernel::data_type_bytes(type);
    const auto append = [&](auto value) {
        unsigned char raw[sizeof(value)];
        std::memcpy(raw, &value, sizeof(value));
        bytes.insert(bytes.end(), raw, raw + sizeof(value));
    };
    if (kernel::is_floating(type)) {
        double value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value))
            fill_error(fill, "'" + text + "' is not a finite number");
        if (type == kernel::DataType::f16) {
            if (std::abs(value) > runtime::half_max_finite)
                fill_error(fill, "'" + text + "' is beyond the largest f16 (65504)");
            append(runtime::half_bits_from_double(value));
        } else if (type == kernel::DataType::f32) {
            if (std::abs(value) > std::numeric_limits<float>::max())
                fill_error(fill, "'" + text + "' is beyond the largest f32");
            append(static_cast<float>(value));
        } else {
            append(value);
        }
        return;
    }
    const bool is_signed = type == kernel::DataType::i8 || type == kernel::DataType::i16 ||
                           type == kernel::DataType::i32 || type == kernel::DataType::i64;
    const int bits = 8 * size;
    std::uint64_t word = 0;
    if (is_signed) {
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        const std::int64_t low = bits == 64 ? std::numeric_limits<std::int64_t>::min()
                                            : -(std::int64_t{1} << (bits - 1));
        const std::int64_t high = bits == 64 ? std::numeric_limits<std::int64_t>::max()
                                             : (std::int64_t{1} << (bits - 1)) - 1;
        if (error != std::errc{} || end != text.data() + text.size() || value < low || value > high)
            fill_error(fill, "'" + text + "' is not an integer " + kernel::data_type_name(type) +
                                 " holds (" + std::to_string(low) + " to " + std::to_string(high) +
                                 ")");
        word = static_cast<std::uint64_t>(value);
    } else {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        const std::uint64_t high =
            bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
        if (error != std::errc{} || end != text.data() + text.size() || value > high)
            fill_error(fill, "'" + text + "' is not an integer " + kernel::data_type_name(type) +
                                 " holds (0 to " + std::to_string(high) + ")");
        word = value;
    }
    for (int k = 0; k < size; ++k)
        bytes.push_back(static_cast<std::uint8_t>(word >> (8 * k)));
}

const ArrayStorage& filled_array(const Schedule& schedule, const ArrayFill& fill) {
    const ArrayStorage* array = schedule.find_array(fill.array);
    if (array == nullptr || array->accumulator) {
        std::string names;
        for (const auto& a : schedule.arrays)
            if (a.decl.space == kernel::MemorySpace::global ||
                a.decl.space == kernel::MemorySpace::constant)
                names += (names.empty() ? "" : ", ") + a.decl.name;
        fill_error(fill, "the kernel has no array '" + fill.array +
                             "' (its global and constant "
                             "arrays: " +
                             names + ")");
    }
    if (array->decl.space != kernel::MemorySpace::global &&
        array->decl.space != kernel::MemorySpace::constant)
        fill_error(fill, "'" + fill.array +
                             "' is not a global or constant array: only those are inputs the "
                             "run initialises");
    return *array;
}

} // namespace

ArrayFill parse_array_fill(std::string_view text) {
    const auto equals = text.find('=');
    ArrayFill fill;
    if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size())
        throw_usage_error("bad --fill '" + std::string(text) +
                          "': expected NAME=V1,V2,... (e.g. image=0,1,2,3)");
    fill.array = std::string(text.substr(0, equals));
    std::string_view rest = text.substr(equals + 1);
    while (true) {
        const auto comma = rest.find(',');
        const std::string_view value = rest.substr(0, comma);
        if (value.empty())
            throw_usage_error("bad --fill '" + std::string(text) + "': an empty value");
        fill.values.emplace_back(value);
        if (comma == std::string_view::npos)
            break;
        rest = rest.substr(comma + 1);
    }
    return fill;
}

std::string to_string(const ArrayFill& fill) {
    std::string text = fill.array + "=";
    for (std::size_t k = 0; k < fill.values.size(); ++k)
        text += (k ? "," : "") + fill.values[k];
    return text;
}

std::vector<std::uint8_t> fill_pattern(const Schedule& schedule, const ArrayFill& fill) {
    const ArrayStorage& array = filled_array(schedule, fill);
    const auto size = static_cast<std::size_t>(kernel::data_type_bytes(array.decl.dtype));
    if (fill.values.size() * size > runtime::max_pattern_bytes)
        fill_error(fill, std::to_string(fill.values.size()) + " values of " + std::to_string(size) +
                             " bytes exceed a period of " +
                             std::to_string(runtime::max_pattern_bytes) + " bytes");
    std::vector<std::uint8_t> period;
    for (const auto& value : fill.values)
        append_value(fill, array.decl.dtype, value, period);
    // Buffer byte j holds the byte j - offset * size of the array's elements.
    const std::size_t shift = static_cast<std::size_t>(array.offset) * size % period.size();
    std::vector<std::uint8_t> pattern(period.size());
    for (std::size_t k = 0; k < period.size(); ++k)
        pattern[k] = period[(k + period.size() - shift) % period.size()];
    return pattern;
}

void apply_array_fill(const Schedule& schedule, const ArrayFill& fill,
                      runtime::TimingRequest& request) {
    const std::vector<std::uint8_t> pattern = fill_pattern(schedule, fill);
    const auto set = [&](runtime::BufferSpec& buffer) {
        buffer.init = runtime::BufferInit::pattern;
        buffer.pattern = pattern;
    };
    for (auto& argument : request.arguments)
        if (auto* buffer = std::get_if<runtime::BufferSpec>(&argument);
            buffer && buffer->name == fill.array) {
            set(*buffer);
            return;
        }
    for (auto& symbol : request.constant_symbols)
        if (symbol.name == fill.array) {
            set(symbol);
            return;
        }
    fill_error(fill, "the generated kernel has no buffer for '" + fill.array + "'");
}

std::vector<ArrayFill> solid_input_fills(const Schedule& schedule) {
    std::vector<ArrayFill> fills;
    for (const auto& array : schedule.arrays) {
        if (array.decl.space != kernel::MemorySpace::global || array.written ||
            kernel::is_floating(array.decl.dtype) || array.extents.empty())
            continue;
        const std::int64_t extent = array.extents.back();
        const int bytes = kernel::data_type_bytes(array.decl.dtype);
        const bool is_signed =
            array.decl.dtype == kernel::DataType::i8 || array.decl.dtype == kernel::DataType::i16;
        const std::int64_t largest =
            bytes >= 4 ? std::numeric_limits<std::int32_t>::max()
                       : (std::int64_t{1} << (8 * bytes - (is_signed ? 1 : 0))) - 1;
        if (extent - 1 > largest ||
            static_cast<std::uint64_t>(extent) * bytes > runtime::max_pattern_bytes)
            throw_input_error(
                "the solid input of '" + array.decl.name +
                "' holds its innermost subscript, 0 to " + std::to_string(extent - 1) + ": " +
                (extent - 1 > largest
                     ? std::string("more than ") + kernel::data_type_name(array.decl.dtype) +
                           " holds"
                     : "a period over " + std::to_string(runtime::max_pattern_bytes) + " bytes"));
        ArrayFill fill{array.decl.name, {}};
        for (std::int64_t k = 0; k < extent; ++k)
            fill.values.push_back(std::to_string(k));
        fills.push_back(std::move(fill));
    }
    return fills;
}

} // namespace kerncast::codegen
