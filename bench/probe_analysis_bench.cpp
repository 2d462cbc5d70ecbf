// Speed of the probe's host-side analysis: KS tests, Opt, and the whole replay of a record.
// The probe's budget is minutes of GPU time; the analysis must stay far below it.
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/change_point.hpp"
#include "kerncast/probe/kolmogorov_smirnov.hpp"
#include "kerncast/probe/raw_series.hpp"

#include <benchmark/benchmark.h>
#include <fstream>
#include <random>
#include <sstream>

namespace {

using namespace kerncast::probe;

std::vector<double> timings(std::size_t n, double hit, double miss_fraction, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<double> t(n);
    for (auto& v : t)
        v = std::round(unit(rng) < miss_fraction ? 220 + 4 * unit(rng) : hit + 4 * unit(rng));
    return t;
}

void BM_KsTestExact(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = timings(n, 33, 0.0, 1);
    const auto b = timings(n, 33, 0.1, 2);
    for (auto _ : state)
        benchmark::DoNotOptimize(ks_two_sample_test(a, b, 0.01));
}
BENCHMARK(BM_KsTestExact)->Arg(16)->Arg(64)->Arg(100);

void BM_KsTestAsymptotic(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto a = timings(n, 33, 0.0, 1);
    const auto b = timings(n, 33, 0.1, 2);
    for (auto _ : state)
        benchmark::DoNotOptimize(ks_two_sample_test(a, b, 0.01));
}
BENCHMARK(BM_KsTestAsymptotic)->Arg(512)->Arg(2048);

void BM_OptSingleChangePoint(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<double> series = timings(n, 0, 0.0, 3);
    for (std::size_t k = n / 2; k < n; ++k)
        series[k] += 50;
    ChangePointOptions options;
    options.cost =
        state.range(1) == 0 ? SegmentCost::squared_error : SegmentCost::absolute_deviation;
    for (auto _ : state)
        benchmark::DoNotOptimize(opt_single_change_point(series, options));
    state.SetComplexityN(static_cast<long>(n));
}
BENCHMARK(BM_OptSingleChangePoint)->ArgsProduct({{64, 512, 4096}, {0, 1}})->Complexity();

void BM_GeometricReduction(benchmark::State& state) {
    std::vector<std::vector<double>> vectors;
    for (int k = 0; k < state.range(0); ++k)
        vectors.push_back(
            timings(512, 33, k < state.range(0) / 2 ? 0.0 : 0.2, static_cast<unsigned>(k)));
    for (auto _ : state)
        benchmark::DoNotOptimize(geometric_reduction(vectors));
}
BENCHMARK(BM_GeometricReduction)->Arg(32)->Arg(128);

void BM_ReplaySyntheticRecord(benchmark::State& state) {
    std::ifstream in(std::string(KERNCAST_SOURCE_DIR) +
                     "/tests/unit/probe/data/synthetic-gpu/raw.json");
    std::ostringstream text;
    text << in.rdbuf();
    const ProbeRecord record = parse_probe_record(text.str(), "raw.json");
    for (auto _ : state)
        benchmark::DoNotOptimize(analyse_probe_record(record));
}
BENCHMARK(BM_ReplaySyntheticRecord)->Unit(benchmark::kMillisecond);

} // namespace
