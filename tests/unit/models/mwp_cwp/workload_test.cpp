// The workload file: the shipped Table 2 example, and the positions and wording of errors.
#include "kerncast/error.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

using ::testing::HasSubstr;

// A valid document; tests replace one line to break it.
const std::string valid = R"({
  "schema": "kerncast.workload/1",
  "threads_per_block": 128,
  "blocks": 80,
  "comp_insts": 27.5,
  "uncoal_mem_insts": 6,
  "coal_mem_insts": 0,
  "synch_insts": 6,
  "uncoal_per_mw": 32,
  "load_bytes_per_warp": 128,
  "registers_per_thread": 10,
  "shared_memory_per_block_bytes": 2048
}
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

Error error_of(const std::string& text) {
    try {
        parse_workload_json(text, "w.json");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "expected an error for:\n" << text;
    return Error(ErrorKind::internal, "no error");
}

TEST(Workload, ShippedTable2Example) {
    const Workload w =
        load_workload_file(std::string(KERNCAST_SOURCE_DIR) + "/examples/workloads/hk-table2.json");
    EXPECT_EQ(w.threads_per_block, 128);
    EXPECT_EQ(w.blocks, 80);
    EXPECT_EQ(w.comp_insts, 27);
    EXPECT_EQ(w.uncoal_mem_insts, 6);
    EXPECT_EQ(w.coal_mem_insts, 0);
    EXPECT_EQ(w.synch_insts, 6);
    EXPECT_EQ(w.uncoal_per_mw, 32);
    EXPECT_EQ(w.load_bytes_per_warp, 128);
    EXPECT_EQ(w.active_blocks_per_sm, 5);
    EXPECT_EQ(w.active_sms, std::nullopt);
    EXPECT_EQ(w.registers_per_thread, std::nullopt);
    EXPECT_EQ(w.mem_insts(), 6);
    EXPECT_EQ(w.total_insts(), 33);
    EXPECT_THAT(w.comment, HasSubstr("due to high resource usage"));
}

TEST(Workload, ValidDocumentWithNonIntegerCounts) {
    const Workload w = parse_workload_json(valid, "w.json");
    EXPECT_EQ(w.comp_insts, 27.5);
    EXPECT_EQ(w.registers_per_thread, 10);
    EXPECT_EQ(w.shared_memory_per_block_bytes, 2048);
    EXPECT_EQ(w.active_blocks_per_sm, std::nullopt);
}

TEST(Workload, MalformedJsonPointsAtLineAndColumn) {
    // The doubled comma on line 4 ("  "blocks": 80,,"): the parser stops at the second comma.
    const Error e = error_of(replace(valid, "\"blocks\": 80,", "\"blocks\": 80,,"));
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_EQ(e.where().file, "w.json");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 16);
    EXPECT_EQ(e.where().source_line, "  \"blocks\": 80,,");
    EXPECT_THAT(e.message(), HasSubstr("malformed JSON"));
    EXPECT_THAT(e.describe(), HasSubstr("w.json:4:16: error: malformed JSON"));
    EXPECT_THAT(e.describe(), HasSubstr("  \"blocks\": 80,,\n                 ^\n"));
}

TEST(Workload, MalformedJsonPointsAtTheStartOfTheUnexpectedToken) {
    // A missing comma after line 3: the parser stops at the end of "blocks" on line 4; the
    // caret goes to its opening quote.
    Error e = error_of(replace(valid, "\"threads_per_block\": 128,", "\"threads_per_block\": 128"));
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 3);
    // An invalid literal: the caret goes to its first character.
    e = error_of(replace(valid, "\"blocks\": 80", "\"blocks\": eighty"));
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 13);
}

TEST(Workload, TruncatedJson) {
    const Error e = error_of("{\n  \"schema\": \"kerncast.workload/1\",\n");
    EXPECT_EQ(e.where().line, 2); // just after the last token
    EXPECT_EQ(e.where().column, 35);
    EXPECT_THAT(e.message(), HasSubstr("malformed JSON"));
}

TEST(Workload, MissingFieldNamesItsPath) {
    const Error e = error_of(replace(valid, "  \"comp_insts\": 27.5,\n", ""));
    EXPECT_EQ(e.message(), "missing required field \"comp_insts\"");
    EXPECT_EQ(e.where().json_path, "/comp_insts");
    EXPECT_EQ(e.where().file, "w.json");
}

TEST(Workload, WrongTypePointsAtTheValue) {
    const Error e = error_of(replace(valid, "\"comp_insts\": 27.5", "\"comp_insts\": \"27\""));
    EXPECT_EQ(e.message(), "expected a number, got the string \"27\"");
    EXPECT_EQ(e.where().json_path, "/comp_insts");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.where().column, 17);
    EXPECT_EQ(e.where().source_line, "  \"comp_insts\": \"27\",");
}

TEST(Workload, NegativeCount) {
    const Error e = error_of(replace(valid, "\"synch_insts\": 6", "\"synch_insts\": -1"));
    EXPECT_EQ(e.message(), "'synch_insts' must not be negative, got -1");
    EXPECT_EQ(e.where().json_path, "/synch_insts");
    EXPECT_EQ(e.where().line, 8);
}

TEST(Workload, IntegerFields) {
    Error e =
        error_of(replace(valid, "\"threads_per_block\": 128", "\"threads_per_block\": 128.5"));
    EXPECT_EQ(e.message(), "expected an integer, got the number 128.5");
    EXPECT_EQ(e.where().json_path, "/threads_per_block");
    e = error_of(replace(valid, "\"blocks\": 80", "\"blocks\": 0"));
    EXPECT_EQ(e.message(), "'blocks' must be at least 1, got 0");
    e = error_of(
        replace(valid, "\"registers_per_thread\": 10", "\"registers_per_thread\": 99999999999"));
    EXPECT_THAT(e.message(), HasSubstr("'registers_per_thread' is too large"));
    e = error_of(replace(valid, "\"uncoal_per_mw\": 32", "\"uncoal_per_mw\": 0.5"));
    EXPECT_EQ(e.message(), "'uncoal_per_mw' must be at least 1, got 0.5");
    e = error_of(replace(valid, "\"load_bytes_per_warp\": 128", "\"load_bytes_per_warp\": 0"));
    EXPECT_EQ(e.message(), "'load_bytes_per_warp' must be positive");
}

TEST(Workload, UnknownKeyNamesTheClosestKnownKey) {
    const Error e = error_of(replace(valid, "\"comp_insts\"", "\"comp_inst\""));
    EXPECT_EQ(e.message(), "unknown key \"comp_inst\"");
    ASSERT_EQ(e.notes().size(), 1u);
    EXPECT_EQ(e.notes()[0], "did you mean \"comp_insts\"?");
    EXPECT_EQ(e.where().json_path, "/comp_inst");
    EXPECT_EQ(e.where().line, 5);
}

TEST(Workload, DuplicateKey) {
    const Error e = error_of(replace(valid, "\"blocks\": 80,", "\"blocks\": 80, \"blocks\": 90,"));
    EXPECT_EQ(e.message(), "duplicate key \"blocks\" (at /)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 17);
    ASSERT_EQ(e.notes().size(), 1u);
    EXPECT_EQ(e.notes()[0], "first given at line 4");
}

TEST(Workload, KeyNamesInsideStringsAreNotKeys) {
    // An escaped "blocks": inside the comment is text, not a second key.
    const Workload w =
        parse_workload_json(replace(valid, "\"blocks\": 80,",
                                    "\"blocks\": 80, \"comment\": \"not \\\"blocks\\\": 3\","),
                            "w.json");
    EXPECT_EQ(w.blocks, 80);
    EXPECT_EQ(w.comment, "not \"blocks\": 3");
}

TEST(Workload, Schema) {
    Error e = error_of(replace(valid, "kerncast.workload/1", "kerncast.workload/2"));
    EXPECT_EQ(
        e.message(),
        "unsupported schema 'kerncast.workload/2'; this kerncast reads 'kerncast.workload/1'");
    EXPECT_EQ(e.where().line, 2);
    e = error_of(replace(valid, "  \"schema\": \"kerncast.workload/1\",\n", ""));
    EXPECT_EQ(e.message(), "missing required field \"schema\"");
    e = error_of("[1, 2]");
    EXPECT_EQ(e.message(), "a workload must be a JSON object, got array");
}

TEST(Workload, ResourcesNeededWithoutActiveBlocksOverride) {
    Error e = error_of(replace(valid, "  \"registers_per_thread\": 10,\n", ""));
    EXPECT_EQ(e.message(), "missing required field \"registers_per_thread\"");
    EXPECT_EQ(e.where().json_path, "/registers_per_thread");
    // With the override the resources may be left out.
    const Workload w = parse_workload_json(
        replace(valid, "  \"registers_per_thread\": 10,\n", "  \"active_blocks_per_sm\": 3,\n"),
        "w.json");
    EXPECT_EQ(w.active_blocks_per_sm, 3);
}

TEST(Workload, NoInstructions) {
    std::string text = replace(valid, "\"comp_insts\": 27.5", "\"comp_insts\": 0");
    text = replace(text, "\"uncoal_mem_insts\": 6", "\"uncoal_mem_insts\": 0");
    EXPECT_THAT(error_of(text).message(), HasSubstr("the workload has no instructions"));
}

TEST(Workload, UnreadableFile) {
    try {
        load_workload_file("/nonexistent/w.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "cannot open workload file: No such file or directory");
        EXPECT_EQ(e.where().file, "/nonexistent/w.json");
    }
}

} // namespace
} // namespace kerncast::models
