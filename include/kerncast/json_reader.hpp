// Internal API: strict reading of kerncast's JSON files (machine files, workloads, measurement
// records) with errors that say where the problem is.
//
//   const json_reader::Document doc = json_reader::parse(text, "gpu.json");
//   const json_reader::Reader read(doc); // doc must outlive read
//   read.expect_object(doc.value, "", {"schema", "sm_count"});   // unknown keys: suggestion
//   const auto sm_count = read.integer(read.required(doc.value, "", "sm_count"), "/sm_count");
//
// - parse(): a syntax error is an input Error at origin:line:column with the offending line
//   and a caret under the start of the unexpected token; a key given twice in one object is an
//   error too (nlohmann would silently keep the last one).
// - PositionIndex: JSON pointer -> line:column of each value and key in the text, so an error
//   found after parsing points at the offending text.
// - Reader: typed accessors and allowed-key checks; every error carries the JSON path and the
//   value's line:column and source line. Readers of formats with their own rules (machine
//   files merged onto a built-in) derive from it and override locate().
// Messages quote keys and strings the JSON way ("sm_count"), name the JSON type found, and
// suggest the closest allowed key (closest_names.hpp) for an unknown one.
#pragma once

#include "kerncast/error.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kerncast::json_reader {

struct TextPosition {
    int line = 0;   // 1-based; 0 = unknown
    int column = 0; // 1-based, in bytes
};

// Line and column of a 0-based byte offset (an offset past the end reads as the end).
TextPosition position_of_offset(const std::string& text, std::size_t offset);

// The text of a 1-based line, without its line break ("" past the end).
std::string line_text(const std::string& text, int line);

// "/compute/sm_count" from a parent pointer and a member key (RFC 6901 escaping of ~ and /).
std::string child_pointer(const std::string& parent, const std::string& key);
std::string child_pointer(const std::string& parent, std::size_t index);

class PositionIndex {
public:
    PositionIndex() = default;

    // Records where every value and object key of `text` starts. `text` must already be valid
    // JSON (parse() checks that first). A key given twice in one object, and nesting deeper
    // than 200 levels, are input Errors.
    static PositionIndex scan(const std::string& text, const std::string& origin);

    // Where the value at `pointer` starts; for a pointer that is not in the text, the nearest
    // ancestor that is. {} when nothing is known.
    TextPosition value_position(const std::string& pointer) const;
    // Where the key of the member at `pointer` starts; falls back to value_position.
    TextPosition key_position(const std::string& pointer) const;
    // True when the text itself has a value at `pointer`.
    bool contains(const std::string& pointer) const { return values_.count(pointer) > 0; }
    // The name of the text in errors.
    const std::string& origin() const { return origin_; }

    // A SourceLocation for an error at `pointer` (its value, or its key when at_key), with
    // the line's text for the caret; json_path is `pointer` ("/" for the root).
    SourceLocation locate(const std::string& pointer, bool at_key = false) const;

private:
    std::string text_;
    std::string origin_;
    std::map<std::string, TextPosition> values_;
    std::map<std::string, TextPosition> keys_;
    friend class Scanner;
};

// A parsed JSON text and where its parts are written.
struct Document {
    nlohmann::json value;
    PositionIndex positions;
};

// Parses `text` strictly; `origin` names it in errors (a path, or "built-in machine 'x'").
Document parse(const std::string& text, const std::string& origin);

// Where a value is written, in 0-based byte offsets of the text: the opening quote of its key
// (for an object member; value_begin for array elements and the root), its first byte and one
// past its last.
struct TextSpan {
    std::size_t key_begin = 0;
    std::size_t value_begin = 0;
    std::size_t value_end = 0;
};

// JSON pointer -> span of every value of `text` ("" is the root), for edits that keep the rest
// of a text as written (json_text_edit.hpp). `text` must already be valid JSON (parse() it
// first); a duplicate key or nesting deeper than 200 levels is an input Error naming `origin`.
std::map<std::string, TextSpan> value_spans(const std::string& text, const std::string& origin);

// How an error names a JSON value: "null", "a boolean", "the integer 5", "the number 2.5",
// "the string \"abc\"" (long strings cut), "an array", "an object".
std::string describe_type(const nlohmann::json& value);

// "\"a\", \"b\"": names listed for a note.
std::string quoted_list(const std::vector<std::string>& names);

class Reader {
public:
    // The reader keeps a reference: `positions` (or `document`) must outlive it.
    explicit Reader(const PositionIndex& positions) : positions_(positions) {}
    explicit Reader(const Document& document) : Reader(document.positions) {}
    explicit Reader(Document&&) = delete;
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    virtual ~Reader() = default;

    // Where an error at `path` is reported.
    virtual SourceLocation locate(const std::string& path, bool at_key = false) const {
        return positions_.locate(path, at_key);
    }

    [[noreturn]] void fail(const std::string& path, const std::string& message,
                           std::vector<std::string> notes = {}, bool at_key = false) const;

    // ----- structure -----
    void expect_object(const nlohmann::json& node, const std::string& path) const;
    // An object whose keys are all in `allowed`.
    void expect_object(const nlohmann::json& node, const std::string& path,
                       const std::vector<std::string>& allowed) const;
    void expect_array(const nlohmann::json& node, const std::string& path) const;
    // Every key of `object` must be in `allowed`: an unknown key (a typo must not be silently
    // ignored) is an error at that key, suggesting the closest allowed key or listing them.
    void check_keys(const nlohmann::json& object, const std::string& path,
                    const std::vector<std::string>& allowed) const;

    // The member `key` of the object at `path`, which must be present; `expected` (e.g. "an
    // integer") and `notes` go into the error.
    const nlohmann::json& required(const nlohmann::json& object, const std::string& path,
                                   const std::string& key, const std::string& expected = {},
                                   std::vector<std::string> notes = {}) const;
    // A member that may be absent (nullptr then).
    static const nlohmann::json* optional(const nlohmann::json& object, const std::string& key);

    // ----- scalars -----
    std::string string(const nlohmann::json& node, const std::string& path) const;
    // An integer that fits in int64 (a real number such as 2.0 is not an integer).
    std::int64_t integer(const nlohmann::json& node, const std::string& path) const;
    double number(const nlohmann::json& node, const std::string& path) const;
    bool boolean(const nlohmann::json& node, const std::string& path) const;

    const std::string& origin() const { return positions_.origin(); }
    const PositionIndex& positions() const { return positions_; }

private:
    const PositionIndex& positions_;
};

} // namespace kerncast::json_reader
