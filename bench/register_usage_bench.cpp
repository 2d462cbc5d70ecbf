// Cost of --registers auto: one NVRTC + ptxas compilation of the generated star3d_r4 for sm_80,
// a cache hit (generation and hashing only), and the default explore sweep with and without
// ptxas counts (168 configurations: 168 distinct sources, so 168 compilations). Needs NVRTC;
// built without CUDA the benchmarks skip.
#include "bench_inputs.hpp"
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/models/volumes/explore.hpp"

#include <benchmark/benchmark.h>
#include <memory>

namespace {

using namespace kerncast;

// nullptr (and the benchmark skipped) when this build cannot count registers.
std::unique_ptr<codegen::RegisterCounter> counter(benchmark::State& state) {
    try {
        return std::make_unique<codegen::RegisterCounter>(
            bench::star3d_r4(), std::vector<std::pair<std::string, std::int64_t>>{},
            bench::a100_40gb());
    } catch (const Error& e) {
        state.SkipWithError(e.message().c_str());
        return nullptr;
    }
}

void BM_RegisterCountCompile(benchmark::State& state) {
    for (auto _ : state) {
        auto fresh = counter(state); // empty cache: every iteration compiles
        if (!fresh)
            return;
        benchmark::DoNotOptimize(fresh->count({{32, 4, 4}, {1, 1, 2}}));
    }
}
BENCHMARK(BM_RegisterCountCompile)->Unit(benchmark::kMillisecond);

void BM_RegisterCountCached(benchmark::State& state) {
    auto shared = counter(state);
    if (!shared)
        return;
    (void)shared->count({{32, 4, 4}, {1, 1, 2}});
    for (auto _ : state)
        benchmark::DoNotOptimize(shared->count({{32, 4, 4}, {1, 1, 2}}));
}
BENCHMARK(BM_RegisterCountCached)->Unit(benchmark::kMicrosecond);

// Arg 0: registers unknown; 1: ptxas for every configuration. All hardware threads.
void BM_ExploreDefaultSweepRegisters(benchmark::State& state) {
    for (auto _ : state) {
        models::ExploreOptions options;
        std::unique_ptr<codegen::RegisterCounter> ptxas;
        if (state.range(0) == 1) {
            ptxas = counter(state);
            if (!ptxas)
                return;
            options.registers_for_launch = [&ptxas](const kernel::LaunchConfig& launch) {
                return ptxas->count(launch);
            };
        }
        benchmark::DoNotOptimize(
            models::explore(bench::star3d_r4(), {}, bench::a100_40gb(), options));
    }
}
BENCHMARK(BM_ExploreDefaultSweepRegisters)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
