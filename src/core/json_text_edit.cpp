#include "kerncast/json_text_edit.hpp"

#include "kerncast/error.hpp"

#include <algorithm>

namespace kerncast::json_text_edit {

JsonTextEdit::JsonTextEdit(std::string text, std::string origin)
    : text_(std::move(text)), origin_(std::move(origin)),
      spans_(json_reader::value_spans(text_, origin_)) {}

const json_reader::TextSpan& JsonTextEdit::span(const std::string& pointer) const {
    const auto it = spans_.find(pointer);
    if (it == spans_.end()) {
        SourceLocation where;
        where.file = origin_;
        where.json_path = pointer.empty() ? "/" : pointer;
        throw_input_error("the text has no value at " + where.json_path, where);
    }
    return it->second;
}

std::string JsonTextEdit::value_text(const std::string& pointer) const {
    const auto& s = span(pointer);
    return text_.substr(s.value_begin, s.value_end - s.value_begin);
}

std::string JsonTextEdit::member_text(const std::string& pointer) const {
    const auto& s = span(pointer);
    KERNCAST_CHECK(s.key_begin < s.value_begin, pointer + " must be an object member");
    return text_.substr(s.key_begin, s.value_end - s.key_begin);
}

std::vector<std::string> JsonTextEdit::members(const std::string& object_pointer) const {
    const std::size_t object_begin = span(object_pointer).value_begin;
    KERNCAST_CHECK(text_[object_begin] == '{', object_pointer + " must be an object");
    const std::string prefix = object_pointer + "/";
    std::vector<std::string> found;
    for (auto it = spans_.lower_bound(prefix);
         it != spans_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
        if (it->first.find('/', prefix.size()) == std::string::npos)
            found.push_back(it->first);
    std::sort(found.begin(), found.end(), [this](const std::string& a, const std::string& b) {
        return spans_.at(a).value_begin < spans_.at(b).value_begin;
    });
    return found;
}

namespace {

// Edits may touch (an insertion at either end of a replaced range, two insertions at one
// offset) but not share a byte: then the result would depend on the order of application.
bool apart(std::size_t begin, std::size_t end, std::size_t other_begin, std::size_t other_end) {
    const auto strictly_inside = [](std::size_t offset, std::size_t from, std::size_t to) {
        return from < offset && offset < to;
    };
    if (begin == end)
        return !strictly_inside(begin, other_begin, other_end);
    if (other_begin == other_end)
        return !strictly_inside(other_begin, begin, end);
    return end <= other_begin || other_end <= begin;
}

} // namespace

void JsonTextEdit::add(std::size_t begin, std::size_t end, std::string replacement) {
    // New text takes the line ends of the original (a file saved with CRLF keeps them).
    if (text_.find("\r\n") != std::string::npos)
        for (std::size_t at = replacement.find('\n'); at != std::string::npos;
             at = replacement.find('\n', at + 1))
            if (at == 0 || replacement[at - 1] != '\r')
                replacement.insert(at++, 1, '\r');
    for (const Edit& other : edits_)
        KERNCAST_CHECK(apart(begin, end, other.begin, other.end),
                       "edits of a JSON text must not overlap");
    edits_.push_back(Edit{begin, end, std::move(replacement), edits_.size()});
}

void JsonTextEdit::replace_value(const std::string& pointer, const std::string& value_text) {
    const auto& s = span(pointer);
    add(s.value_begin, s.value_end, value_text);
}

void JsonTextEdit::replace_member(const std::string& pointer, const std::string& member_text) {
    const auto& s = span(pointer);
    KERNCAST_CHECK(s.key_begin < s.value_begin, pointer + " must be an object member");
    add(s.key_begin, s.value_end, member_text);
}

void JsonTextEdit::remove_member(const std::string& pointer) {
    const auto& s = span(pointer);
    KERNCAST_CHECK(s.key_begin < s.value_begin, pointer + " must be an object member");
    KERNCAST_CHECK(std::find(removed_.begin(), removed_.end(), pointer) == removed_.end(),
                   pointer + " is removed twice");
    removed_.push_back(pointer); // its bytes are found by text(), with the other removals
}

void JsonTextEdit::append_member(const std::string& object_pointer,
                                 const std::string& member_text) {
    const std::vector<std::string> siblings = members(object_pointer);
    const auto& object = span(object_pointer);
    if (siblings.empty()) { // "{}" or "{ }": the member on a line of its own
        std::size_t line_begin = text_.rfind('\n', object.value_begin);
        line_begin = line_begin == std::string::npos ? 0 : line_begin + 1;
        const std::string indent(object.value_begin - line_begin, ' ');
        add(object.value_begin + 1, object.value_end - 1,
            "\n" + indent + "  " + member_text + "\n" + indent);
        return;
    }
    const auto& last = spans_.at(siblings.back());
    const std::size_t line_begin = [&] {
        const std::size_t newline = text_.rfind('\n', last.key_begin);
        return newline == std::string::npos ? 0 : newline + 1;
    }();
    const std::string before_key = text_.substr(line_begin, last.key_begin - line_begin);
    const bool own_line = before_key.find_first_not_of(" \t") == std::string::npos;
    add(last.value_end, last.value_end,
        own_line ? ",\n" + before_key + member_text : ", " + member_text);
    appended_to_.push_back(object_pointer);
}

std::vector<JsonTextEdit::Edit> JsonTextEdit::removals() const {
    std::vector<Edit> found;
    std::vector<std::string> objects;
    for (const auto& pointer : removed_) {
        const std::string object = pointer.substr(0, pointer.rfind('/'));
        if (std::find(objects.begin(), objects.end(), object) == objects.end())
            objects.push_back(object);
    }
    for (const auto& object : objects) {
        const std::vector<std::string> siblings = members(object);
        const auto is_removed = [&](std::size_t i) {
            return std::find(removed_.begin(), removed_.end(), siblings[i]) != removed_.end();
        };
        // The removed members at the end (first_trailing..) go from the end of the member kept
        // before them, so that its comma goes too; every other removed member goes up to the
        // next member's key, its own comma with it.
        std::size_t first_trailing = siblings.size();
        while (first_trailing > 0 && is_removed(first_trailing - 1))
            --first_trailing;
        for (std::size_t i = 0; i < first_trailing; ++i)
            if (is_removed(i))
                found.push_back(Edit{spans_.at(siblings[i]).key_begin,
                                     spans_.at(siblings[i + 1]).key_begin, "", edits_.size()});
        if (first_trailing == siblings.size())
            continue;
        KERNCAST_CHECK(first_trailing > 0 || std::find(appended_to_.begin(), appended_to_.end(),
                                                       object) == appended_to_.end(),
                       "appending to " + object + " after removing all its members");
        const std::size_t begin = first_trailing > 0
                                      ? spans_.at(siblings[first_trailing - 1]).value_end
                                      : spans_.at(siblings[first_trailing]).key_begin;
        found.push_back(Edit{begin, spans_.at(siblings.back()).value_end, "", edits_.size()});
    }
    return found;
}

std::string JsonTextEdit::text() const {
    std::vector<Edit> edits = edits_;
    for (const Edit& removal : removals()) {
        for (const Edit& other : edits)
            KERNCAST_CHECK(apart(removal.begin, removal.end, other.begin, other.end),
                           "edits of a JSON text must not overlap");
        edits.push_back(removal);
    }
    // From the end of the text backwards, so an edit does not move the ones still to apply.
    // At one offset the replaced range goes first (it refers to the original bytes there), then
    // the insertions, the later one first so that the earlier one ends up in front.
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
        if (a.begin != b.begin)
            return a.begin > b.begin;
        if ((a.end > a.begin) != (b.end > b.begin))
            return a.end > a.begin;
        return a.order > b.order;
    });
    std::string result = text_;
    for (const Edit& edit : edits)
        result.replace(edit.begin, edit.end - edit.begin, edit.replacement);
    return result;
}

} // namespace kerncast::json_text_edit
