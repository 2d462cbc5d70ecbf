// Passes bind-parameters and lay-out-arrays: parameter values, the launch used, and every array's
// storage at those values.
#include "kerncast/error.hpp"
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(Parameters, OverridesAndDefaultsInDeclarationOrder) {
    const kernel::KernelSpec spec = example("matmul_tiled16"); // defaults n 512, m 256, l 128
    LoweringState state(spec, spec.launch, {{"m", 32}});
    run_through(state, "bind-parameters");
    EXPECT_EQ(state.schedule.parameters, (std::vector<std::pair<std::string, std::int64_t>>{
                                             {"n", 512}, {"m", 32}, {"l", 128}}));
    EXPECT_EQ(state.param_value.at("m"), 32);
    EXPECT_EQ(state.schedule.launch.block, (std::array<std::int64_t, 3>{16, 16, 1}));
    ASSERT_NE(state.domain, nullptr);
    EXPECT_EQ(state.domain->range("ko"), (std::pair<std::int64_t, std::int64_t>{0, 1}));
    EXPECT_TRUE(state.schedule.arrays.empty()); // the next pass lays them out
}

TEST(Parameters, ParametersThatEmptyTheDomainAreAnInputError) {
    const kernel::KernelSpec spec = kernel::parse_kernel_text(R"yaml(
name: nothing
params: {n: 8}
arrays: {a: {dtype: f32, shape: [n]}}
domain: "[n] -> { [i] : 4 <= i < n }"
threads: {x: i}
statements: ["a[i] = 1"]
)yaml",
                                                              "nothing.yaml");
    // Not empty at the default n = 8, empty at n = 4: binding the kernel, before any pass, says
    // so.
    try {
        LoweringState state(spec, spec.launch, {{"n", 4}});
        FAIL() << "an empty domain bound";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(std::string(e.what()).find("nothing.yaml: kernel 'nothing': the domain [n] -> "
                                             "{ [i] : 4 <= i < n } is empty for n=4"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Parameters, ArraysGetExtentsOffsetAndBufferSize) {
    const kernel::KernelSpec spec = example("star3d_r4");
    LoweringState state(spec, spec.launch, {{"nx", 40}, {"ny", 16}, {"nz", 24}});
    run_through(state, "lay-out-arrays");
    ASSERT_EQ(state.schedule.arrays.size(), spec.arrays.size());
    const ArrayStorage* src = state.schedule.find_array("src");
    ASSERT_NE(src, nullptr);
    EXPECT_EQ(src->extents, (std::vector<std::int64_t>{24, 16, 40}));
    EXPECT_EQ(src->elements, 24 * 16 * 40);
    EXPECT_EQ(src->offset, 4);
    EXPECT_EQ(src->buffer_elements, 4 + 24 * 16 * 40);
    EXPECT_FALSE(src->written);
    EXPECT_TRUE(state.schedule.find_array("dst")->written);
    EXPECT_FALSE(src->accumulator);
}

TEST(Parameters, TheBoundKernelGivesValuesExtentsAndTheResolvedLaunch) {
    const kernel::KernelSpec spec = example("star3d_r4");
    const kernel::BoundKernel bound =
        kernel::BoundKernel::bind(spec, spec.launch, {{"nx", 40}, {"ny", 16}, {"nz", 24}});
    LoweringState state(bound);
    run_through(state, "lay-out-arrays");
    EXPECT_EQ(state.schedule.parameters, bound.named_values());
    EXPECT_EQ(state.schedule.find_array("src")->extents, bound.extents("src"));
    EXPECT_EQ(state.schedule.find_array("src")->offset, bound.offset("src"));
    // The same schedule as the convenience entry that binds the overrides itself.
    LoweringState direct(spec, spec.launch, {{"nx", 40}, {"ny", 16}, {"nz", 24}});
    run_through(direct, "lay-out-arrays");
    EXPECT_EQ(direct.schedule.parameters, state.schedule.parameters);
}

TEST(Parameters, ABoundKernelIsBoundAgainAtTheLaunchItsLocalIndicesFix) {
    const kernel::KernelSpec spec = example("fd5pt_16"); // locals lj, li: threadIdx, 0..15
    kernel::LaunchConfig unset; // block 1 x 1 x 1: the local indices fix 16 x 16
    const kernel::BoundKernel bound = kernel::BoundKernel::bind(spec, unset, {{"n", 40}});
    LoweringState state(bound);
    EXPECT_EQ(state.bound.launch().block, (kernel::Dim3{16, 16, 1}));
    EXPECT_EQ(state.bound.named_values(), bound.named_values());
    run_through(state, "map-threads");
    EXPECT_EQ(state.schedule.launch.block, (kernel::Dim3{16, 16, 1}));
    EXPECT_EQ(state.schedule.grid, state.bound.grid());
    EXPECT_EQ(state.schedule.grid, (kernel::Dim3{3, 3, 1})); // 14*bi < 40
}
