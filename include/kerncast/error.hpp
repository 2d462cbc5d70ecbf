// Errors that reach the user: a kind (which decides the exit code), a message, where it
// happened (file:line:column and/or a JSON path), and optional notes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace kerncast {

enum class ErrorKind {
    input,       // malformed or invalid input file / value: exit 1
    usage,       // bad command line: exit 2
    unavailable, // the environment lacks what is needed (no GPU, built without CUDA): exit 3
    internal,    // a broken invariant inside kerncast: exit 4
};

// Process exit code for an error kind (documented in docs/cli.md).
int exit_code(ErrorKind kind);

struct SourceLocation {
    std::string file;        // path as the user gave it; empty when not from a file
    int line = 0;            // 1-based; 0 = unknown
    int column = 0;          // 1-based; 0 = unknown
    std::string json_path;   // e.g. "/compute/sm_count"; empty when not applicable
    std::string source_line; // the offending line's text, shown with a caret under column
};

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string message, SourceLocation where = {},
          std::vector<std::string> notes = {});

    ErrorKind kind() const { return kind_; }
    const std::string& message() const { return message_; }
    const SourceLocation& where() const { return where_; }
    const std::vector<std::string>& notes() const { return notes_; }

    // "file:line:col: error: message [at /json/path]\n  source line\n  ^\nnote: ..."
    std::string describe() const;

private:
    ErrorKind kind_;
    std::string message_;
    SourceLocation where_;
    std::vector<std::string> notes_;
};

[[noreturn]] void throw_input_error(std::string message, SourceLocation where = {},
                                    std::vector<std::string> notes = {});
[[noreturn]] void throw_usage_error(std::string message, std::vector<std::string> notes = {});

// Internal invariant check: aborts loudly via an internal Error, never a silent wrong answer.
#define KERNCAST_CHECK(cond, msg)                                                                  \
    do {                                                                                           \
        if (!(cond))                                                                               \
            throw ::kerncast::Error(::kerncast::ErrorKind::internal,                               \
                                    std::string("internal check failed: ") + #cond + ": " +        \
                                        (msg) + " (" + __FILE__ + ":" + std::to_string(__LINE__) + \
                                        ")");                                                      \
    } while (0)

} // namespace kerncast
