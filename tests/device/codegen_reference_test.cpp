// Device tests of the code generator (registered only when a GPU is present): the generated
// CUDA of the examples runs once on the GPU at small sizes, and every buffer it leaves must
// match the CPU reference interpreter (reference_interpreter.hpp) on the same deterministic
// inputs.
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>

namespace kerncast::codegen {
namespace {

struct Case {
    const char* example; // examples/kernels/<example>.yaml, or tests/unit/codegen/data/ with data

    std::vector<std::pair<std::string, std::int64_t>> params;
    std::optional<kernel::LaunchConfig> launch; // none: the file's launch
    bool data = false;                          // a test kernel of tests/unit/codegen/data
};

void check_against_reference(const Case& c) {
    SCOPED_TRACE(c.example);
    const auto spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) +
        (c.data ? "/tests/unit/codegen/data/" : "/examples/kernels/") + c.example + ".yaml");
    // Not a default LaunchConfig: that is block 1x1x1, which the tiled kernels cannot take
    // (their shared tiles are written for the file's block; the first GPU run, 2026-11-26,
    // failed on exactly that).
    const kernel::LaunchConfig launch = c.launch.value_or(spec.launch);
    const Schedule schedule = lower_kernel(spec, launch, c.params);
    const GeneratedKernel generated = generate_cuda(schedule);
    runtime::TimingOptions options;
    options.warmup = 0; // one launch: kernels with += or atomics are not idempotent
    options.repetitions = 1;
    options.read_back_buffers = true;
    options.measure_sm_clock = false;
    const runtime::TimedRun run =
        runtime::time_kernel(timing_request(generated, std::string(c.example) + ".cu", options));
    const ReferenceResult reference = run_reference(schedule);
    ASSERT_EQ(run.buffers.size(), generated.buffer_arrays.size());
    for (size_t b = 0; b < run.buffers.size(); ++b) {
        const ArrayStorage& array = *schedule.find_array(generated.buffer_arrays[b]);
        SCOPED_TRACE(array.decl.name);
        const std::vector<double> device = decode_buffer(array, run.buffers[b]);
        const std::vector<double>& expected = reference.buffers.at(array.decl.name);
        ASSERT_EQ(device.size(), expected.size());
        // f32 kernels sum in f32 (and the GPU contracts to FMA); f64 ones agree closely; f16
        // stores round once from float on the GPU and from double in the reference (one
        // binary16 ulp, 2^-10 relative, apart at most).
        const double tolerance = array.decl.dtype == kernel::DataType::f64   ? 1e-12
                                 : array.decl.dtype == kernel::DataType::f16 ? 1e-3
                                                                             : 1e-4;
        for (size_t k = 0; k < device.size(); ++k)
            ASSERT_NEAR(device[k], expected[k], tolerance * (1 + std::fabs(expected[k])))
                << "element " << k;
    }
}

TEST(DeviceCodegen, StencilsMatchTheReference) {
    check_against_reference({"star2d_r1", {{"nx", 300}, {"ny", 37}}, {}});
    check_against_reference({"box2d_r1", {{"nx", 129}, {"ny", 9}}, {}});
    check_against_reference({"box2d_r3", {{"nx", 70}, {"ny", 20}}, {}});
    check_against_reference({"star3d_r4", {{"nx", 41}, {"ny", 19}, {"nz", 27}}, {}});
    check_against_reference({"star3d_r4",
                             {{"nx", 41}, {"ny", 19}, {"nz", 27}},
                             kernel::LaunchConfig{{16, 4, 2}, {1, 2, 1}}});
    check_against_reference({"lbm_d3q15_pull", {{"nx", 20}, {"ny", 9}, {"nz", 7}}, {}});
}

TEST(DeviceCodegen, SharedMemoryTilesMatchTheReference) {
    check_against_reference({"matmul_naive", {{"n", 48}}, {}});
    check_against_reference({"matmul_tiled16", {{"n", 48}, {"m", 32}, {"l", 64}}, {}});
    check_against_reference({"hk_matmul", {}, {}});
    check_against_reference({"fd5pt_16", {{"n", 45}}, {}});
    check_against_reference({"fd5pt_18", {{"n", 45}}, {}});
    for (const char* dg : {"dg_diff_1", "dg_diff_2", "dg_diff_3", "dg_diff_4"})
        check_against_reference({dg, {{"nelements", 64}, {"nunit_nodes", 32}}, {}});
}

TEST(DeviceCodegen, HistogramsRunAndLeaveTheImageUnchanged) {
    check_against_reference({"histogram", {{"n", 5000}}, {}});
    check_against_reference({"histogram_reordered", {{"n", 5000}}, {}});
}

// The atomics and reductions no example has (tests/unit/codegen/data): compare-and-swap,
// compare-and-swap loops for real min/max and for 1- and 2-byte elements (global and shared),
// f16 arrays (atomicAdd(__half*) needs sm_70), nested reductions.
TEST(DeviceCodegen, AtomicsOnEveryElementTypeMatchTheReference) {
    check_against_reference({"cas_and_real_extrema", {}, {}, true});
    check_against_reference({"one_and_two_byte_atomics", {}, {}, true});
    check_against_reference({"half_precision", {}, {}, true});
    check_against_reference({"absmax_f32", {{"n", 100000}}, {}});
}

TEST(DeviceCodegen, NestedReductionsMatchTheReference) {
    check_against_reference({"nested_reductions", {{"n", 40}}, {}, true});
    check_against_reference({"colnorm_matvec", {{"n", 100}}, {}});
}

} // namespace
} // namespace kerncast::codegen
