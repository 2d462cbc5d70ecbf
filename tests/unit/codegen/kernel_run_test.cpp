// The timing request and record context of a generated kernel, and the record they make.
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/sha256.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;

TEST(KernelRun, RequestAndRecordCarryTheGeneratedLaunch) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/star3d_r4.yaml");
    const Schedule schedule = lower_kernel(spec, spec.launch, {{"nx", 72}, {"ny", 24}, {"nz", 40}});
    const GeneratedKernel generated = generate_cuda(schedule, {"star3d_r4.yaml", "feed"});
    runtime::TimingOptions options;
    options.repetitions = 7;
    const runtime::TimingRequest request = timing_request(generated, "star3d_r4.cu", options);
    EXPECT_EQ(request.kernel_name, "star3d_r4");
    EXPECT_EQ(request.grid, (kernel::Dim3{2, 4, 4})); // 64/32, 16/4, 32/(4*2)
    EXPECT_EQ(request.block, (kernel::Dim3{32, 4, 4}));
    EXPECT_EQ(request.arguments.size(), 2u);
    EXPECT_EQ(request.options.repetitions, 7);
    EXPECT_EQ(request.cuda_source, generated.cuda_source);

    const runtime::RunContext context =
        run_context(schedule, generated, {"star3d_r4.yaml", "feed"});
    EXPECT_EQ(context.kernel_file, "star3d_r4.yaml");
    EXPECT_EQ(context.kernel_file_sha256, "feed");
    // The source that runs, which the generator may change while the kernel file stays.
    EXPECT_EQ(context.source_sha256, sha256_hex(generated.cuda_source));
    EXPECT_EQ(context.fold, (kernel::Dim3{1, 1, 2}));
    ASSERT_EQ(context.parameters.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(context.parameters.at("nx")), 72);

    // A record made from a (synthetic) run keeps the launch, fold and parameters.
    runtime::TimedRun run;
    run.times_s = {2e-3, 1e-3, 3e-3};
    const runtime::Measurement m = runtime::make_measurement(request, run, context);
    EXPECT_EQ(m.kernel.launch.fold, (kernel::Dim3{1, 1, 2}));
    EXPECT_EQ(m.kernel.launch.grid, (kernel::Dim3{2, 4, 4}));
    EXPECT_EQ(std::get<std::int64_t>(m.kernel.parameters.at("nz")), 40);
    EXPECT_EQ(m.kernel.buffers.size(), 2u);
}

// `constant` arrays become __constant__ symbols the harness fills; the request and the record
// carry them.
TEST(KernelRun, ConstantArraysAreConstantSymbols) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/box2d_r2.yaml");
    const Schedule schedule = lower_kernel(spec, spec.launch, {{"nx", 64}, {"ny", 16}});
    const GeneratedKernel generated = generate_cuda(schedule);
    ASSERT_EQ(generated.constant_symbols.size(), 1u);
    EXPECT_EQ(runtime::to_string(generated.constant_symbols[0]), "w:f64:25:hash");
    EXPECT_EQ(generated.buffer_arrays, (std::vector<std::string>{"src", "dst"}));
    EXPECT_TRUE(generated.notes.empty());
    const std::string& source = generated.cuda_source;
    EXPECT_NE(source.find("\n__constant__ double w[25];\n"), std::string::npos) << source;
    EXPECT_NE(source.find("// constant arrays (__constant__, filled after loading):\n//   "
                          "w:f64:25:hash"),
              std::string::npos)
        << source;
    EXPECT_EQ(source.find("* __restrict__ w"), std::string::npos);
    EXPECT_NE(source.find("w[0] * src["), std::string::npos); // indexed like any array

    const runtime::TimingRequest request = timing_request(generated, "box2d_r2.cu", {});
    EXPECT_EQ(request.constant_symbols, generated.constant_symbols);
    ASSERT_EQ(request.arguments.size(), 2u);
    runtime::TimedRun run;
    run.times_s = {1e-3};
    const runtime::Measurement m =
        runtime::make_measurement(request, run, run_context(schedule, generated, {}));
    ASSERT_EQ(m.kernel.constants.size(), 1u);
    EXPECT_EQ(m.kernel.constants[0], (runtime::BufferRecord{"w", "f64", 25, "hash"}));
}

TEST(KernelRun, ConstantArraysBeyondTheConstantBankStayPointers) {
    const auto spec =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/box2d_r2.yaml");
    const Schedule schedule = lower_kernel(spec, spec.launch, {{"nx", 64}, {"ny", 16}});
    // 25 doubles are 200 bytes: exactly at a 200-byte bank they fit, at 199 they do not.
    EXPECT_EQ(generate_cuda(schedule, {}, {200}).constant_symbols.size(), 1u);
    const GeneratedKernel generated = generate_cuda(schedule, {}, {199});
    EXPECT_TRUE(generated.constant_symbols.empty());
    EXPECT_EQ(generated.buffer_arrays, (std::vector<std::string>{"src", "dst", "w"}));
    ASSERT_EQ(generated.notes.size(), 1u);
    EXPECT_EQ(generated.notes[0], "the constant arrays need 200 bytes, more than the 199-byte "
                                  "constant bank: they are passed as global pointers");
    EXPECT_NE(generated.cuda_source.find("// note: " + generated.notes[0]), std::string::npos);
    EXPECT_NE(generated.cuda_source.find("const double* __restrict__ w"), std::string::npos);
    EXPECT_EQ(generated.cuda_source.find("__constant__"), std::string::npos);
}

TEST(KernelRun, WrittenConstantArrayStaysAPointerAndPackedOnesFillWholeWords) {
    const auto spec = kernel::parse_kernel_text(R"(
name: constants
arrays:
  out: {dtype: f32, shape: [4, 5]}
  scale: {dtype: f32, shape: [4], space: constant}
  lookup: {dtype: u8, shape: [5], space: constant}
domain: "{ [j, i] : 0 <= j < 4 and 0 <= i < 5 }"
threads: {x: i, y: j}
launch: {block: [8, 4]}
statements:
  - "out[j, i] = scale[j] * lookup[i]"
  - "scale[0] = 1.0"
)",
                                                "constants.yaml");
    const GeneratedKernel generated = generate_cuda(lower_kernel(spec, spec.launch, {}));
    ASSERT_EQ(generated.notes.size(), 1u);
    EXPECT_NE(generated.notes[0].find("constant array 'scale' is written by the kernel"),
              std::string::npos);
    EXPECT_EQ(generated.buffer_arrays, (std::vector<std::string>{"out", "scale"}));
    // 5 u8 elements travel as two u32 words: the symbol is declared as 8 bytes to match.
    ASSERT_EQ(generated.constant_symbols.size(), 1u);
    EXPECT_EQ(runtime::to_string(generated.constant_symbols[0]), "lookup:u32:2:hash");
    EXPECT_NE(generated.cuda_source.find("__constant__ unsigned char lookup[8];"),
              std::string::npos)
        << generated.cuda_source;
}
