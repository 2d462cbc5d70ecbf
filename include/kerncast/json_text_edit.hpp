// Internal API: editing the members of JSON objects in a text while the rest of the text (its
// layout, key order and spellings such as "96 KiB" or 1380 for 1380.0) stays as written, byte
// for byte.
//
//   json_text_edit::JsonTextEdit edit(text, "gpu.json"); // text: valid JSON
//   edit.replace_value("/capacity_fits/y_layer_overlap", R"({"a": 1, "b": 0.5, "c": -2})");
//   edit.remove_member("/sources/old-fit");
//   edit.append_member("/sources", R"("new-fit": {"kind": "derived"})");
//   const std::string edited = edit.text();
//
// Pointers are JSON pointers (RFC 6901) into the original text: every edit is recorded against
// it and applied by text(), so edits do not move each other's targets. Edits of overlapping
// text (a member both replaced and removed, say), and appending to an object all of whose
// members are removed, are programming errors (KERNCAST_CHECK, when text() assembles them). A
// pointer the text does not have is an input Error naming the origin. In a text with CRLF line
// ends, the line breaks of inserted text become CRLF too.
#pragma once

#include "kerncast/json_reader.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast::json_text_edit {

class JsonTextEdit {
public:
    // `text` must be valid JSON; `origin` names it in errors.
    JsonTextEdit(std::string text, std::string origin);

    // True when the original text has a value at `pointer`.
    bool contains(const std::string& pointer) const { return spans_.count(pointer) > 0; }

    // The original text of the value at `pointer`.
    std::string value_text(const std::string& pointer) const;
    // The original text of the object member at `pointer`: its key, the colon and its value.
    std::string member_text(const std::string& pointer) const;

    // The value at `pointer` becomes `value_text`.
    void replace_value(const std::string& pointer, const std::string& value_text);
    // The object member at `pointer` (key and value) becomes `member_text` ("\"key\": value"),
    // in its place.
    void replace_member(const std::string& pointer, const std::string& member_text);
    // Removes the object member at `pointer` and the comma that separates it from a neighbour.
    void remove_member(const std::string& pointer);
    // Adds `member_text` ("\"key\": value") after the last member of the object at
    // `object_pointer`: on a line of its own, indented as that member, when the members are
    // one per line, and after ", " when they share a line.
    void append_member(const std::string& object_pointer, const std::string& member_text);

    // The original text with every edit applied.
    std::string text() const;

private:
    struct Edit {
        std::size_t begin = 0; // bytes [begin, end) of the original text ...
        std::size_t end = 0;
        std::string replacement; // ... become this
        std::size_t order = 0;   // the order the edit was made (ties at one offset)
    };

    const json_reader::TextSpan& span(const std::string& pointer) const;
    // The members of the object at `object_pointer`, in text order.
    std::vector<std::string> members(const std::string& object_pointer) const;
    void add(std::size_t begin, std::size_t end, std::string replacement);
    // The bytes the removed members take, with the commas that go with them.
    std::vector<Edit> removals() const;

    std::string text_;
    std::string origin_;
    std::map<std::string, json_reader::TextSpan> spans_;
    std::vector<Edit> edits_;
    std::vector<std::string> removed_;     // members to remove
    std::vector<std::string> appended_to_; // objects with an appended member
};

} // namespace kerncast::json_text_edit
