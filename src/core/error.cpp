#include "kerncast/error.hpp"

#include <sstream>

namespace kerncast {

int exit_code(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::input:
        return 1;
    case ErrorKind::usage:
        return 2;
    case ErrorKind::unavailable:
        return 3;
    case ErrorKind::internal:
        return 4;
    }
    return 4;
}

// Control characters from the input (ANSI escape sequences, carriage returns) are shown as
// '?' so that a bad file cannot drive the terminal; one character each keeps the caret aligned.
static std::string printable(const std::string& text) {
    std::string out = text;
    for (char& c : out) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\t')
            c = ' ';
        else if ((byte < 0x20 && c != '\n') || byte == 0x7f)
            c = '?';
    }
    return out;
}

// `text` with every byte that does not belong to a well-formed UTF-8 sequence replaced by '?'
// (one byte each, so that a caret under a byte column stays aligned): a message quotes input
// (a JSON parser's "last read", a source line), and a message must be valid UTF-8 for a
// terminal and for Python, whose str cannot hold it otherwise.
static std::string valid_utf8(std::string text) {
    size_t k = 0;
    while (k < text.size()) {
        const auto lead = static_cast<unsigned char>(text[k]);
        const size_t length = lead < 0x80           ? 1
                              : (lead >> 5) == 0x6  ? 2
                              : (lead >> 4) == 0xe  ? 3
                              : (lead >> 3) == 0x1e ? 4
                                                    : 0;
        bool well_formed =
            length > 0 && k + length <= text.size() && lead != 0xc0 && lead != 0xc1 && lead < 0xf5;
        for (size_t j = 1; well_formed && j < length; ++j)
            well_formed = (static_cast<unsigned char>(text[k + j]) >> 6) == 0x2;
        if (well_formed && length > 2) {
            // No overlong forms, no UTF-16 surrogates (U+D800..DFFF), nothing past U+10FFFF
            // (Unicode 15, Table 3-7): these lead bytes bound the second one.
            const auto second = static_cast<unsigned char>(text[k + 1]);
            well_formed = !(lead == 0xe0 && second < 0xa0) && !(lead == 0xed && second > 0x9f) &&
                          !(lead == 0xf0 && second < 0x90) && !(lead == 0xf4 && second > 0x8f);
        }
        if (!well_formed) {
            text[k] = '?';
            ++k;
            continue;
        }
        k += length;
    }
    return text;
}

// "file:line:column: " (as much as is known), or "" when not from a file.
static std::string location_prefix(const SourceLocation& where) {
    if (where.file.empty())
        return {};
    std::ostringstream prefix;
    prefix << printable(where.file);
    if (where.line > 0) {
        prefix << ':' << where.line;
        if (where.column > 0)
            prefix << ':' << where.column;
    }
    prefix << ": ";
    return prefix.str();
}

static std::string compose(const std::string& message, const SourceLocation& where) {
    std::string text = location_prefix(where) + message;
    if (!where.json_path.empty())
        text += " (at " + where.json_path + ")";
    return text;
}

static SourceLocation valid_location(SourceLocation where) {
    where.file = valid_utf8(std::move(where.file));
    where.source_line = valid_utf8(std::move(where.source_line));
    where.json_path = valid_utf8(std::move(where.json_path));
    return where;
}

static std::vector<std::string> valid_notes(std::vector<std::string> notes) {
    for (std::string& note : notes)
        note = valid_utf8(std::move(note));
    return notes;
}

Error::Error(ErrorKind kind, std::string message, SourceLocation where,
             std::vector<std::string> notes)
    : std::runtime_error(compose(valid_utf8(message), valid_location(where))), kind_(kind),
      message_(valid_utf8(std::move(message))), where_(valid_location(std::move(where))),
      notes_(valid_notes(std::move(notes))) {}

std::string Error::describe() const {
    std::ostringstream out;
    out << location_prefix(where_) << "error: " << printable(message_);
    if (!where_.json_path.empty())
        out << " (at " << where_.json_path << ")";
    out << "\n";
    if (!where_.source_line.empty()) {
        out << "  " << printable(where_.source_line) << "\n";
        if (where_.column > 0)
            out << "  " << std::string(static_cast<size_t>(where_.column - 1), ' ') << '^' << '\n';
    }
    for (const auto& note : notes_)
        out << "note: " << printable(note) << "\n";
    return out.str();
}

void throw_input_error(std::string message, SourceLocation where, std::vector<std::string> notes) {
    throw Error(ErrorKind::input, std::move(message), std::move(where), std::move(notes));
}

void throw_usage_error(std::string message, std::vector<std::string> notes) {
    throw Error(ErrorKind::usage, std::move(message), {}, std::move(notes));
}

} // namespace kerncast
