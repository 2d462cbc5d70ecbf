// Kernel writer: parse -> write -> parse gives the same kernel for every example kernel file
// (and the data files of these tests), and writing is a fixed point after one round.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/kernel_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>

using namespace kerncast::kernel;

namespace {

std::vector<std::string> texts(const std::vector<ExprPtr>& exprs) {
    std::vector<std::string> out;
    for (const auto& e : exprs)
        out.push_back(to_string(*e));
    return out;
}

void expect_same_kernel(const KernelSpec& a, const KernelSpec& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.description, b.description);
    ASSERT_EQ(a.params.size(), b.params.size());
    for (size_t k = 0; k < a.params.size(); ++k) {
        EXPECT_EQ(a.params[k].name, b.params[k].name);
        EXPECT_EQ(a.params[k].default_value, b.params[k].default_value);
        EXPECT_EQ(a.params[k].representative, b.params[k].representative);
        EXPECT_EQ(a.params[k].description, b.params[k].description);
    }
    EXPECT_EQ(a.assumptions, b.assumptions);
    ASSERT_EQ(a.arrays.size(), b.arrays.size());
    for (size_t k = 0; k < a.arrays.size(); ++k) {
        EXPECT_EQ(a.arrays[k].name, b.arrays[k].name);
        EXPECT_EQ(a.arrays[k].dtype, b.arrays[k].dtype);
        EXPECT_EQ(a.arrays[k].space, b.arrays[k].space);
        EXPECT_EQ(texts(a.arrays[k].shape), texts(b.arrays[k].shape));
        EXPECT_EQ(a.arrays[k].offset ? to_string(*a.arrays[k].offset) : "",
                  b.arrays[k].offset ? to_string(*b.arrays[k].offset) : "");
    }
    EXPECT_EQ(a.domain, b.domain);
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_EQ(a.threads.global, b.threads.global);
    EXPECT_EQ(a.threads.block, b.threads.block);
    EXPECT_EQ(a.threads.local, b.threads.local);
    EXPECT_EQ(a.launch.block, b.launch.block);
    EXPECT_EQ(a.launch.fold, b.launch.fold);
    EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
    ASSERT_EQ(a.statements.size(), b.statements.size());
    for (size_t k = 0; k < a.statements.size(); ++k) {
        const auto& s = a.statements[k];
        const auto& t = b.statements[k];
        EXPECT_EQ(s.kind, t.kind);
        EXPECT_EQ(s.id, t.id);
        EXPECT_EQ(s.text, t.text);
        EXPECT_EQ(s.within, t.within);
        EXPECT_EQ(s.condition_text, t.condition_text);
        if (s.kind == StatementKind::compute) {
            EXPECT_EQ(to_string(*s.parsed.target), to_string(*t.parsed.target));
            if (s.parsed.value) {
                EXPECT_EQ(to_string(*s.parsed.value), to_string(*t.parsed.value));
            }
        }
    }
}

std::vector<std::filesystem::path> example_files() {
    std::vector<std::filesystem::path> files;
    for (const auto* dir :
         {"/examples/kernels", "/examples/kernels/uipick", "/examples/autotuning"}) {
        const std::filesystem::path root = std::string(KERNCAST_SOURCE_DIR) + dir;
        if (!std::filesystem::is_directory(root))
            continue;
        for (const auto& entry : std::filesystem::directory_iterator(root))
            if (entry.path().extension() == ".yaml")
                files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST(KernelWriter, EveryExampleRoundTrips) {
    const auto files = example_files();
    ASSERT_GE(files.size(), 19u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.string());
        const KernelSpec original = load_kernel_file(path.string());
        const std::string written = write_kernel_yaml(original);
        const KernelSpec reread = parse_kernel_text(written, "written.yaml");
        expect_same_kernel(original, reread);
        // A second round writes the same text.
        EXPECT_EQ(write_kernel_yaml(reread), written);
    }
}

TEST(KernelWriter, StridedFoldRoundTrips) {
    const std::string text = R"yaml(name: s
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n]}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [32], fold: [4], fold_placement: strided}
statements:
  - "a[i] = 1"
)yaml";
    const KernelSpec original = parse_kernel_text(text, "s.yaml");
    const std::string written = write_kernel_yaml(original);
    EXPECT_NE(written.find("fold_placement: strided"), std::string::npos) << written;
    const KernelSpec reread = parse_kernel_text(written, "written.yaml");
    EXPECT_EQ(reread.launch, original.launch);
    EXPECT_EQ(reread.launch.fold_placement, FoldPlacement::strided);
    // A consecutive fold writes no placement.
    KernelSpec consecutive = original;
    consecutive.launch.fold_placement = FoldPlacement::consecutive;
    EXPECT_EQ(write_kernel_yaml(consecutive).find("fold_placement"), std::string::npos);
}

TEST(KernelWriter, QuotesAndOptionalKeys) {
    const std::string text = R"yaml(name: "q: colon"
description: "a # that is not a comment"
params: {n: {default: 64, representative: true, description: "a: b"}, m: 3}
arrays:
  x: {dtype: f64, shape: [n + 2], offset: 1}
  w: {dtype: f32, shape: [4], space: constant}
  t: {dtype: f32, shape: [32], space: shared}
domain: "[n, m] -> { [i, r] : 0 <= i < n and 0 <= r < m }"
threads: {x: i}
launch: {block: [32], fold: [2]}
registers_per_thread: 40
statements:
  - {id: s0, do: "t[tx] = x[i + 1]*w[0]", within: [r]}
  - {barrier: local, within: [r]}
  - id: guarded
    do: "x[i] += t[tx]"
    where: "i >= 1 && i < n - 1"
)yaml";
    const KernelSpec original = parse_kernel_text(text, "q.yaml");
    const std::string written = write_kernel_yaml(original, "generated\n\nby a test");
    EXPECT_EQ(written.rfind("# generated\n#\n# by a test\n", 0), 0u) << written;
    const KernelSpec reread = parse_kernel_text(written, "written.yaml");
    expect_same_kernel(original, reread);
    EXPECT_EQ(reread.params[0].description, "a: b");
    EXPECT_TRUE(reread.params[0].representative);
    EXPECT_EQ(reread.launch.fold[0], 2);
    EXPECT_EQ(reread.registers_per_thread, 40);
}
