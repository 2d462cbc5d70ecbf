// Internal: where each value of a JSON text starts (line and column), so that semantic errors
// found after parsing can point at the offending text; and byte offset -> line:column for
// nlohmann's parse errors.
#pragma once

#include "kerncast/error.hpp"

#include <map>
#include <string>

namespace kerncast::json_positions {

struct TextPosition {
    int line = 0;   // 1-based
    int column = 0; // 1-based, in bytes
};

// Line and column of a 0-based byte offset (an offset past the end reads as the end).
TextPosition position_of_offset(const std::string& text, std::size_t offset);

// The text of a 1-based line, without its line break.
std::string line_text(const std::string& text, int line);

// "/compute/sm_count" from a parent pointer and a member key (RFC 6901 escaping).
std::string child_pointer(const std::string& parent, const std::string& key);
std::string child_pointer(const std::string& parent, std::size_t index);

class PositionIndex {
public:
    PositionIndex() = default;

    // Records positions of every value and object key of `text`, which must already be valid
    // JSON (parse it with nlohmann first). A key given twice in one object is an input Error:
    // nlohmann would silently keep the last one.
    static PositionIndex scan(const std::string& text, const std::string& origin);

    // Where the value at `pointer` starts; for a pointer that is not in the text, the nearest
    // ancestor that is. {} when nothing is known.
    TextPosition value_position(const std::string& pointer) const;
    // Where the key of the member at `pointer` starts; falls back to value_position.
    TextPosition key_position(const std::string& pointer) const;
    // True when the text itself has a value at `pointer`.
    bool contains(const std::string& pointer) const { return values_.count(pointer) > 0; }

    // A SourceLocation for an error at `pointer` (value or key position), with the line's
    // text for the caret.
    SourceLocation locate(const std::string& pointer, bool at_key = false) const;

private:
    std::string text_;
    std::string origin_;
    std::map<std::string, TextPosition> values_;
    std::map<std::string, TextPosition> keys_;
    friend class Scanner;
};

} // namespace kerncast::json_positions
