#include "kerncast/error.hpp"
#include "kerncast/json_text_edit.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>

using namespace kerncast;
using kerncast::json_text_edit::JsonTextEdit;
using ordered = nlohmann::ordered_json;

namespace {

// A machine-file-like text: members one per line, short objects on one line, and spellings a
// writer would not reproduce ("96 KiB", 1380 for a double, an exponent).
const std::string text = R"({
  "schema": "toy/1",
  "sources": {
    "old": {"kind": "paper", "citation": "A"},
    "keep": {"kind": "paper", "citation": "B"}
  },
  "sizes": {"shared": "96 KiB", "clock": 1380, "tiny": 1e-09},
  "fits": {
    "x": {"a": 1.0, "b": 2.0},
    "y": {"a": 3.0, "b": 4.0}
  }
}
)";

} // namespace

TEST(JsonTextEdit, WithoutEditsTheTextIsUnchanged) {
    EXPECT_EQ(JsonTextEdit(text, "toy.json").text(), text);
}

TEST(JsonTextEdit, ReplacingAValueKeepsEveryOtherByte) {
    JsonTextEdit edit(text, "toy.json");
    edit.replace_value("/fits/y", R"({"a": 5.5, "b": 6.5})");
    std::string expected = text;
    expected.replace(expected.find(R"({"a": 3.0, "b": 4.0})"), 20, R"({"a": 5.5, "b": 6.5})");
    EXPECT_EQ(edit.text(), expected);
}

TEST(JsonTextEdit, ReplacingAMemberPutsTheNewOneInItsPlace) {
    JsonTextEdit edit(text, "toy.json");
    edit.replace_member("/sources/old", R"("new": {"kind": "derived", "citation": "C"})");
    const ordered result = ordered::parse(edit.text());
    ASSERT_EQ(result["sources"].size(), 2u);
    EXPECT_EQ(result["sources"].begin().key(), "new");
    EXPECT_EQ(result["sources"]["keep"]["citation"], "B");
    EXPECT_NE(edit.text().find(R"("shared": "96 KiB", "clock": 1380, "tiny": 1e-09)"),
              std::string::npos);
}

TEST(JsonTextEdit, RemovingTheFirstMiddleLastOrOnlyMemberKeepsValidJson) {
    {
        JsonTextEdit edit(text, "toy.json");
        edit.remove_member("/sources/old"); // first of two, on lines of their own
        EXPECT_NE(edit.text().find("  \"sources\": {\n    \"keep\""), std::string::npos);
        EXPECT_EQ(ordered::parse(edit.text())["sources"].size(), 1u);
    }
    {
        JsonTextEdit edit(text, "toy.json");
        edit.remove_member("/fits/y"); // the last: the comma before it goes
        EXPECT_NE(edit.text().find("\"x\": {\"a\": 1.0, \"b\": 2.0}\n  }"), std::string::npos);
    }
    {
        JsonTextEdit edit(text, "toy.json");
        edit.remove_member("/sizes/clock"); // the middle one of a one-line object
        EXPECT_NE(edit.text().find(R"({"shared": "96 KiB", "tiny": 1e-09})"), std::string::npos);
    }
    {
        JsonTextEdit edit(R"({"only": {"a": 1}})", "t.json");
        edit.remove_member("/only/a");
        EXPECT_EQ(edit.text(), R"({"only": {}})");
    }
}

TEST(JsonTextEdit, AppendedMembersFollowTheLayoutOfTheLastOne) {
    JsonTextEdit edit(text, "toy.json");
    edit.append_member("/fits", R"("z": {"a": 7.0, "b": 8.0})");
    edit.append_member("/fits", R"("w": {"a": 9.0, "b": 10.0})"); // after z, in call order
    edit.append_member("/sizes", R"("l2": "6 MiB")");
    edit.append_member("", R"("extra": [1, 2])");
    const std::string edited = edit.text();
    EXPECT_NE(edited.find("\"y\": {\"a\": 3.0, \"b\": 4.0},\n    \"z\": {\"a\": 7.0, \"b\": 8.0},"
                          "\n    \"w\": {\"a\": 9.0, \"b\": 10.0}\n  }"),
              std::string::npos);
    EXPECT_NE(edited.find(R"("tiny": 1e-09, "l2": "6 MiB"})"), std::string::npos);
    EXPECT_NE(edited.find("  },\n  \"extra\": [1, 2]\n}\n"), std::string::npos);

    JsonTextEdit empty(R"({"a": {}, "b": { }})", "t.json");
    empty.append_member("/a", R"("k": 1)");
    EXPECT_EQ(ordered::parse(empty.text()), ordered::parse(R"({"a": {"k": 1}, "b": {}})"));
}

TEST(JsonTextEdit, RemovingTheLastMemberAndAppendingGivesValidJson) {
    JsonTextEdit edit(text, "toy.json");
    edit.remove_member("/fits/y");
    edit.append_member("/fits", R"("z": {"a": 7.0, "b": 8.0})");
    EXPECT_EQ(ordered::parse(edit.text())["fits"],
              ordered::parse(R"({"x": {"a": 1.0, "b": 2.0}, "z": {"a": 7.0, "b": 8.0}})"));
}

TEST(JsonTextEdit, ATextWithCrlfLineEndsKeepsThem) {
    std::string crlf;
    for (char c : text)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    JsonTextEdit edit(crlf, "toy.json");
    edit.append_member("/fits", "\"z\": {\n      \"a\": 7.0\n    }");
    edit.replace_value("/sizes/clock", "1400");
    const std::string edited = edit.text();
    EXPECT_NE(edited.find("},\r\n    \"z\": {\r\n      \"a\": 7.0\r\n    }\r\n  }"),
              std::string::npos)
        << edited;
    for (std::size_t at = edited.find('\n'); at != std::string::npos;
         at = edited.find('\n', at + 1))
        ASSERT_EQ(edited[at - 1], '\r') << "a bare LF at byte " << at;
    EXPECT_EQ(ordered::parse(edited)["fits"]["z"]["a"], 7.0);
}

TEST(JsonTextEdit, ReadsTheOriginalTextOfValuesAndMembers) {
    const JsonTextEdit edit(text, "toy.json");
    EXPECT_EQ(edit.value_text("/sizes/shared"), "\"96 KiB\"");
    EXPECT_EQ(edit.member_text("/sizes/clock"), "\"clock\": 1380");
    EXPECT_TRUE(edit.contains("/fits/x/b"));
    EXPECT_FALSE(edit.contains("/fits/q"));
}

TEST(JsonTextEdit, AMissingPointerIsAnInputErrorNamingTheText) {
    JsonTextEdit edit(text, "toy.json");
    try {
        edit.replace_value("/fits/q", "1");
        FAIL() << "expected an Error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(std::string(error.what()).find("/fits/q"), std::string::npos);
        EXPECT_EQ(error.where().file, "toy.json");
    }
}

TEST(JsonTextEdit, OverlappingEditsAreRefused) {
    JsonTextEdit edit(text, "toy.json");
    edit.replace_value("/fits/x", "{}");
    EXPECT_THROW(edit.replace_value("/fits/x/a", "2"), Error);
    edit.remove_member("/fits/x"); // found when the text is assembled
    EXPECT_THROW(edit.text(), Error);
    JsonTextEdit all(text, "toy.json");
    all.remove_member("/sources/old");
    all.remove_member("/sources/keep");
    all.append_member("/sources", R"("n": 1)");
    EXPECT_THROW(all.text(), Error);
}

TEST(JsonTextEdit, RemovingNeighboursTakesEachCommaOnce) {
    JsonTextEdit edit(R"({"a": 1, "b": 2, "c": 3, "d": 4})", "t.json");
    edit.remove_member("/b");
    edit.remove_member("/d");
    edit.remove_member("/c");
    EXPECT_EQ(edit.text(), R"({"a": 1})");
    JsonTextEdit all(R"({"a": 1, "b": 2})", "t.json");
    all.remove_member("/a");
    all.remove_member("/b");
    EXPECT_EQ(all.text(), "{}");
}

// Oracle: random objects in two layouts, random edits of distinct members applied to the text
// and to the parsed document; the edited text must parse to the edited document (key order
// included).
TEST(JsonTextEdit, RandomEditsMatchTheSameEditsOfTheParsedDocument) {
    std::mt19937 random(20261126);
    const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
    for (int trial = 0; trial < 400; ++trial) {
        ordered document = ordered::object();
        const int sections = 1 + pick(3);
        for (int s = 0; s < sections; ++s) {
            ordered section = ordered::object();
            const int members = pick(5);
            for (int m = 0; m < members; ++m)
                section["m" + std::to_string(m)] =
                    pick(2) ? ordered(pick(100)) : ordered{{"v", pick(100)}, {"w", "t"}};
            document["s" + std::to_string(s)] = section;
        }
        const std::string original = pick(2) ? document.dump(2) : document.dump();
        SCOPED_TRACE(original);
        JsonTextEdit edit(original, "random.json");
        ordered expected = document;
        int fresh = 0;
        for (auto& [name, section] : document.items()) {
            const std::string pointer = "/" + name;
            ordered& target = expected[name];
            std::vector<std::string> keys;
            for (auto& [key, value] : section.items())
                keys.push_back(key);
            std::size_t kept = keys.size();
            for (const auto& key : keys) {
                const std::string member = pointer + "/" + key;
                switch (pick(4)) {
                case 0: // leave it
                    break;
                case 1: {
                    const int value = 1000 + pick(100);
                    edit.replace_value(member, std::to_string(value));
                    target[key] = value;
                    break;
                }
                case 2: {
                    const std::string renamed = "r" + std::to_string(fresh++);
                    const ordered value = ordered::array({pick(9)});
                    edit.replace_member(member, "\"" + renamed + "\": " + value.dump());
                    ordered replaced = ordered::object();
                    for (auto& [k, v] : target.items())
                        replaced[k == key ? renamed : k] = k == key ? value : v;
                    target = replaced;
                    break;
                }
                default:
                    edit.remove_member(member);
                    target.erase(key);
                    --kept;
                }
            }
            if (pick(2) && (kept > 0 || keys.empty())) { // not after removing every member
                const std::string added = "a" + std::to_string(fresh++);
                edit.append_member(pointer, "\"" + added + "\": {\"n\": 1}");
                target[added] = ordered{{"n", 1}};
            }
        }
        ASSERT_EQ(ordered::parse(edit.text()), expected);
    }
}
