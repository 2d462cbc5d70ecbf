// yaml_structure_problem: duplicate keys, alias cycles and alias explosions, each found at its
// node; anchors used as plain repetition pass.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/yaml_structure.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

TEST(YamlStructure, RepeatedAnchorsPassCyclesDoNot) {
    EXPECT_FALSE(yaml_structure_problem(YAML::Load("a: &x [1, 2]\nb: *x\nc: {d: *x}\n")));
    const auto cycle = yaml_structure_problem(YAML::Load("a: &x [1, *x]\n"));
    ASSERT_TRUE(cycle);
    EXPECT_EQ(cycle->message, "a YAML alias refers to a node that contains it (a cycle)");
    const auto deeper = yaml_structure_problem(YAML::Load("a: &x {b: [c, {d: *x}]}\n"));
    ASSERT_TRUE(deeper);
    EXPECT_EQ(deeper->message, cycle->message);
}

TEST(YamlStructure, DuplicateKeysAreNamedAtTheSecond) {
    const auto problem = yaml_structure_problem(YAML::Load("a: 1\nb:\n  c: 2\n  c: 3\n"));
    ASSERT_TRUE(problem);
    EXPECT_EQ(problem->message, "key 'c' is given twice");
    EXPECT_EQ(problem->node.Mark().line, 3); // 0-based: the second c
}

TEST(YamlStructure, AliasesThatExpandBeyondTheLimitAreRefused) {
    // Each level doubles the nodes: 2^20 lists of 10 elements expand to over 10^7 nodes.
    std::string text = "l0: &l0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n";
    for (int k = 1; k <= 20; ++k)
        text += "l" + std::to_string(k) + ": &l" + std::to_string(k) + " [*l" +
                std::to_string(k - 1) + ", *l" + std::to_string(k - 1) + "]\n";
    const auto problem = yaml_structure_problem(YAML::Load(text));
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->message.find("expand to more than 1000000 nodes"), std::string::npos);
}

TEST(YamlStructure, AKernelFileWithACycleIsAnErrorNotAHang) {
    // issue 47: this never returned from `count` or Python's parse_kernel.
    try {
        (void)parse_kernel_text("name: &a [*a]\ndomain: \"{ [i] : 0 <= i < 4 }\"\n", "k.yaml");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "a YAML alias refers to a node that contains it (a cycle)");
        EXPECT_EQ(e.where().file, "k.yaml");
        EXPECT_EQ(e.where().line, 1);
    }
}
