// The text layout of machine files (machine_layout.hpp).
#include "machine_layout.hpp"

#include <algorithm>

namespace kerncast::machine_format {
namespace {

// Machine-file text as people write it: keys in the documented order, and objects or arrays
// of plain values on one line when they fit in 100 columns.
std::string one_line(const nlohmann::ordered_json& value) {
    std::string text;
    if (value.is_object()) {
        for (const auto& [key, member] : value.items())
            text +=
                (text.empty() ? "" : ", ") + nlohmann::json(key).dump() + ": " + one_line(member);
        return "{" + text + "}";
    }
    if (value.is_array()) {
        for (const auto& element : value)
            text += (text.empty() ? "" : ", ") + one_line(element);
        return "[" + text + "]";
    }
    return value.dump();
}

void append_pretty(std::string& out, const nlohmann::ordered_json& value, std::size_t indent,
                   std::size_t prefix_width) {
    constexpr std::size_t width_limit = 100;
    if (!value.is_structured() || value.empty()) {
        out += value.dump();
        return;
    }
    const bool flat = std::none_of(value.begin(), value.end(), [](const auto& element) {
        return element.is_structured() && !(element.is_object() && element.contains("value"));
    });
    const std::string line = one_line(value);
    if (flat && prefix_width + line.size() <= width_limit) {
        out += line;
        return;
    }
    const std::string pad(indent + 2, ' ');
    out += value.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first)
            out += ",\n";
        first = false;
        out += pad;
        std::size_t prefix = pad.size();
        if (value.is_object()) {
            const std::string key = nlohmann::json(it.key()).dump() + ": ";
            out += key;
            prefix += key.size();
        }
        append_pretty(out, *it, indent + 2, prefix);
    }
    out += "\n" + std::string(indent, ' ') + (value.is_object() ? "}" : "]");
}

} // namespace

std::string layout_machine_text(const nlohmann::ordered_json& document) {
    std::string text;
    append_pretty(text, document, 0, 0);
    return text;
}

} // namespace kerncast::machine_format
