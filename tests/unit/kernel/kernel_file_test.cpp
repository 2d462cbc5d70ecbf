// Kernel files: every example parses; every error class gives a clear message with
// file:line:column and a caret under the right character.
#include "kerncast/kernel/kernel_file.hpp"

#include <filesystem>
#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::kernel;

namespace {

const std::string valid = R"yaml(name: t
params: {n: 64}
arrays:
  a: {dtype: f32, shape: [n, n]}
  b: {dtype: f32, shape: [n, n]}
domain: "[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }"
threads: {x: j, y: i}
launch: {block: [32, 4]}
statements:
  - "b[i, j] = 2*a[i, j]"
)yaml";

// Replaces `from` in the valid kernel by `to` and returns the error.
Error error_of(const std::string& text) {
    try {
        (void)parse_kernel_text(text, "k.yaml");
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return Error(ErrorKind::internal, "none");
}

std::string with(const std::string& from, const std::string& to) {
    std::string text = valid;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

void expect_error(const std::string& text, const std::string& message, int line, int column) {
    const Error e = error_of(text);
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_NE(e.message().find(message), std::string::npos) << e.describe();
    EXPECT_EQ(e.where().file, "k.yaml");
    if (line > 0) {
        EXPECT_EQ(e.where().line, line) << e.describe();
    }
    if (column > 0) {
        EXPECT_EQ(e.where().column, column) << e.describe();
    }
    EXPECT_FALSE(e.where().source_line.empty());
}

} // namespace

TEST(KernelFile, ValidKernel) {
    const KernelSpec spec = parse_kernel_text(valid, "k.yaml");
    EXPECT_EQ(spec.name, "t");
    ASSERT_EQ(spec.indices.size(), 2u);
    EXPECT_EQ(spec.indices[0], "i");
    EXPECT_EQ(spec.threads.global[0], "j");
    EXPECT_EQ(spec.launch.block[0], 32);
    EXPECT_EQ(spec.launch.block[1], 4);
    EXPECT_EQ(spec.launch.block[2], 1);
    ASSERT_EQ(spec.statements.size(), 1u);
    EXPECT_EQ(spec.statements[0].where.line, 10);
    EXPECT_EQ(spec.statements[0].where.column, 6);
}

TEST(KernelFile, EveryExampleParses) {
    int count = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(KERNCAST_SOURCE_DIR "/examples/kernels")) {
        if (entry.path().extension() != ".yaml")
            continue;
        SCOPED_TRACE(entry.path().string());
        const KernelSpec spec = load_kernel_file(entry.path().string());
        EXPECT_FALSE(spec.statements.empty());
        EXPECT_EQ(spec.name, entry.path().stem().string());
        ++count;
    }
    EXPECT_EQ(count, 38);
}

// Text past the kernel-file limit is refused before parsing (whose memory grows with it), also
// when it comes as text (the Python module's parse_kernel), not only through a file.
TEST(KernelFile, TextOverTheLimitIsRefusedBeforeParsing) {
    const std::string text = "# " + std::string(kernel_file_limit_bytes, 'x') + "\n";
    try {
        (void)parse_kernel_text(text, "big.yaml");
        FAIL() << "parsed " << text.size() << " bytes";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_EQ(e.message(), "the kernel file is larger than 1 MiB (1048579 bytes): not parsed");
        EXPECT_EQ(e.where().file, "big.yaml");
    }
}

TEST(KernelFile, YamlSyntaxError) {
    expect_error(with("  a: {dtype: f32, shape: [n, n]}", "  a: {dtype: f32, shape: [n, n}"),
                 "YAML syntax error", 4, 0);
}

TEST(KernelFile, StatementSyntaxErrorPointsIntoTheString) {
    // column: 5 for `  - "`, then offset of '#' (10) + 1
    expect_error(with("b[i, j] = 2*a[i, j]", "b[i, j] = # a[i, j]"), "unexpected character '#'", 10,
                 16);
}

TEST(KernelFile, UndeclaredArray) {
    expect_error(with("2*a[i, j]", "2*q[i, j]"), "undeclared array 'q'", 10, 18);
}

TEST(KernelFile, UndeclaredIndex) {
    expect_error(with("2*a[i, j]", "2*a[i, k]"), "undeclared name 'k'", 10, 23);
    expect_error(with("threads: {x: j, y: i}", "threads: {x: j, y: w}"), "undeclared index 'w'", 7,
                 20);
    expect_error(
        with("  - \"b[i, j] = 2*a[i, j]\"", "  - {do: \"b[i, j] = 2*a[i, j]\", within: [z]}"),
        "undeclared index 'z'", 10, 0);
}

TEST(KernelFile, SubscriptMustBeAffine) {
    expect_error(with("2*a[i, j]", "2*a[i*j, j]"), "must be affine", 10, 20);
    expect_error(with("2*a[i, j]", "2*a[i, j/2]"), "must be affine", 10, 23);
}

TEST(KernelFile, RankMismatch) {
    expect_error(with("2*a[i, j]", "2*a[i]"), "rank mismatch", 10, 18);
}

TEST(KernelFile, UnknownDtype) {
    expect_error(with("a: {dtype: f32", "a: {dtype: f31"), "unknown dtype 'f31'", 4, 14);
}

TEST(KernelFile, ThreadAxisMappedTwice) {
    // A key written twice in one mapping is caught as such (every mapping, issue 15).
    expect_error(with("threads: {x: j, y: i}", "threads: {x: j, x: i}"), "key 'x' is given twice",
                 7, 17);
    expect_error(with("threads: {x: j, y: i}", "threads: {x: j, y: i}\nlocals: {x: i}"), "mapped",
                 0, 0);
}

TEST(KernelFile, DomainRejectedByIsl) {
    const Error e = error_of(with("0 <= j < n }", "0 <= j < }"));
    EXPECT_NE(e.message().find("isl rejects the domain"), std::string::npos) << e.describe();
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.where().column, 52);
    expect_error(with("0 <= j < n }", "0 <= j < q }"), "unknown identifier", 6, 52);
}

TEST(KernelFile, MoreMistakes) {
    expect_error(with("params: {n: 64}", "params: {n: sixty}"), "must be an integer", 2, 13);
    expect_error(with("name: t", "name: t\nbogus: 1"), "unknown key 'bogus'", 2, 1);
    expect_error(with("a: {dtype: f32, shape: [n, n]}", "a: {dtype: f32, shape: [n, m]}"),
                 "'m', which is not a parameter", 4, 30);
    expect_error(with("launch: {block: [32, 4]}", "launch: {block: [32, 0]}"), "positive", 8, 22);
    expect_error(with("0 <= i < n and", "0 <= i and"), "unbounded", 6, 9);
    expect_error(with("2*a[i, j]", "2*foo(a[i, j])"), "unknown function 'foo'", 10, 18);
    expect_error(with("2*a[i, j]", "sum(q, a[i, j])"), "undeclared index 'q'", 10, 20);
}

// Names that are not names of the kernel language, or that isl reads as keywords, are refused
// at the name: they reached isl's parser later, as an internal error (issue 47 campaign).
TEST(KernelFile, ParameterAndArrayNamesMustBeNamesIslCanRead) {
    expect_error(with("params: {n: 64}", "params: {n: 64, col~ors: 1}"),
                 "parameter name 'col~ors' is not a name", 2, 17);
    expect_error(with("params: {n: 64}", "params: {n: 64, 2n: 1}"), "parameter name '2n' is not", 2,
                 17);
    for (const char* keyword : {"and", "MIN", "Floor", "exists", "infty", "nan", "mod"})
        expect_error(with("params: {n: 64}", std::string("params: {n: 64, ") + keyword + ": 1}"),
                     std::string("parameter name '") + keyword + "' is a keyword of isl", 2, 17);
    expect_error(with("  b: {dtype: f32", "  b-c: {dtype: f32"), "array name 'b-c' is not a name",
                 5, 3);
    // Words isl does not reserve stay names.
    EXPECT_NO_THROW(
        parse_kernel_text(with("params: {n: 64}", "params: {n: 64, minimum: 1}"), "k.yaml"));
}

TEST(KernelFile, MissingFile) {
    try {
        (void)load_kernel_file("/nonexistent/kernel.yaml");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
    }
}

TEST(KernelFile, RegistersPerThread) {
    EXPECT_EQ(parse_kernel_text(valid, "k.yaml").registers_per_thread, std::nullopt);
    const std::string launch = "launch: {block: [32, 4]}";
    EXPECT_EQ(parse_kernel_text(with(launch, launch + "\nregisters_per_thread: 40"), "k.yaml")
                  .registers_per_thread,
              40);
    EXPECT_EQ(parse_kernel_text(with(launch, launch + "\nregisters_per_thread: 255"), "k.yaml")
                  .registers_per_thread,
              255);
    // Line 9 (after launch), column 23: the value.
    expect_error(with(launch, launch + "\nregisters_per_thread: 0"),
                 "registers_per_thread must be between 1 and 255, got 0", 9, 23);
    expect_error(with(launch, launch + "\nregisters_per_thread: 256"),
                 "registers_per_thread must be between 1 and 255, got 256", 9, 23);
    expect_error(with(launch, launch + "\nregisters_per_thread: -3"), "got -3", 9, 23);
    expect_error(with(launch, launch + "\nregisters_per_thread: many"),
                 "registers_per_thread must be an integer, got 'many'", 9, 23);
    expect_error(with(launch, launch + "\nregisters_per_thread: [32]"),
                 "registers_per_thread must be a single value", 9, 23);
}

// ---- bad input found by fuzzing (issue 15) --------------------------------------------------

TEST(KernelFileRobustness, KeyGivenTwiceIsAnError) {
    // yaml-cpp keeps both; the second params: used to be ignored.
    expect_error(valid + "params: {n: 8}\n", "key 'params' is given twice", 11, 1);
    expect_error(with("b: {dtype: f32,", "b: {dtype: f32, dtype: f64,"),
                 "key 'dtype' is given twice", 5, 19);
}

TEST(KernelFileRobustness, InvalidUtf8IsAnErrorWithItsPosition) {
    const Error e = error_of(with("name: t", "name: t\xff\xfe"));
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_NE(e.message().find("not valid UTF-8"), std::string::npos) << e.describe();
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().column, 8);
    // An overlong encoding and a lone surrogate are not UTF-8 either.
    EXPECT_NE(error_of(with("name: t", "name: t\xc0\xaf")).message().find("UTF-8"),
              std::string::npos);
    EXPECT_NE(error_of(with("name: t", "name: t\xed\xa0\x80")).message().find("UTF-8"),
              std::string::npos);
    EXPECT_NO_THROW(parse_kernel_text(with("name: t", "name: t\xc3\xa9\xe2\x82\xac"), "k.yaml"));
}

TEST(KernelFileRobustness, DeepExpressionsInStatementsAndAssumptionsAreErrors) {
    const std::string deep = std::string(5000, '(') + "n" + std::string(5000, ')');
    expect_error(with("statements:", "assume: [\"" + deep + " > 0\"]\nstatements:"),
                 "nested more than 200 levels", 9, 0);
    std::string sum = "a[i, j]";
    for (int k = 0; k < 20000; ++k)
        sum += " + a[i, j]";
    expect_error(with("\"b[i, j] = 2*a[i, j]\"", "\"b[i, j] = " + sum + "\""),
                 "more than 1000 operators deep", 10, 0);
}

TEST(KernelFileRobustness, LaunchBlockOverCudaLimitsIsAnError) {
    expect_error(with("block: [32, 4]", "block: [9223372036854775807, 16]"),
                 "launch.block: block x 9223372036854775807 exceeds CUDA's limit of 1024", 8, 17);
    expect_error(with("block: [32, 4]", "block: [64, 32]"),
                 "2048 threads per block, over CUDA's limit of 1024", 8, 17);
    // A fold whose product with the block overflows: an input error at the fold (issue 47),
    // not a usage error without a position from the command that binds the launch.
    expect_error(with("block: [32, 4]}", "block: [32, 4], fold: [1, 4611686018427387904]}"),
                 "launch: the block x fold product (the points one block covers) overflows "
                 "64 bits",
                 8, 32);
}

TEST(KernelFile, FoldPlacement) {
    EXPECT_EQ(parse_kernel_text(valid, "k.yaml").launch.fold_placement, FoldPlacement::consecutive);
    const KernelSpec strided = parse_kernel_text(
        with("block: [32, 4]}", "block: [32, 4], fold: [2, 1], fold_placement: strided}"),
        "k.yaml");
    EXPECT_EQ(strided.launch.fold, (Dim3{2, 1, 1}));
    EXPECT_EQ(strided.launch.fold_placement, FoldPlacement::strided);
    // Without a fold there is nothing to place: the launch stays consecutive.
    EXPECT_EQ(parse_kernel_text(with("block: [32, 4]}", "block: [32, 4], fold_placement: strided}"),
                                "k.yaml")
                  .launch.fold_placement,
              FoldPlacement::consecutive);
    expect_error(with("block: [32, 4]}", "block: [32, 4], fold: [2], fold_placement: cyclic}"),
                 "launch.fold_placement must be 'consecutive' or 'strided', not 'cyclic'", 8, 53);
    expect_error(with("block: [32, 4]}", "block: [32, 4], fold_placement: [strided]}"),
                 "launch.fold_placement must be 'consecutive' or 'strided'", 8, 0);
    expect_error(with("block: [32, 4]}", "block: [32, 4], placement: strided}"),
                 "unknown launch key 'placement' (block, fold, fold_placement)", 8, 0);
}

TEST(KernelFileRobustness, ParameterValuesThatEmptyTheDomainOrNegateAnExtent) {
    const KernelSpec spec = parse_kernel_text(valid, "k.yaml");
    try {
        (void)spec.param_values({{"n", -5}});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("array 'a' has the negative extent -5"), std::string::npos);
        EXPECT_EQ(e.where().line, 4);
    }
    try {
        (void)spec.param_values({{"n", 0}});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("is empty for n=0"), std::string::npos) << e.message();
        EXPECT_EQ(e.where().file, "k.yaml");
    }
    EXPECT_EQ(spec.param_values({{"n", std::int64_t{1} << 40}})[0].second, std::int64_t{1} << 40);
}

TEST(KernelFileRobustness, RealExtentsAndOffsetsAreErrorsAtTheNumber) {
    // They used to reach codegen and predict and exit 4 ("'0.5' is not an integer").
    expect_error(with("shape: [n, n]}\n  b:", "shape: [n, n], offset: 0.5}\n  b:"),
                 "an offset must be an integer expression; '0.5' is not an integer", 4, 42);
    expect_error(with("shape: [n, n]}\n  b:", "shape: [n, -1e308]}\n  b:"),
                 "an extent must be an integer expression", 4, 30);
}

// A data-dependent subscript must still be an integer (CUDA refuses a real index); a number
// beyond the largest double was read as infinity. Found by lab/research/bad_input_campaign.py
// (2026-12-04): `count` printed "smem[inf * c + offsets[c]]" and exit 0.
TEST(KernelFileRobustness, RealIndirectSubscriptsAndInfiniteNumbersAreErrorsAtThem) {
    const std::string with_index =
        with("  b: {dtype: f32, shape: [n, n]}", "  b: {dtype: f32, shape: [n, n]}\n"
                                                 "  idx: {dtype: i32, shape: [n]}");
    const auto statement = [&](const std::string& text) {
        std::string kernel = with_index;
        kernel.replace(kernel.find("b[i, j] = 2*a[i, j]"), 19, text);
        return kernel;
    };
    EXPECT_NO_THROW((void)parse_kernel_text(statement("b[i, idx[j]] = 2*a[i, j]"), "k.yaml"));
    expect_error(statement("b[i, 0.5*j + idx[j]] = 2*a[i, j]"),
                 "subscript of 'b' must be an integer expression; '0.5' is not an integer", 11, 0);
    expect_error(statement("b[i, idx[j] + a[i, j]] = 1"), "'a[i, j]' is not an integer", 11, 0);
    expect_error(statement("b[i, idx[j] + sqrt(j)] = 1"), "'sqrt(j)' is not an integer", 11, 0);
    EXPECT_NO_THROW(
        (void)parse_kernel_text(statement("b[i, min(idx[j], n - 1)] = 2*a[i, j]"), "k.yaml"));
    expect_error(statement("b[i, j] = 1e400*a[i, j]"),
                 "number '1e400' is too large (beyond the largest double", 11, 16);
}

TEST(KernelFileRobustness, DeepYamlNestingIsNamedAsSuch) {
    expect_error(
        with("name: t", "name: t\ndescription: " + std::string(5000, '[') + std::string(5000, ']')),
        "YAML nested too deeply", 2, 0);
}
