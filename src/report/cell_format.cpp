#include "kerncast/report/cell_format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace kerncast::report {

std::string shortest_double(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

static std::string fixed_double(double value, int precision) {
    if (!std::isfinite(value))
        return shortest_double(value);
    std::array<char, 512> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                      std::chars_format::fixed, precision);
    std::string text(buffer.data(), result.ptr);
    if (text == "-0" ||
        (text.rfind("-0.", 0) == 0 && text.find_first_not_of("-0.") == std::string::npos))
        text.erase(0, 1); // "-0.00" reads as "0.00"
    return text;
}

std::string readable_double(double value) {
    if (!std::isfinite(value))
        return shortest_double(value);
    const double magnitude = std::abs(value);
    const double nearest = std::round(value);
    // Whole up to rounding noise in the last digits (13200.000000000002); below 1 only 0 is.
    const bool whole =
        value == 0 || (magnitude >= 1 && std::abs(value - nearest) <= 1e-9 * magnitude);
    if ((whole || magnitude >= 1e5) && magnitude < 1e18) {
        const auto integer = static_cast<long long>(nearest);
        return std::to_string(integer == 0 ? 0LL : integer); // no "-0"
    }
    std::array<char, 64> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%.6g", value);
    return buffer.data();
}

std::string format_cell(const Cell& cell, int precision) {
    struct Visitor {
        int precision;
        std::string operator()(std::monostate) const { return "-"; }
        std::string operator()(bool b) const { return b ? "yes" : "no"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const {
            return precision >= 0 ? fixed_double(d, precision) : readable_double(d);
        }
        std::string operator()(const std::string& s) const { return s; }
    };
    return std::visit(Visitor{precision}, cell);
}

std::string format_cell_exact(const Cell& cell) {
    struct Visitor {
        std::string operator()(std::monostate) const { return ""; }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t i) const { return std::to_string(i); }
        std::string operator()(double d) const { return shortest_double(d); }
        std::string operator()(const std::string& s) const { return s; }
    };
    return std::visit(Visitor{}, cell);
}

bool is_numeric(const Cell& cell) {
    return std::holds_alternative<std::int64_t>(cell) || std::holds_alternative<double>(cell);
}

std::string header_with_unit(const Column& column) {
    const std::string& name = column.header.empty() ? column.key : column.header;
    return column.unit.empty() ? name : name + " (" + column.unit + ")";
}

} // namespace kerncast::report
