// The timing request and record context of a generated kernel, and the record they make.
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/kernel/kernel_file.hpp"

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
    EXPECT_EQ(request.grid, (runtime::Dim3{2, 4, 4})); // 64/32, 16/4, 32/(4*2)
    EXPECT_EQ(request.block, (runtime::Dim3{32, 4, 4}));
    EXPECT_EQ(request.arguments.size(), 2u);
    EXPECT_EQ(request.options.repetitions, 7);
    EXPECT_EQ(request.cuda_source, generated.cuda_source);

    const runtime::RunContext context =
        run_context(schedule, generated, {"star3d_r4.yaml", "feed"});
    EXPECT_EQ(context.kernel_file, "star3d_r4.yaml");
    EXPECT_EQ(context.kernel_file_sha256, "feed");
    EXPECT_EQ(context.fold, (runtime::Dim3{1, 1, 2}));
    ASSERT_EQ(context.parameters.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(context.parameters.at("nx")), 72);

    // A record made from a (synthetic) run keeps the launch, fold and parameters.
    runtime::TimedRun run;
    run.times_s = {2e-3, 1e-3, 3e-3};
    const runtime::Measurement m = runtime::make_measurement(request, run, context);
    EXPECT_EQ(m.kernel.launch.fold, (runtime::Dim3{1, 1, 2}));
    EXPECT_EQ(m.kernel.launch.grid, (runtime::Dim3{2, 4, 4}));
    EXPECT_EQ(std::get<std::int64_t>(m.kernel.parameters.at("nz")), 40);
    EXPECT_EQ(m.kernel.buffers.size(), 2u);
}
