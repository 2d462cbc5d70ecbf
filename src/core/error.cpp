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

Error::Error(ErrorKind kind, std::string message, SourceLocation where,
             std::vector<std::string> notes)
    : std::runtime_error(compose(message, where)), kind_(kind), message_(std::move(message)),
      where_(std::move(where)), notes_(std::move(notes)) {}

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
