#include "strict_json.hpp"

#include "kerncast/error.hpp"

#include <limits>

namespace kerncast::runtime::strict_json {

using nlohmann::json;

nlohmann::json parse(const std::string& text, const std::string& origin) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        SourceLocation where{origin, 1, 1, "", ""};
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        std::size_t line_start = 0;
        for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++where.line;
                where.column = 1;
                line_start = i + 1;
            } else {
                ++where.column;
            }
        }
        const std::size_t line_end = text.find('\n', line_start);
        where.source_line = text.substr(
            line_start, line_end == std::string::npos ? std::string::npos : line_end - line_start);
        std::string message = e.what();
        // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 2:
        // syntax error ..."; keep the part after the position, which says what went wrong.
        const std::size_t colon = message.find(": ", message.find("parse error"));
        if (colon != std::string::npos)
            message = message.substr(colon + 2);
        throw_input_error("invalid JSON: " + message, where);
    }
}

void Reader::fail(const std::string& path, const std::string& message) const {
    throw_input_error(message, SourceLocation{origin_, 0, 0, path.empty() ? "/" : path, ""});
}

static std::string type_name(const json& node) {
    return std::string(node.type_name());
}

void Reader::expect_object(const json& node, const std::string& path,
                           std::initializer_list<const char*> allowed) const {
    expect_any_object(node, path);
    for (const auto& [key, value] : node.items()) {
        bool known = false;
        for (const char* name : allowed)
            known = known || key == name;
        if (!known) {
            std::string list;
            for (const char* name : allowed)
                list += (list.empty() ? "" : ", ") + std::string(name);
            throw_input_error("unknown key '" + key + "'",
                              SourceLocation{origin_, 0, 0, child(path, key), ""},
                              {"allowed keys here: " + list});
        }
    }
}

void Reader::expect_any_object(const json& node, const std::string& path) const {
    if (!node.is_object())
        fail(path, "expected an object, found " + type_name(node));
}

void Reader::expect_array(const json& node, const std::string& path) const {
    if (!node.is_array())
        fail(path, "expected an array, found " + type_name(node));
}

const json& Reader::required(const json& object, const std::string& path, const char* key) const {
    const auto found = object.find(key);
    if (found == object.end())
        fail(path, std::string("missing required key '") + key + "'");
    return *found;
}

const json* Reader::optional(const json& object, const char* key) {
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

std::string Reader::string(const json& node, const std::string& path) const {
    if (!node.is_string())
        fail(path, "expected a string, found " + type_name(node));
    return node.get<std::string>();
}

std::int64_t Reader::integer(const json& node, const std::string& path) const {
    if (node.is_number_integer()) {
        if (node.is_number_unsigned() &&
            node.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            fail(path, "integer out of range");
        return node.get<std::int64_t>();
    }
    fail(path, "expected an integer, found " +
                   (node.is_number_float() ? "the real number " + node.dump() : type_name(node)));
}

double Reader::number(const json& node, const std::string& path) const {
    if (!node.is_number())
        fail(path, "expected a number, found " + type_name(node));
    return node.get<double>();
}

bool Reader::boolean(const json& node, const std::string& path) const {
    if (!node.is_boolean())
        fail(path, "expected true or false, found " + type_name(node));
    return node.get<bool>();
}

std::string Reader::child(const std::string& path, const std::string& key) {
    std::string escaped; // RFC 6901
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return path + "/" + escaped;
}

std::string Reader::child(const std::string& path, std::size_t index) {
    return path + "/" + std::to_string(index);
}

} // namespace kerncast::runtime::strict_json
