#include "json_positions.hpp"

#include <set>

namespace kerncast::json_positions {

TextPosition position_of_offset(const std::string& text, std::size_t offset) {
    if (offset > text.size())
        offset = text.size();
    TextPosition position{1, 1};
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else {
            ++position.column;
        }
    }
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
    std::size_t end = text.find('\n', begin);
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

// A minimal recursive scanner over text that nlohmann has already accepted: it only needs to
// find where values and keys start, not to validate.
class Scanner {
public:
    Scanner(const std::string& text, const std::string& origin, PositionIndex& index)
        : text_(text), origin_(origin), index_(index) {}

    void run() {
        skip_whitespace();
        value("", 0);
    }

private:
    static constexpr int max_depth = 200;

    const std::string& text_;
    const std::string& origin_;
    PositionIndex& index_;
    std::size_t at_ = 0;
    // Line bookkeeping advances incrementally so the scan stays linear in the text size.
    std::size_t counted_to_ = 0;
    TextPosition counted_{1, 1};

    TextPosition here() {
        for (; counted_to_ < at_; ++counted_to_) {
            if (text_[counted_to_] == '\n') {
                ++counted_.line;
                counted_.column = 1;
            } else {
                ++counted_.column;
            }
        }
        return counted_;
    }

    char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

    void skip_whitespace() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }

    [[noreturn]] void fail(const std::string& message) {
        const TextPosition position = here();
        SourceLocation where;
        where.file = origin_;
        where.line = position.line;
        where.column = position.column;
        where.source_line = line_text(text_, position.line);
        throw_input_error(message, where);
    }

    std::string string_literal() {
        std::string result;
        ++at_; // opening quote
        while (at_ < text_.size() && text_[at_] != '"') {
            if (text_[at_] == '\\' && at_ + 1 < text_.size()) {
                const char escaped = text_[at_ + 1];
                switch (escaped) {
                case 'n':
                    result += '\n';
                    break;
                case 't':
                    result += '\t';
                    break;
                case 'r':
                    result += '\r';
                    break;
                case 'b':
                    result += '\b';
                    break;
                case 'f':
                    result += '\f';
                    break;
                case 'u': // keys with \u escapes keep the escape text; good enough for positions
                    result += "\\u";
                    break;
                default:
                    result += escaped;
                }
                at_ += 2;
            } else {
                result += text_[at_++];
            }
        }
        ++at_; // closing quote
        return result;
    }

    void value(const std::string& pointer, int depth) {
        if (depth > max_depth)
            fail("JSON nested deeper than " + std::to_string(max_depth) + " levels");
        index_.values_[pointer] = here();
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
    }

    void object(const std::string& pointer, int depth) {
        ++at_;
        skip_whitespace();
        std::set<std::string> seen;
        while (at_ < text_.size() && peek() != '}') {
            const TextPosition key_position = here();
            const std::string key = string_literal();
            const std::string child = child_pointer(pointer, key);
            if (!seen.insert(key).second) {
                at_ -= key.size() + 2; // point at the repeated key
                counted_to_ = 0;
                counted_ = {1, 1};
                fail("duplicate key \"" + key + "\" (at " + (pointer.empty() ? "/" : pointer) +
                     ")");
            }
            index_.keys_[child] = key_position;
            skip_whitespace();
            ++at_; // ':'
            skip_whitespace();
            value(child, depth + 1);
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
            value(child_pointer(pointer, element++), depth + 1);
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

} // namespace kerncast::json_positions
