// The machine-file entry points (machine_json.cpp): malformed JSON, duplicate keys and the
// schema, and files loaded by path.
#include "kerncast/machine/machine_json.hpp"
#include "toy_machine.hpp"

#include <fstream>
#include <gtest/gtest.h>

using namespace kerncast;

TEST(MachineJson, MalformedJsonGivesLineColumnAndCaret) {
    // Line 3 lacks the comma after the identity object.
    const std::string text = "{\n  \"schema\": \"kerncast.machine/1\",\n  \"identity\": {}\n"
                             "  \"sources\": {}\n}\n";
    const auto error = caught_error([&] { parse(text); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->message().rfind("malformed JSON: ", 0), 0u) << error->message();
    EXPECT_EQ(error->where().file, "toy.json");
    EXPECT_EQ(error->where().line, 4);
    EXPECT_EQ(error->where().column, 3);
    EXPECT_EQ(error->where().source_line, "  \"sources\": {}");
    EXPECT_TRUE(has_note(*error, "is a ',' missing before this?"));
    EXPECT_NE(error->describe().find("toy.json:4:3: error: malformed JSON"), std::string::npos)
        << error->describe();
    EXPECT_NE(error->describe().find("  \"sources\": {}\n    ^\n"), std::string::npos)
        << error->describe();
}

TEST(MachineJson, TruncatedFileReportsTheEnd) {
    const auto error = caught_error([&] { parse("{\n  \"schema\": \"kerncast.machine/1\",\n"); });
    ASSERT_TRUE(error);
    // The caret goes after the last character read, at the end of line 2.
    EXPECT_EQ(error->where().line, 2);
    EXPECT_EQ(error->where().column, 34);
    EXPECT_NE(error->message().find("malformed JSON"), std::string::npos);
    EXPECT_NE(error->message().find("end of input"), std::string::npos) << error->message();
}

TEST(MachineJson, DuplicateKeyIsAnError) {
    const auto error = caught_error(
        [&] { parse(replaced(minimal, "\"sm_count\": 4,", "\"sm_count\": 4, \"sm_count\": 8,")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "duplicate key \"sm_count\" (at /compute)");
    EXPECT_EQ(error->where().line, 11);
    EXPECT_EQ(error->where().column, 20);
}

TEST(MachineJson, SchemaIsRequiredAndChecked) {
    const auto missing =
        caught_error([&] { parse(replaced(minimal, "\"schema\": \"kerncast.machine/1\",", "")); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(),
              "missing required field \"schema\" (expected \"kerncast.machine/1\")");
    const auto other =
        caught_error([&] { parse(replaced(minimal, "kerncast.machine/1", "kerncast.machine/2")); });
    ASSERT_TRUE(other);
    EXPECT_EQ(other->message(), "unsupported schema \"kerncast.machine/2\"");
    EXPECT_EQ(other->where().json_path, "/schema");
}

TEST(MachineJson, LoadMachineFileNamesThePath) {
    const std::string path = testing::TempDir() + "kerncast_bad_machine.json";
    std::ofstream(path) << replaced(minimal, "\"sm_count\": 4", "\"sm_count\": -4");
    const auto error = caught_error([&] { load_machine_file(path); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().file, path);
    EXPECT_EQ(error->message(), "must be positive, got -4");

    const auto missing = caught_error([&] { load_machine_file(path + ".absent"); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "cannot open machine file: No such file or directory");
}
