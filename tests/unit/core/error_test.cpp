// Errors as the user sees them: control characters from a bad file never reach the terminal.
#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/error.hpp"

#include <gtest/gtest.h>
#include <limits>

using namespace kerncast;

TEST(Error, ControlCharactersFromTheInputAreNotEchoed) {
    SourceLocation where;
    where.file = "k\x1b[2J.yaml";
    where.line = 3;
    where.column = 4;
    where.source_line = "ab\x1b]0;title\x07z\r";
    const Error e(ErrorKind::input, "unknown key '\x1b[31mred'", where, {"note \x1b[0m"});
    const std::string text = e.describe();
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
    EXPECT_EQ(text.find('\x07'), std::string::npos);
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_EQ(text, "k?[2J.yaml:3:4: error: unknown key '?[31mred'\n"
                    "  ab?]0;title?z?\n"
                    "     ^\n"
                    "note: note ?[0m\n");
}

TEST(CheckedArithmetic, OverflowIsAnInputError) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(checked_add(big - 1, 1, "x"), big);
    EXPECT_EQ(checked_mul(3037000499, 3037000499, "x"), 9223372030926249001);
    try {
        (void)checked_mul(3037000500, 3037000500, "the point count");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("the point count exceeds the 64-bit integer range"),
                  std::string::npos);
    }
    EXPECT_THROW(checked_add(big, 1, "x"), Error);
    EXPECT_THROW(checked_add(-big, -2, "x"), Error);
}

// Input quoted in a message (a JSON parser's "last read" stopping inside a character, a source
// line cut by a mutation) may be invalid UTF-8; the error holds valid UTF-8 everywhere, each
// stray byte a '?' so that a caret stays aligned, and keeps well-formed characters as they are.
TEST(Error, TextIsValidUtf8WithStrayBytesAsQuestionMarks) {
    const std::string lone_lead = "last read: '10, \xe2'";        // a lead byte alone
    const std::string cut = "a\xe2\x80 b";                        // a sequence cut short
    const std::string overlong = "\xc0\xaf and \xf8\x88\x80\x80"; // never valid
    const std::string fine = "caf\xc3\xa9 \xe2\x80\x99 \xf0\x9f\x98\x80";
    const Error e(ErrorKind::input, lone_lead, SourceLocation{"m\xff.json", 3, 4, "", cut},
                  {overlong, fine});
    EXPECT_EQ(e.message(), "last read: '10, ?'");
    EXPECT_EQ(e.where().file, "m?.json");
    EXPECT_EQ(e.where().source_line, "a?? b");
    EXPECT_EQ(e.notes()[0], "?? and ????");
    EXPECT_EQ(e.notes()[1], fine);
    EXPECT_EQ(std::string(e.what()), "m?.json:3:4: last read: '10, ?'");
    // Sequences of valid shape that UTF-8 forbids: an overlong '/', a surrogate, beyond U+10FFFF.
    const Error forbidden(ErrorKind::input, "\xe0\x80\xaf \xed\xa0\x80 \xf4\x90\x80\x80 ok");
    EXPECT_EQ(forbidden.message(), "??? ??? ???? ok");
}
