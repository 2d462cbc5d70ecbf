// Speed of the simulated L1 (l1_simulation.hpp), the largest part of a forecast on machines that
// give their L1's ways: one block's programs of star3d_r4 built (BM_BlockPrograms) and simulated
// (BM_SimulateL1) at three launches of its default sweep, on the H100 SXM5's L1 (4 ways, 1984
// lines, the miss pass) and the V100 PCIe's (16 ways, no miss pass); two resident blocks.
#include "bench_inputs.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/volumes/l1_simulation.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

// Argument 0: the launch (0: 32x4x4, 1: 8x8x16 fold z=2, 2: 4x16x16).
kernel::LaunchConfig launch(std::int64_t which) {
    switch (which) {
    case 0:
        return {{32, 4, 4}, {1, 1, 1}};
    case 1:
        return {{8, 8, 16}, {1, 1, 2}};
    default:
        return {{4, 16, 16}, {1, 1, 1}};
    }
}

models::BlockPrograms programs(std::int64_t which, const MachineModel& machine) {
    const auto analysis = analysis::analyze(bench::star3d_r4(), launch(which));
    std::string why_not;
    auto programs = models::block_programs(analysis, analysis::bind(analysis, {}).values(),
                                           models::l1_bank_layout(machine), {1, 1, 1}, why_not);
    if (!programs)
        throw std::runtime_error("no block programs: " + why_not);
    return *programs;
}

void BM_BlockPrograms(benchmark::State& state) {
    const auto analysis = analysis::analyze(bench::star3d_r4(), launch(state.range(0)));
    const auto params = analysis::bind(analysis, {}).values();
    const auto layout = models::l1_bank_layout(bench::h100_sxm5());
    for (auto _ : state) {
        std::string why_not;
        benchmark::DoNotOptimize(
            models::block_programs(analysis, params, layout, {1, 1, 1}, why_not));
    }
}
BENCHMARK(BM_BlockPrograms)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// Argument 1: the L1 (0: the H100's with the miss pass, 1: the V100's).
void BM_SimulateL1(benchmark::State& state) {
    const bool v100 = state.range(1) != 0;
    const MachineModel& machine = v100 ? bench::v100_pcie() : bench::h100_sxm5();
    const models::BlockPrograms block = programs(state.range(0), machine);
    const models::L1Geometry geometry{v100 ? 1024 : 1984, v100 ? 16 : 4, 128, 32};
    std::optional<models::L1MissPasses> passes;
    if (!v100)
        passes = models::L1MissPasses{models::l1_bank_layout(machine), 272.9};
    for (auto _ : state)
        benchmark::DoNotOptimize(models::simulate_l1(block, 2, geometry, passes));
}
BENCHMARK(BM_SimulateL1)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMillisecond);

} // namespace
