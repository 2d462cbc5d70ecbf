// Test helpers: machine-file texts to edit one mistake into, and where a mistake is written.
#pragma once

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

// A file under tests/unit/machine/data.
inline std::string machine_fixture(const std::string& name) {
    std::ifstream file(std::string(KERNCAST_SOURCE_DIR) + "/tests/unit/machine/data/" + name);
    EXPECT_TRUE(file) << name;
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// `text` with the first `from` replaced by `to` (a test failure when `from` is absent).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

struct LineColumn {
    int line = 0;
    int column = 0;
    bool operator==(const LineColumn&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const LineColumn& at) {
    return out << at.line << ":" << at.column;
}

// 1-based line and column of the first `needle` in `text` (the oracle for error positions).
inline LineColumn position_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    LineColumn position{1, 1};
    for (std::size_t i = 0; i < at && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++position.line;
            position.column = 1;
        } else {
            ++position.column;
        }
    }
    return position;
}

// `text` with the span from the first `begin` through the next `end` (inclusive) replaced.
inline std::string replaced_span(std::string text, const std::string& begin, const std::string& end,
                                 const std::string& to) {
    const auto from = text.find(begin);
    const auto until = from == std::string::npos ? from : text.find(end, from);
    EXPECT_NE(until, std::string::npos) << begin << " ... " << end;
    if (until != std::string::npos)
        text.replace(from, until + end.size() - from, to);
    return text;
}
