// The lowering pipeline: its passes in order, the state's domain order, and that running the
// passes by hand gives what lower_kernel gives.
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/error.hpp"
#include "lowering_test_support.hpp"

using namespace kerncast;
using namespace kerncast::codegen;
using namespace kerncast::codegen::lowering;
using namespace kerncast::codegen::lowering::testing;

TEST(LoweringState, PipelineRunsTheNinePassesInOrder) {
    std::vector<std::string> names;
    for (const auto& pass : lowering_pipeline())
        names.emplace_back(pass.name);
    EXPECT_EQ(names, (std::vector<std::string>{"bind-parameters", "lay-out-arrays", "map-threads",
                                               "bound-sequential-loops", "split-statements",
                                               "order-reduction-pieces", "fuse-loops",
                                               "place-accumulators", "build-loop-tree"}));
}

TEST(LoweringState, InDomainOrderFollowsTheKernelsIndexList) {
    const kernel::KernelSpec spec = example("matmul_tiled16"); // indices i, j, ko, kk
    const LoweringState state(spec, spec.launch, {});
    EXPECT_EQ(state.in_domain_order({"kk", "i", "ko"}),
              (std::vector<std::string>{"i", "ko", "kk"}));
    EXPECT_TRUE(state.in_domain_order({}).empty());
}

TEST(LoweringState, PassesByHandGiveLowerKernelsSchedule) {
    const kernel::KernelSpec spec = example("dg_diff_2");
    const std::vector<std::pair<std::string, std::int64_t>> params{{"nelements", 32}};
    LoweringState state(spec, spec.launch, params);
    run_through(state, "build-loop-tree");
    const Schedule direct = lower_kernel(spec, spec.launch, params);
    EXPECT_EQ(generate_cuda(state.schedule).cuda_source, generate_cuda(direct).cuda_source);
}

TEST(LoweringState, UnsupportedNamesTheKernelAndItsFile) {
    const kernel::KernelSpec spec = example("matmul_naive");
    try {
        unsupported(spec, "no reason");
        FAIL() << "unsupported returned";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        const std::string message = e.what();
        EXPECT_NE(message.find("matmul_naive.yaml"), std::string::npos) << message;
        EXPECT_NE(message.find("cannot generate code for kernel 'matmul_naive': no reason"),
                  std::string::npos)
            << message;
    }
}
