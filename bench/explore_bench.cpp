// Speed of the volume model: one analysis, one prediction, and the default explore sweep of
// star3d_r4 on a100-sxm4-40gb, and the sweep on h100-sxm5-80gb with its simulated L1, with and
// without the miss pass (configurations per second in the counters); one prediction of the
// published range-2 star folded 4 times along z, whose wave and layer footprints are the
// largest of the accuracy sets.
#include "bench_inputs.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

void BM_Analyze(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(analysis::analyze(bench::star3d_r4(), {{32, 4, 4}, {1, 1, 2}}));
}
BENCHMARK(BM_Analyze)->Unit(benchmark::kMillisecond);

void BM_PredictVolumes(benchmark::State& state) {
    const auto analysis = analysis::analyze(bench::star3d_r4(), {{32, 4, 4}, {1, 1, 2}});
    const auto bound = analysis::bind(analysis);
    for (auto _ : state)
        benchmark::DoNotOptimize(models::predict_volumes(analysis, bound, bench::a100_40gb()));
}
BENCHMARK(BM_PredictVolumes)->Unit(benchmark::kMillisecond);

// star3d_r2 at 16x4x16 (argument 0) and 1x16x64 (argument 1), fold z=4, on v100-sxm2-32gb.
void BM_PredictFoldedStar(benchmark::State& state) {
    const kernel::Dim3 block = state.range(0) ? kernel::Dim3{1, 16, 64} : kernel::Dim3{16, 4, 16};
    const auto analysis = analysis::analyze(bench::star3d_r2(), {block, {1, 1, 4}});
    const auto bound = analysis::bind(analysis);
    for (auto _ : state)
        benchmark::DoNotOptimize(models::predict_volumes(analysis, bound, bench::v100_sxm2()));
}
BENCHMARK(BM_PredictFoldedStar)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_ExploreDefaultSweep(benchmark::State& state) {
    models::ExploreOptions options;
    options.jobs = static_cast<unsigned>(state.range(0));
    std::size_t configurations = 0;
    for (auto _ : state) {
        const auto result = models::explore(bench::star3d_r4(), {}, bench::a100_40gb(), options);
        configurations += result.rows.size();
    }
    state.counters["configurations_per_s"] =
        benchmark::Counter(static_cast<double>(configurations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExploreDefaultSweep)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same sweep on the H100 SXM5, whose L1 is simulated (docs/volume-model.md, L2 -> L1) and
// costs the loads' L1 cycles with the miss pass (argument 1) or not (0); one thread.
void BM_ExploreSimulatedL1(benchmark::State& state) {
    const MachineModel& machine =
        state.range(0) ? bench::h100_sxm5() : bench::h100_sxm5_without_miss_pass();
    models::ExploreOptions options;
    options.jobs = 1;
    std::size_t configurations = 0;
    for (auto _ : state) {
        const auto result = models::explore(bench::star3d_r4(), {}, machine, options);
        configurations += result.rows.size();
    }
    state.counters["configurations_per_s"] =
        benchmark::Counter(static_cast<double>(configurations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExploreSimulatedL1)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
