// Speed of the volume model: one analysis, one prediction, and the default explore sweep of
// star3d_r4 on a100-sxm4-40gb (configurations per second in the counters).
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/explore.hpp"
#include "kerncast/models/volumes.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

const kernel::KernelSpec& star() {
    static const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/star3d_r4.yaml");
    return spec;
}

const MachineModel& a100() {
    static const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    return machine;
}

void BM_Analyze(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(analysis::analyze(star(), {{32, 4, 4}, {1, 1, 2}}));
}
BENCHMARK(BM_Analyze)->Unit(benchmark::kMillisecond);

void BM_PredictVolumes(benchmark::State& state) {
    const auto analysis = analysis::analyze(star(), {{32, 4, 4}, {1, 1, 2}});
    const auto params = analysis::parameter_values(analysis);
    for (auto _ : state)
        benchmark::DoNotOptimize(models::predict_volumes(analysis, params, a100()));
}
BENCHMARK(BM_PredictVolumes)->Unit(benchmark::kMillisecond);

void BM_ExploreDefaultSweep(benchmark::State& state) {
    models::ExploreOptions options;
    options.jobs = static_cast<unsigned>(state.range(0));
    std::size_t configurations = 0;
    for (auto _ : state) {
        const auto result = models::explore(star(), {}, a100(), options);
        configurations += result.rows.size();
    }
    state.counters["configurations_per_s"] =
        benchmark::Counter(static_cast<double>(configurations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExploreDefaultSweep)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
