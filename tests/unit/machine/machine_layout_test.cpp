// The layout of machine-file text (machine_layout.cpp): keys in the document's order, objects
// and arrays of plain values (or of {"value", "source"} pairs) on one line when they fit in
// 100 columns, everything else one member per line with two-space indents; the text parses
// back to the same document.
#include "../../../src/machine/machine_layout.hpp"

#include <gtest/gtest.h>
#include <string>

namespace kerncast::machine_format {
namespace {

using ordered = nlohmann::ordered_json;

TEST(MachineLayout, PlainValuesStayOnOneLineInTheGivenOrder) {
    const ordered document = ordered::parse(R"({"z": 1, "a": "x", "m": [1, 2.5]})");
    const std::string text = layout_machine_text(document);
    EXPECT_EQ(text, "{\n  \"z\": 1,\n  \"a\": \"x\",\n  \"m\": [1, 2.5]\n}");
    EXPECT_EQ(ordered::parse(text), document);
}

TEST(MachineLayout, SourcedValuesCountAsPlain) {
    const ordered document =
        ordered::parse(R"({"sm_count": {"value": 108, "source": "sheet"}, "warp_size": 32})");
    EXPECT_EQ(layout_machine_text(document),
              R"({"sm_count": {"value": 108, "source": "sheet"}, "warp_size": 32})");
}

TEST(MachineLayout, NestedStructuresBreakAndIndent) {
    const ordered document = ordered::parse(
        R"({"compute": {"source": "s", "rates": [{"op": "fma", "n": 64}]}, "empty": {}})");
    EXPECT_EQ(layout_machine_text(document), "{\n"
                                             "  \"compute\": {\n"
                                             "    \"source\": \"s\",\n"
                                             "    \"rates\": [\n"
                                             "      {\"op\": \"fma\", \"n\": 64}\n"
                                             "    ]\n"
                                             "  },\n"
                                             "  \"empty\": {}\n"
                                             "}");
}

TEST(MachineLayout, LinesLongerThanOneHundredColumnsBreak) {
    ordered list = ordered::array();
    for (int k = 0; k < 40; ++k)
        list.push_back(k);
    ordered short_list = ordered::array({1, 2, 3});
    ordered document = ordered::object();
    document["carveouts"] = list;
    document["short"] = short_list;
    const std::string text = layout_machine_text(document);
    // "  \"carveouts\": [0, 1, ..., 39]" is 13 + 2 + 148 columns: one element a line.
    EXPECT_NE(text.find("  \"carveouts\": [\n    0,\n    1,\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  \"short\": [1, 2, 3]\n"), std::string::npos) << text;
    EXPECT_EQ(ordered::parse(text), document);
    std::size_t longest = 0, start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        longest = std::max(longest, end - start);
        start = end + 1;
    }
    EXPECT_LE(longest, 100u);
}

} // namespace
} // namespace kerncast::machine_format
