#include "kerncast/json_reader.hpp"

#include <gtest/gtest.h>
#include <optional>

using namespace kerncast;
using namespace kerncast::json_reader;

namespace {

template <class Code> std::optional<Error> caught_error(Code&& code) {
    try {
        code();
    } catch (const Error& error) {
        return error;
    }
    ADD_FAILURE() << "expected a kerncast::Error";
    return std::nullopt;
}

// A multi-line document used by the Reader tests; line numbers matter.
const std::string sample = R"({
  "name": "toy",
  "sm_count": 80,
  "clock": {"base_mhz": 1410.5, "boost": true},
  "levels": [
    {"name": "l1", "size": 4294967296},
    {"name": "l2"}
  ],
  "huge": 18446744073709551615
})";

} // namespace

TEST(JsonPositions, OffsetToLineAndColumn) {
    const std::string text = "ab\ncd\n\nef";
    EXPECT_EQ(position_of_offset(text, 0).line, 1);
    EXPECT_EQ(position_of_offset(text, 1).column, 2);
    EXPECT_EQ(position_of_offset(text, 3).line, 2);
    EXPECT_EQ(position_of_offset(text, 3).column, 1);
    EXPECT_EQ(position_of_offset(text, 7).line, 4);
    EXPECT_EQ(position_of_offset(text, 100).line, 4); // past the end reads as the end
    EXPECT_EQ(position_of_offset(text, 100).column, 3);
    EXPECT_EQ(line_text(text, 2), "cd");
    EXPECT_EQ(line_text(text, 3), "");
    EXPECT_EQ(line_text("x\r\ny", 1), "x");
    EXPECT_EQ(line_text(text, 9), "");
}

TEST(JsonPositions, PointersEscapeSlashAndTilde) {
    EXPECT_EQ(child_pointer("", "compute"), "/compute");
    EXPECT_EQ(child_pointer("/a", "b/c~d"), "/a/b~1c~0d");
    EXPECT_EQ(child_pointer("/memory", std::size_t{2}), "/memory/2");
}

TEST(JsonPositions, IndexesValuesAndKeysOfNestedObjectsAndArrays) {
    const std::string text = "{\n  \"a\": [1, {\"b\": \"x\\\"y\"}],\n  \"c\": true\n}";
    const PositionIndex index = PositionIndex::scan(text, "t.json");
    EXPECT_EQ(index.value_position("").line, 1);
    EXPECT_EQ(index.value_position("/a").line, 2);
    EXPECT_EQ(index.value_position("/a").column, 8);
    EXPECT_EQ(index.value_position("/a/0").column, 9);
    EXPECT_EQ(index.value_position("/a/1/b").column, 18);
    EXPECT_EQ(index.key_position("/a/1/b").column, 13);
    EXPECT_EQ(index.value_position("/c").line, 3);
    EXPECT_EQ(index.value_position("/c").column, 8);
    EXPECT_TRUE(index.contains("/a/1"));
    EXPECT_FALSE(index.contains("/a/1/z"));
    // A missing value falls back to its nearest ancestor.
    EXPECT_EQ(index.value_position("/a/1/z").column, 12);
    const SourceLocation where = index.locate("/c");
    EXPECT_EQ(where.file, "t.json");
    EXPECT_EQ(where.json_path, "/c");
    EXPECT_EQ(where.source_line, "  \"c\": true");
    EXPECT_EQ(index.locate("").json_path, "/");
}

TEST(JsonPositions, KeysWithEscapesGetTheirDecodedPointer) {
    // The key a/b~"c is written with escapes; its pointer escapes / and ~ (RFC 6901).
    const std::string text = "{\"x\": 1,\n \"a\\/b~\\\"c\": 2}";
    const PositionIndex index = PositionIndex::scan(text, "t.json");
    ASSERT_TRUE(index.contains("/a~1b~0\"c"));
    EXPECT_EQ(index.key_position("/a~1b~0\"c").line, 2);
    EXPECT_EQ(index.key_position("/a~1b~0\"c").column, 2);
    EXPECT_EQ(index.value_position("/a~1b~0\"c").column, 14);
}

TEST(JsonParse, SyntaxErrorPointsAtTheStartOfTheUnexpectedToken) {
    // A missing comma: nlohmann stops after the string "b"; the caret goes under its quote.
    const auto error = caught_error([] { parse("{\n  \"a\": 1\n  \"b\": 2\n}", "t.json"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->where().file, "t.json");
    EXPECT_EQ(error->where().line, 3);
    EXPECT_EQ(error->where().column, 3);
    EXPECT_EQ(error->where().source_line, "  \"b\": 2");
    EXPECT_EQ(error->message().rfind("malformed JSON: syntax error while parsing object", 0), 0u)
        << error->message();
    ASSERT_EQ(error->notes().size(), 1u);
    EXPECT_EQ(error->notes()[0], "is a ',' missing before this?");
    EXPECT_NE(error->describe().find("t.json:3:3: error: malformed JSON"), std::string::npos);
    EXPECT_NE(error->describe().find("  \"b\": 2\n    ^"), std::string::npos) << error->describe();
}

TEST(JsonParse, BadLiteralAndTruncatedText) {
    // nlohmann stops after the number 345 it did not expect; the caret goes to its first digit.
    const auto number = caught_error([] { parse("[1,\n  12.5 345]", "t.json"); });
    ASSERT_TRUE(number);
    EXPECT_EQ(number->where().line, 2);
    EXPECT_EQ(number->where().column, 8);
    ASSERT_EQ(number->notes().size(), 1u);
    EXPECT_EQ(number->notes()[0], "is a ',' missing before this?");
    // A bad literal is not a missing comma.
    const auto literal = caught_error([] { parse("{\"a\": nul}", "t.json"); });
    ASSERT_TRUE(literal);
    EXPECT_NE(literal->message().find("invalid literal"), std::string::npos) << literal->message();
    EXPECT_TRUE(literal->notes().empty());

    const auto truncated = caught_error([] { parse("{\n  \"a\": 1,\n", "t.json"); });
    ASSERT_TRUE(truncated);
    EXPECT_EQ(truncated->where().line, 2); // just after the last token, not the empty line 3
    EXPECT_EQ(truncated->where().column, 10);
    EXPECT_EQ(truncated->where().source_line, "  \"a\": 1,");
    EXPECT_NE(truncated->message().find("malformed JSON"), std::string::npos);

    const auto empty = caught_error([] { parse("", "t.json"); });
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->where().line, 1);
    EXPECT_EQ(empty->where().column, 1);
}

TEST(JsonParse, DuplicateKeysAndDeepNestingAreInputErrors) {
    const auto duplicate = caught_error([] { parse("{\"a\": 1,\n \"a\": 2}", "t.json"); });
    ASSERT_TRUE(duplicate);
    EXPECT_EQ(duplicate->message(), "duplicate key \"a\" (at /)");
    EXPECT_EQ(duplicate->where().line, 2);
    EXPECT_EQ(duplicate->where().column, 2);
    ASSERT_EQ(duplicate->notes().size(), 1u);
    EXPECT_EQ(duplicate->notes()[0], "first given at line 1");

    // The same key in different objects is fine; in a nested object the path is named.
    EXPECT_NO_THROW(parse(R"({"a": {"a": 1}, "b": {"a": 2}})", "t.json"));
    const auto nested =
        caught_error([] { parse("{\"c\": {\"k\": 1,\n\n   \"k\": 2}}", "t.json"); });
    ASSERT_TRUE(nested);
    EXPECT_EQ(nested->message(), "duplicate key \"k\" (at /c)");
    EXPECT_EQ(nested->where().line, 3);
    EXPECT_EQ(nested->where().column, 4);

    const std::string deep = std::string(300, '[') + std::string(300, ']');
    const auto too_deep = caught_error([&] { parse(deep, "t.json"); });
    ASSERT_TRUE(too_deep);
    EXPECT_EQ(too_deep->message(), "JSON nested deeper than 200 levels");
}

TEST(JsonReader, TypedAccessorsReadValues) {
    const Document doc = parse(sample, "toy.json");
    const Reader read(doc);
    EXPECT_EQ(read.origin(), "toy.json");
    const nlohmann::json& root = doc.value;
    EXPECT_NO_THROW(read.expect_object(root, "", {"name", "sm_count", "clock", "levels", "huge"}));
    EXPECT_EQ(read.string(read.required(root, "", "name"), "/name"), "toy");
    EXPECT_EQ(read.integer(read.required(root, "", "sm_count"), "/sm_count"), 80);
    EXPECT_EQ(read.number(root["clock"]["base_mhz"], "/clock/base_mhz"), 1410.5);
    EXPECT_EQ(read.number(root["sm_count"], "/sm_count"), 80.0); // an integer is a number
    EXPECT_TRUE(read.boolean(root["clock"]["boost"], "/clock/boost"));
    EXPECT_EQ(read.integer(root["levels"][0]["size"], "/levels/0/size"), 4294967296);
    EXPECT_EQ(Reader::optional(root, "missing"), nullptr);
    ASSERT_NE(Reader::optional(root, "name"), nullptr);
    EXPECT_EQ(*Reader::optional(root, "name"), "toy");
}

TEST(JsonReader, TypeErrorsPointAtTheValueWithPathAndLine) {
    const Document doc = parse(sample, "toy.json");
    const Reader read(doc);
    const nlohmann::json& root = doc.value;

    const auto string = caught_error([&] { read.string(root["sm_count"], "/sm_count"); });
    ASSERT_TRUE(string);
    EXPECT_EQ(string->kind(), ErrorKind::input);
    EXPECT_EQ(string->message(), "expected a string, got the integer 80");
    EXPECT_EQ(string->where().file, "toy.json");
    EXPECT_EQ(string->where().json_path, "/sm_count");
    EXPECT_EQ(string->where().line, 3);
    EXPECT_EQ(string->where().column, 15);
    EXPECT_EQ(string->where().source_line, "  \"sm_count\": 80,");

    const auto integer =
        caught_error([&] { read.integer(root["clock"]["base_mhz"], "/clock/base_mhz"); });
    ASSERT_TRUE(integer);
    EXPECT_EQ(integer->message(), "expected an integer, got the number 1410.5");
    EXPECT_EQ(integer->where().line, 4);
    EXPECT_EQ(integer->where().column, 25);

    const auto range = caught_error([&] { read.integer(root["huge"], "/huge"); });
    ASSERT_TRUE(range);
    EXPECT_EQ(range->message(), "integer 18446744073709551615 is out of range");
    EXPECT_EQ(range->where().line, 9);

    const auto number = caught_error([&] { read.number(root["name"], "/name"); });
    ASSERT_TRUE(number);
    EXPECT_EQ(number->message(), "expected a number, got the string \"toy\"");
    EXPECT_EQ(number->where().line, 2);
    EXPECT_EQ(number->where().column, 11);

    const auto boolean = caught_error([&] { read.boolean(root["levels"], "/levels"); });
    ASSERT_TRUE(boolean);
    EXPECT_EQ(boolean->message(), "expected true or false, got an array");
    EXPECT_EQ(boolean->where().line, 5);

    const auto object = caught_error([&] { read.expect_object(root["levels"], "/levels"); });
    ASSERT_TRUE(object);
    EXPECT_EQ(object->message(), "expected an object, got an array");

    const auto array = caught_error([&] { read.expect_array(root["clock"], "/clock"); });
    ASSERT_TRUE(array);
    EXPECT_EQ(array->message(), "expected an array, got an object");
    EXPECT_EQ(array->where().line, 4);
    EXPECT_EQ(array->where().column, 12);
    EXPECT_NE(array->describe().find("toy.json:4:12: error: expected an array, got an object"),
              std::string::npos)
        << array->describe();
}

TEST(JsonReader, UnknownKeysSuggestTheClosestAllowedKeyAtTheKey) {
    const Document doc = parse(sample, "toy.json");
    const Reader read(doc);
    const nlohmann::json& level = doc.value["levels"][0];

    const auto close = caught_error([&] {
        read.check_keys(level, "/levels/0", {"name", "sizes"});
    });
    ASSERT_TRUE(close);
    EXPECT_EQ(close->message(), "unknown key \"size\"");
    EXPECT_EQ(close->where().json_path, "/levels/0/size");
    EXPECT_EQ(close->where().line, 6);
    EXPECT_EQ(close->where().column, 20); // the key, not its value
    ASSERT_EQ(close->notes().size(), 1u);
    EXPECT_EQ(close->notes()[0], "did you mean \"sizes\"?");

    const auto far = caught_error([&] {
        read.expect_object(doc.value["clock"], "/clock", {"base_mhz", "memory_mhz"});
    });
    ASSERT_TRUE(far);
    EXPECT_EQ(far->message(), "unknown key \"boost\"");
    ASSERT_EQ(far->notes().size(), 1u);
    EXPECT_EQ(far->notes()[0], "allowed keys here: \"base_mhz\", \"memory_mhz\"");
}

TEST(JsonReader, MissingMemberNamesItsPathAndPointsAtTheEnclosingObject) {
    const Document doc = parse(sample, "toy.json");
    const Reader read(doc);
    const auto missing = caught_error(
        [&] { read.required(doc.value["levels"][1], "/levels/1", "size", "an integer"); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "missing required field \"size\" (expected an integer)");
    EXPECT_EQ(missing->where().json_path, "/levels/1/size");
    EXPECT_EQ(missing->where().line, 7);
    EXPECT_EQ(missing->where().column, 5);

    const auto with_note =
        caught_error([&] { read.required(doc.value, "", "schema", {}, {"see the docs"}); });
    ASSERT_TRUE(with_note);
    EXPECT_EQ(with_note->message(), "missing required field \"schema\"");
    EXPECT_EQ(with_note->where().line, 1);
    ASSERT_EQ(with_note->notes().size(), 1u);
    EXPECT_EQ(with_note->notes()[0], "see the docs");
}

TEST(JsonReader, DerivedReadersDecideWhereErrorsPoint) {
    // A reader of a document assembled from several texts maps paths itself.
    class Mapped : public Reader {
    public:
        using Reader::Reader;
        SourceLocation locate(const std::string& path, bool at_key) const override {
            SourceLocation where = Reader::locate("/name", at_key);
            where.json_path = path;
            return where;
        }
    };
    const Document doc = parse(sample, "toy.json");
    const Mapped read(doc);
    const auto error = caught_error([&] { read.integer(nlohmann::json("x"), "/elsewhere"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/elsewhere");
    EXPECT_EQ(error->where().line, 2);
}

TEST(JsonReader, DescribesValuesForMessages) {
    EXPECT_EQ(describe_type(nullptr), "null");
    EXPECT_EQ(describe_type(false), "a boolean");
    EXPECT_EQ(describe_type(-3), "the integer -3");
    EXPECT_EQ(describe_type(2.5), "the number 2.5");
    EXPECT_EQ(describe_type(std::string(50, 'x')),
              "the string \"" + std::string(37, 'x') + "...\"");
    EXPECT_EQ(quoted_list({"a", "b"}), "\"a\", \"b\"");
    EXPECT_EQ(quoted_list({}), "");
}

TEST(JsonParse, NumberBeyondTheRangeOfADoubleIsAnInputErrorAtTheNumber) {
    // nlohmann throws out_of_range (no position) for 1e400; it used to reach the user as an
    // internal error.
    const auto huge = caught_error([] { parse("{\n  \"a\": [1, 1e400]\n}", "t.json"); });
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->kind(), ErrorKind::input);
    EXPECT_NE(huge->message().find("1e400"), std::string::npos) << huge->message();
    EXPECT_EQ(huge->where().file, "t.json");
    EXPECT_EQ(huge->where().line, 2);
    EXPECT_EQ(huge->where().column, 12);
    const auto negative = caught_error([] { parse("-1e999", "t.json"); });
    ASSERT_TRUE(negative);
    EXPECT_EQ(negative->kind(), ErrorKind::input);
}

TEST(JsonValueSpans, GiveEachValueAndMemberKeyAsWritten) {
    const auto spans = value_spans(sample, "sample.json");
    const auto value_of = [&](const std::string& pointer) {
        const TextSpan& s = spans.at(pointer);
        return sample.substr(s.value_begin, s.value_end - s.value_begin);
    };
    const auto member_of = [&](const std::string& pointer) {
        const TextSpan& s = spans.at(pointer);
        return sample.substr(s.key_begin, s.value_end - s.key_begin);
    };
    EXPECT_EQ(value_of(""), sample);
    EXPECT_EQ(value_of("/sm_count"), "80");
    EXPECT_EQ(member_of("/sm_count"), "\"sm_count\": 80");
    EXPECT_EQ(value_of("/clock"), R"({"base_mhz": 1410.5, "boost": true})");
    EXPECT_EQ(member_of("/clock/base_mhz"), "\"base_mhz\": 1410.5");
    EXPECT_EQ(value_of("/levels/1"), R"({"name": "l2"})");
    EXPECT_EQ(spans.at("/levels/1").key_begin, spans.at("/levels/1").value_begin); // no key
    EXPECT_EQ(value_of("/levels/0/name"), "\"l1\"");
    EXPECT_EQ(value_of("/huge"), "18446744073709551615");
    // Every value of the document, and nothing else.
    EXPECT_EQ(spans.size(), 13u);
}

TEST(JsonValueSpans, DecodeEscapedKeysIntoPointers) {
    const std::string text = R"({"a/b": {"c~d": "x\"y"}})";
    const auto spans = value_spans(text, "t.json");
    const TextSpan& s = spans.at("/a~1b/c~0d");
    EXPECT_EQ(text.substr(s.key_begin, s.value_end - s.key_begin), R"("c~d": "x\"y")");
}
