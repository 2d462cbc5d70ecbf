// Model files: the parts, parameters and their settings; errors at file:line:column of the
// offending character (plain, quoted and block scalars); the example models of sec. 8 parse
// and their features resolve on the example kernels.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"
#include "kerncast/models/calibrated/model_features.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

namespace {

Error error_of(const std::string& text) {
    try {
        parse_cost_model(text, "m.yaml");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "parsed:\n" << text;
    return Error(ErrorKind::internal, "");
}

const char* const linear = R"(name: linear
output: f_time
let:
  c_ops: p_madd * f_op_float32_madd
expression: p_launch * f_sync_kernel_launch + c_ops
parameters:
  p_launch: {initial: 1e-5, min: 0, description: launch}
  p_madd: 2e-12
)";

} // namespace

TEST(CostModel, PartsParametersAndEvaluation) {
    const CostModel model = parse_cost_model(linear, "m.yaml");
    EXPECT_EQ(model.name, "linear");
    EXPECT_EQ(model.output.kind, FeatureKind::time);
    ASSERT_EQ(model.parameters.size(), 2u);
    EXPECT_EQ(model.parameters[0].name, "p_madd"); // order of first use: the let comes first
    EXPECT_EQ(model.parameters[0].initial, 2e-12);
    EXPECT_EQ(model.parameters[1].name, "p_launch");
    EXPECT_EQ(model.parameters[1].min, 0.0);
    EXPECT_EQ(model.parameters[1].description, "launch");
    ASSERT_EQ(model.features().size(), 2u);
    EXPECT_DOUBLE_EQ(model.evaluate({1e-12, 1e-5}, {1e9, 1}), 1e-3 + 1e-5);
}

TEST(CostModel, ErrorsPointIntoPlainQuotedAndBlockScalars) {
    // Plain scalar: column of the misspelt field.
    Error e = error_of("name: m\noutput: f_time\nexpression: p_a * f_op_float32_mad\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().column, 13 + 19);
    ASSERT_FALSE(e.notes().empty());
    EXPECT_NE(e.notes().front().find("f_op_float32_madd"), std::string::npos);
    // Quoted scalar.
    e = error_of("name: m\noutput: f_time\nexpression: \"p_a * (f_thread_groups\"\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().column, 14 + 22);
    // Block scalar, second line of the definition.
    e = error_of("name: m\noutput: f_time\nlet:\n  c: |\n    p_a * f_thread_groups\n"
                 "    + p_b * f_mem_access_globl\nexpression: c\n");
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.where().column, 5 + 8 + 13);
    EXPECT_NE(e.message().find("let c:"), std::string::npos);
    // Plain scalar continued on the next line.
    e = error_of("name: m\noutput: f_time\nexpression: p_a * f_thread_groups\n  + p_b ^\n");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.where().column, 10);
}

TEST(CostModel, FileLevelErrors) {
    EXPECT_EQ(error_of("name: m\noutput: f_time\nexpresion: 1\n").where().line, 3);
    Error e = error_of("name: m\noutput: f_tme\nexpression: p_a\n");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().column, 9);
    EXPECT_NE(e.notes().front().find("f_time"), std::string::npos);
    e = error_of("name: m\noutput: f_thread_groups\nexpression: p_a\n");
    EXPECT_NE(e.message().find("not measured"), std::string::npos);
    e = error_of("name: m\noutput: f_time\nexpression: p_a * f_time\n");
    EXPECT_NE(e.message().find("measured feature"), std::string::npos);
    e = error_of("name: m\noutput: f_time\nexpression: p_a\nparameters:\n  p_b: 1\n");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_NE(e.message().find("not used"), std::string::npos);
    e = error_of("name: m\noutput: f_time\nexpression: c_x\n");
    EXPECT_NE(e.message().find("unknown name 'c_x'"), std::string::npos);
    e = error_of("name: m\noutput: f_time\nlet:\n  p_x: 1\nexpression: 1\n");
    EXPECT_EQ(e.where().line, 4);
    e = error_of("name: m\noutput: f_time\nexpression: [1\n");
    EXPECT_NE(e.message().find("YAML"), std::string::npos);
}

// Every example model parses, and each of its features counts something on one of the
// kernels it was written for (so no feature name is silently a constant zero).
TEST(CostModel, ExampleModelsResolveOnTheExampleKernels) {
    const std::string root = KERNCAST_SOURCE_DIR;
    const std::vector<std::pair<std::string, std::vector<std::string>>> families{
        {"matmul_overlap", {"matmul_tiled16", "matmul_naive"}},
        {"matmul_linear", {"matmul_tiled16", "matmul_naive"}},
        {"dg_diff_overlap", {"dg_diff_1", "dg_diff_2", "dg_diff_3", "dg_diff_4"}},
        {"fd5pt_linear", {"fd5pt_16", "fd5pt_18"}}};
    for (const auto& [name, kernels] : families) {
        const CostModel model = load_cost_model(root + "/examples/models/" + name + ".yaml");
        EXPECT_EQ(model.name, name);
        std::vector<double> largest(model.features().size(), 0.0);
        for (const auto& kernel_name : kernels) {
            const auto spec =
                kernel::load_kernel_file(root + "/examples/kernels/" + kernel_name + ".yaml");
            const auto analysis = analysis::analyze(spec);
            const auto values = kernel_features(model, analysis, analysis::bind(analysis).values());
            for (std::size_t f = 0; f < values.size(); ++f)
                largest[f] = std::max(largest[f], values[f]);
        }
        for (std::size_t f = 0; f < largest.size(); ++f) {
            const std::string& feature = model.features()[f].name;
            // The isolated adds and muls are zero on these kernels by design (every add and
            // mul is part of a madd); the measurement kernels determine their costs.
            if (feature == "f_op_float32_add" || feature == "f_op_float32_mul")
                continue;
            EXPECT_GT(largest[f], 0) << name << ": " << feature;
        }
    }
}
