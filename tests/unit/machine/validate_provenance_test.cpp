// The rules of the machine's identity and sources (validate_provenance.cpp).
#include "validate_fixture.hpp"

#include <fmt/format.h>

using namespace kerncast;
using namespace kerncast::machine_test;

TEST(ValidateMachine, EverySourceMustBeDeclared) {
    MachineModel m = valid_machine();
    m.memory[2].peak_bandwidth_gbs->source = "nowhere";
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "source \"nowhere\" is not declared in \"sources\"");
    EXPECT_EQ(error->where().json_path, "/memory/2/peak_bandwidth_gbs");
    EXPECT_EQ(error->where().file, "toy.json");
}

TEST(ValidateMachine, MeasuredSourceNeedsARun) {
    MachineModel m = valid_machine();
    m.sources["probe"] = Provenance{SourceKind::measured, "kerncast probe", ""};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/sources/probe/run");
}

TEST(ValidateMachine, UncertaintyRules) {
    const auto confidence =
        expect_invalid(replaced(probed(), "\"confidence\": \"high\"", "\"confidence\": \"hihg\""),
                       "expected \"high\", \"medium\" or \"low\", got \"hihg\"",
                       "/sources/probe/uncertainty/confidence", "\"hihg\"");
    ASSERT_TRUE(confidence);
    EXPECT_TRUE(has_note(*confidence, "did you mean \"high\"?"));
    expect_invalid(replaced(probed(), "\"relative_spread\": 0.012", "\"relative_spread\": -0.1"),
                   "must not be negative, got -0.1", "/sources/probe/uncertainty/relative_spread",
                   "-0.1");
    expect_invalid(replaced(probed(), "\"repetitions\": 5", "\"repetitions\": 0"),
                   "must be at least 1, got 0", "/sources/probe/uncertainty/repetitions", "0}");
    // A spread of zero and a single repetition are possible (if not reassuring).
    EXPECT_NO_THROW(parse_machine_json(
        replaced(replaced(probed(), "\"relative_spread\": 0.012", "\"relative_spread\": 0"),
                 "\"repetitions\": 5", "\"repetitions\": 1"),
        "probed.json"));
}
