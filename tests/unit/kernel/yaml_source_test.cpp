#include "kerncast/kernel/yaml_source.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

TEST(YamlSource, MarksBecomeOneBasedLocationsWithTheirLine) {
    const std::string text = "a: 1\nb: [2, 3]\n";
    const YamlSource source(text, "dir/f.yaml");
    EXPECT_EQ(source.file(), "dir/f.yaml");
    EXPECT_EQ(source.line_count(), 2);
    const YAML::Node root = YAML::Load(text);
    const SourceLocation where = source.at(root["b"][1]);
    EXPECT_EQ(where.file, "dir/f.yaml");
    EXPECT_EQ(where.line, 2);
    EXPECT_EQ(where.column, 8);
    EXPECT_EQ(where.source_line, "b: [2, 3]");
    // Outside the text: the position, and no line.
    EXPECT_EQ(source.line(-1), "");
    EXPECT_EQ(source.line(2), "");
    EXPECT_EQ(source.at_mark(5, 0).source_line, "");
    EXPECT_EQ(source.at_mark(5, 0).line, 6);
}

TEST(YamlSource, ScalarsAndFailuresNameTheNode) {
    const std::string text = "a: [1]\nb: x\n";
    const YamlSource source(text, "f.yaml");
    const YAML::Node root = YAML::Load(text);
    EXPECT_EQ(source.scalar(root["b"], "b"), "x");
    try {
        source.scalar(root["a"], "a");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "a must be a single value");
        EXPECT_EQ(e.where().line, 1);
        EXPECT_EQ(e.where().column, 4);
    }
}
