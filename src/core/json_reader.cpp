#include "kerncast/json_reader.hpp"

#include "kerncast/closest_names.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>

namespace kerncast::json_reader {

using nlohmann::json;

namespace {

// The position after `c`, read at `position`.
void step_over(TextPosition& position, char c) {
    if (c == '\n') {
        ++position.line;
        position.column = 1;
    } else {
        ++position.column;
    }
}

} // namespace

TextPosition position_of_offset(const std::string& text, std::size_t offset) {
    offset = std::min(offset, text.size());
    TextPosition position{1, 1};
    for (std::size_t i = 0; i < offset; ++i)
        step_over(position, text[i]);
    return position;
}

std::string line_text(const std::string& text, int line) {
    std::size_t begin = 0;
    for (int current = 1; current < line; ++current) {
        begin = text.find('\n', begin);
        if (begin == std::string::npos)
            return {};
        ++begin;
    }
    const std::size_t end = text.find('\n', begin);
    std::string result = text.substr(begin, end == std::string::npos ? end : end - begin);
    if (!result.empty() && result.back() == '\r')
        result.pop_back();
    return result;
}

std::string child_pointer(const std::string& parent, const std::string& key) {
    std::string escaped;
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return parent + "/" + escaped;
}

std::string child_pointer(const std::string& parent, std::size_t index) {
    return parent + "/" + std::to_string(index);
}

// ----------------------------------------------------------------------- positions ---

// A minimal recursive scanner over text that nlohmann has already accepted: it only needs to
// find where values and keys start, not to validate.
class Scanner {
public:
    // spans, when given, also receives the byte span of every value (value_spans()).
    Scanner(const std::string& text, const std::string& origin, PositionIndex& index,
            std::map<std::string, TextSpan>* spans = nullptr)
        : text_(text), origin_(origin), index_(index), spans_(spans) {}

    void run() {
        skip_whitespace();
        value("", 0, at_);
    }

private:
    static constexpr int max_depth = 200;

    const std::string& text_;
    const std::string& origin_;
    PositionIndex& index_;
    std::map<std::string, TextSpan>* spans_;
    std::size_t at_ = 0;
    // Line bookkeeping advances incrementally so the scan stays linear in the text size.
    std::size_t counted_to_ = 0;
    TextPosition counted_{1, 1};

    TextPosition here() {
        for (; counted_to_ < at_; ++counted_to_)
            step_over(counted_, text_[counted_to_]);
        return counted_;
    }

    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

    void skip_whitespace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }

    [[noreturn]] void fail(const std::string& message, std::vector<std::string> notes = {}) {
        const TextPosition position = here();
        SourceLocation where;
        where.file = origin_;
        where.line = position.line;
        where.column = position.column;
        where.source_line = line_text(text_, position.line);
        throw_input_error(message, where, std::move(notes));
    }

    // The decoded text of the string literal at at_ (keys need it for their pointers).
    std::string string_literal() {
        ++at_; // opening quote
        const std::size_t begin = at_;
        bool escaped = false;
        while (at_ < text_.size() && text_[at_] != '"') {
            escaped = escaped || text_[at_] == '\\';
            at_ += text_[at_] == '\\' ? 2 : 1;
        }
        const std::size_t end = std::min(at_, text_.size());
        ++at_; // closing quote
        if (!escaped)
            return text_.substr(begin, end - begin);
        return json::parse(text_.begin() + static_cast<std::ptrdiff_t>(begin) - 1,
                           text_.begin() + static_cast<std::ptrdiff_t>(end) + 1)
            .get<std::string>();
    }

    void value(const std::string& pointer, int depth, std::size_t key_begin) {
        if (depth > max_depth)
            fail("JSON nested deeper than " + std::to_string(max_depth) + " levels");
        index_.values_[pointer] = here();
        const std::size_t begin = at_;
        switch (peek()) {
        case '{':
            object(pointer, depth);
            break;
        case '[':
            array(pointer, depth);
            break;
        case '"':
            string_literal();
            break;
        default:
            while (at_ < text_.size() && peek() != ',' && peek() != '}' && peek() != ']' &&
                   peek() != ' ' && peek() != '\n' && peek() != '\t' && peek() != '\r')
                ++at_;
        }
        if (spans_)
            (*spans_)[pointer] = TextSpan{key_begin, begin, at_};
    }

    void object(const std::string& pointer, int depth) {
        ++at_;
        skip_whitespace();
        std::set<std::string> seen;
        while (at_ < text_.size() && peek() != '}') {
            const std::size_t key_start = at_;
            const TextPosition key_position = here();
            const std::string key = string_literal();
            const std::string child = child_pointer(pointer, key);
            if (!seen.insert(key).second) {
                const int first_line = index_.keys_[child].line;
                at_ = key_start; // point at the repeated key
                fail("duplicate key \"" + key + "\" (at " + (pointer.empty() ? "/" : pointer) + ")",
                     {"first given at line " + std::to_string(first_line)});
            }
            index_.keys_[child] = key_position;
            skip_whitespace();
            ++at_; // ':'
            skip_whitespace();
            value(child, depth + 1, key_start);
            skip_whitespace();
            if (peek() == ',') {
                ++at_;
                skip_whitespace();
            }
        }
        ++at_;
    }

    void array(const std::string& pointer, int depth) {
        ++at_;
        skip_whitespace();
        std::size_t element = 0;
        while (at_ < text_.size() && peek() != ']') {
            value(child_pointer(pointer, element), depth + 1, at_);
            ++element;
            skip_whitespace();
            if (peek() == ',') {
                ++at_;
                skip_whitespace();
            }
        }
        ++at_;
    }
};

PositionIndex PositionIndex::scan(const std::string& text, const std::string& origin) {
    PositionIndex index;
    index.text_ = text;
    index.origin_ = origin;
    Scanner(text, origin, index).run();
    return index;
}

std::map<std::string, TextSpan> value_spans(const std::string& text, const std::string& origin) {
    PositionIndex index;
    std::map<std::string, TextSpan> spans;
    Scanner(text, origin, index, &spans).run();
    return spans;
}

TextPosition PositionIndex::value_position(const std::string& pointer) const {
    std::string current = pointer;
    while (true) {
        if (auto it = values_.find(current); it != values_.end())
            return it->second;
        if (current.empty())
            return {};
        current.erase(current.rfind('/'));
    }
}

TextPosition PositionIndex::key_position(const std::string& pointer) const {
    if (auto it = keys_.find(pointer); it != keys_.end())
        return it->second;
    return value_position(pointer);
}

SourceLocation PositionIndex::locate(const std::string& pointer, bool at_key) const {
    SourceLocation where;
    where.file = origin_;
    where.json_path = pointer.empty() ? "/" : pointer;
    const TextPosition position = at_key ? key_position(pointer) : value_position(pointer);
    if (position.line > 0) {
        where.line = position.line;
        where.column = position.column;
        where.source_line = line_text(text_, position.line);
    }
    return where;
}

// --------------------------------------------------------------------------- parse ---

namespace {

// nlohmann reports the byte after the token it could not use; the caret reads better under
// the token's first character.
std::size_t token_start(const std::string& text, std::size_t error_byte) {
    if (error_byte == 0 || text.empty())
        return 0;
    if (error_byte > text.size()) { // the text ended early: point just after its last token
        std::size_t end = text.size();
        while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1])))
            --end;
        return end;
    }
    std::size_t last = error_byte - 1; // last character read
    auto is_word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-';
    };
    if (text[last] == '"' && last > 0) {
        std::size_t at = last;
        while (at > 0) {
            --at;
            if (text[at] == '"' && (at == 0 || text[at - 1] != '\\'))
                return at;
            if (text[at] == '\n')
                break;
        }
        return last;
    }
    if (is_word(text[last])) {
        while (last > 0 && is_word(text[last - 1]))
            --last;
    }
    return last;
}

} // namespace

Document parse(const std::string& text, const std::string& origin) {
    Document document;
    try {
        document.value = json::parse(text);
    } catch (const json::parse_error& error) {
        const TextPosition position = position_of_offset(text, token_start(text, error.byte));
        std::string message = error.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ...":
        // keep what went wrong; the position is ours.
        if (const auto colon = message.find(": "); colon != std::string::npos)
            message = message.substr(colon + 2);
        SourceLocation where;
        where.file = origin;
        where.line = position.line;
        where.column = position.column;
        where.source_line = line_text(text, position.line);
        std::vector<std::string> notes;
        if (message.find("unexpected") != std::string::npos &&
            (message.find("expected '}'") != std::string::npos ||
             message.find("expected ']'") != std::string::npos))
            notes.push_back("is a ',' missing before this?");
        throw_input_error("malformed JSON: " + message, where, notes);
    } catch (const json::out_of_range& error) {
        // "number overflow parsing '1e400'": nlohmann gives no position; find the literal.
        std::string message = error.what();
        if (const auto space = message.find("] "); space != std::string::npos)
            message = message.substr(space + 2);
        SourceLocation where;
        where.file = origin;
        if (const auto open = message.find('\''); open != std::string::npos) {
            const auto close = message.find('\'', open + 1);
            const std::string literal = message.substr(open + 1, close - open - 1);
            if (const auto at = text.find(literal); !literal.empty() && at != std::string::npos) {
                const TextPosition position = position_of_offset(text, at);
                where.line = position.line;
                where.column = position.column;
                where.source_line = line_text(text, position.line);
            }
        }
        throw_input_error("malformed JSON: " + message + " (beyond the range of a double)", where);
    }
    document.positions = PositionIndex::scan(text, origin);
    return document;
}

std::string describe_type(const json& value) {
    switch (value.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
        return "the integer " + value.dump();
    case json::value_t::number_float:
        return "the number " + value.dump();
    case json::value_t::string: {
        std::string text = value.get<std::string>();
        if (text.size() > 40)
            text = text.substr(0, 37) + "...";
        return "the string \"" + text + "\"";
    }
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    default:
        return "an unsupported value";
    }
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "\"" : ", \"") + name + "\"";
    return text;
}

// -------------------------------------------------------------------------- Reader ---

void Reader::fail(const std::string& path, const std::string& message,
                  std::vector<std::string> notes, bool at_key) const {
    throw_input_error(message, locate(path, at_key), std::move(notes));
}

void Reader::expect_object(const json& node, const std::string& path) const {
    if (!node.is_object())
        fail(path, "expected an object, got " + describe_type(node));
}

void Reader::expect_object(const json& node, const std::string& path,
                           const std::vector<std::string>& allowed) const {
    expect_object(node, path);
    check_keys(node, path, allowed);
}

void Reader::expect_array(const json& node, const std::string& path) const {
    if (!node.is_array())
        fail(path, "expected an array, got " + describe_type(node));
}

void Reader::check_keys(const json& object, const std::string& path,
                        const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
            continue;
        const auto close = closest_names(key, allowed, 1);
        fail(child_pointer(path, key), "unknown key \"" + key + "\"",
             {close.empty() ? "allowed keys here: " + quoted_list(allowed)
                            : "did you mean \"" + close.front() + "\"?"},
             true);
    }
}

const json& Reader::required(const json& object, const std::string& path, const std::string& key,
                             const std::string& expected, std::vector<std::string> notes) const {
    const auto found = object.find(key);
    if (found == object.end())
        fail(child_pointer(path, key),
             "missing required field \"" + key + "\"" +
                 (expected.empty() ? "" : " (expected " + expected + ")"),
             std::move(notes));
    return *found;
}

const json* Reader::optional(const json& object, const std::string& key) {
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

std::string Reader::string(const json& node, const std::string& path) const {
    if (!node.is_string())
        fail(path, "expected a string, got " + describe_type(node));
    return node.get<std::string>();
}

std::int64_t Reader::integer(const json& node, const std::string& path) const {
    if (!node.is_number_integer())
        fail(path, "expected an integer, got " + describe_type(node));
    if (node.is_number_unsigned() &&
        node.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        fail(path, "integer " + node.dump() + " is out of range");
    return node.get<std::int64_t>();
}

double Reader::number(const json& node, const std::string& path) const {
    if (!node.is_number())
        fail(path, "expected a number, got " + describe_type(node));
    return node.get<double>();
}

bool Reader::boolean(const json& node, const std::string& path) const {
    if (!node.is_boolean())
        fail(path, "expected true or false, got " + describe_type(node));
    return node.get<bool>();
}

} // namespace kerncast::json_reader
