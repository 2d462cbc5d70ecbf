// Cost of --registers auto: one NVRTC + ptxas compilation of the generated star3d_r4 for sm_80,
// a cache hit (generation and hashing only), and the default explore sweep with and without
// ptxas counts (168 configurations: 168 distinct sources, so 168 compilations), and with the
// counts of a previous run in the cache directory. Needs NVRTC;
// built without CUDA the benchmarks skip.
#include "bench_inputs.hpp"
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/models/volumes/explore.hpp"

#include <benchmark/benchmark.h>
#include <filesystem>
#include <memory>
#include <optional>

namespace {

using namespace kerncast;

// nullptr (and the benchmark skipped) when this build cannot count registers.
std::unique_ptr<codegen::RegisterCounter>
counter(benchmark::State& state, std::optional<std::string> cache_directory = std::nullopt) {
    try {
        return std::make_unique<codegen::RegisterCounter>(
            bench::star3d_r4(), std::vector<std::pair<std::string, std::int64_t>>{},
            bench::a100_40gb(), cache_directory);
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

// Arg 0: registers unknown; 1: ptxas for every configuration, compiled in batches ahead of the
// predictions as `explore --registers auto` does (RegisterCounter::prepare); 2: ptxas's counts
// read from a cache directory a previous run filled (a second `explore --registers auto`);
// 3: as 1, one compilation a configuration. All hardware threads.
void BM_ExploreDefaultSweepRegisters(benchmark::State& state) {
    const std::string warm =
        (std::filesystem::temp_directory_path() / "kerncast_bench_register_cache").string();
    if (state.range(0) == 2) {
        std::filesystem::remove_all(warm);
        models::ExploreOptions fill;
        auto filler = counter(state, warm);
        if (!filler)
            return;
        fill.registers_for_launch = [&filler](const kernel::LaunchConfig& launch) {
            return filler->count(launch);
        };
        (void)models::explore(bench::star3d_r4(), {}, bench::a100_40gb(), fill);
    }
    for (auto _ : state) {
        models::ExploreOptions options;
        std::unique_ptr<codegen::RegisterCounter> ptxas;
        if (state.range(0) >= 1) {
            ptxas = counter(state,
                            state.range(0) == 2 ? std::optional<std::string>(warm) : std::nullopt);
            if (!ptxas)
                return;
            options.registers_for_launch = [&ptxas](const kernel::LaunchConfig& launch) {
                return ptxas->count(launch);
            };
            if (state.range(0) != 3)
                options.prepare_registers = [&ptxas](const std::vector<kernel::LaunchConfig>& all,
                                                     unsigned jobs) { ptxas->prepare(all, jobs); };
        }
        benchmark::DoNotOptimize(
            models::explore(bench::star3d_r4(), {}, bench::a100_40gb(), options));
    }
}
BENCHMARK(BM_ExploreDefaultSweepRegisters)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

} // namespace
