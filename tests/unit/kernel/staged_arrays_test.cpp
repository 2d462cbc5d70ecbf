// What a kernel file must be for its arrays to be staged in shared memory (staged_arrays.hpp):
// the refusals with their places, on small kernel texts.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/staged_arrays.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

std::string kernel_text(const std::string& array, const std::string& statement,
                        const std::string& mapping = "threads: {x: i}") {
    return "name: k\nparams: {n: 64}\narrays:\n  a: {dtype: f32, shape: [n + 1]" + array +
           "}\n  b: {dtype: f32, shape: [n]}\n  idx: {dtype: i32, shape: [n]}\n"
           "domain: \"[n] -> { [i] : 0 <= i < n }\"\n" +
           mapping + "\nstatements:\n  - \"" + statement + "\"\n";
}

// The error message and line of parsing `text`, or "" when it parses.
std::pair<std::string, int> refusal(const std::string& text) {
    try {
        kernel::parse_kernel_text(text, "k.yaml");
    } catch (const Error& e) {
        return {e.message(), e.where().line};
    }
    return {"", 0};
}

} // namespace

TEST(StagedArrays, AReadOnlyArrayWithAffineReadsIsStaged) {
    const kernel::KernelSpec spec =
        kernel::parse_kernel_text(kernel_text(", stage: shared", "b[i] = a[i] + a[i + 1]"), "k");
    EXPECT_TRUE(kernel::has_staged_arrays(spec));
    EXPECT_TRUE(spec.find_array("a")->stage_in_shared);
    EXPECT_EQ(spec.find_array("a")->stage_where.line, 4);
    EXPECT_FALSE(
        kernel::has_staged_arrays(kernel::parse_kernel_text(kernel_text("", "b[i] = a[i]"), "k")));
}

TEST(StagedArrays, RefusalsNameTheStatementOrTheStage) {
    const auto written = refusal(kernel_text(", stage: shared", "a[i] = b[i]"));
    EXPECT_NE(written.first.find("this statement writes it"), std::string::npos);
    EXPECT_EQ(written.second, 10);
    const auto launch = refusal(kernel_text(", stage: shared", "b[i] = a[i + tx]"));
    EXPECT_NE(launch.first.find("names the launch index 'tx'"), std::string::npos);
    const auto indirect = refusal(kernel_text(", stage: shared", "b[i] = a[idx[i]]"));
    EXPECT_NE(indirect.first.find("reads 'idx' (an indirect subscript)"), std::string::npos);
    const auto blocks = refusal(kernel_text(", stage: shared", "b[i] = a[i]", "blocks: {x: i}"));
    EXPECT_NE(blocks.first.find("needs the indices mapped with threads:"), std::string::npos);
    EXPECT_EQ(blocks.second, 4);
    const auto value = refusal(kernel_text(", stage: texture", "b[i] = a[i]"));
    EXPECT_NE(value.first.find("stage must be 'shared'"), std::string::npos);
    const auto constant = refusal(kernel_text(", space: constant, stage: shared", "b[i] = a[i]"));
    EXPECT_NE(constant.first.find("only a global array can be staged"), std::string::npos);
}
