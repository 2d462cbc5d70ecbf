// The position index is internal to src/machine; the tests include it from there.
#include "expect_error.hpp"
#include "json_positions.hpp"

#include <gtest/gtest.h>

using namespace kerncast::json_positions;

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
    const kerncast::SourceLocation where = index.locate("/c");
    EXPECT_EQ(where.file, "t.json");
    EXPECT_EQ(where.json_path, "/c");
    EXPECT_EQ(where.source_line, "  \"c\": true");
}

TEST(JsonPositions, DuplicateKeysAndDeepNestingAreInputErrors) {
    const auto duplicate =
        caught_error([] { PositionIndex::scan("{\"a\": 1,\n \"a\": 2}", "t.json"); });
    ASSERT_TRUE(duplicate);
    EXPECT_EQ(duplicate->message(), "duplicate key \"a\" (at /)");
    EXPECT_EQ(duplicate->where().line, 2);
    EXPECT_EQ(duplicate->where().column, 2);

    const std::string deep = std::string(300, '[') + std::string(300, ']');
    const auto nested = caught_error([&] { PositionIndex::scan(deep, "t.json"); });
    ASSERT_TRUE(nested);
    EXPECT_EQ(nested->message(), "JSON nested deeper than 200 levels");
}
