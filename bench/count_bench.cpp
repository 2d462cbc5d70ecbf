// Speed of the static analysis: analyse a kernel once, then evaluate every count (operations,
// accesses, footprint elements, barriers, thread blocks) for 1000 parameter sets.
// Target (issue "Kernel files and static analysis"): < 50 ms per iteration.
// BM_CountStatements: `kerncast count`'s report (with warp and block footprints) of a generated
// kernel of N statements, each reading a different element (b[x] = a[x + i] + i), as a code
// generator's unrolled kernel does (issue 47: 20,000 statements took over 10 s).
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/counts/count_kernel.hpp"

#include <benchmark/benchmark.h>
#include <random>

namespace {

using namespace kerncast;

std::int64_t evaluate_everything(const analysis::KernelAnalysis& a,
                                 const std::vector<std::int64_t>& p) {
    std::int64_t sum = a.thread_blocks.evaluate(p);
    for (const auto& op : a.operations)
        sum += op.count.evaluate(p);
    for (const auto& access : a.accesses)
        sum += access.count.evaluate(p) + access.count_per_work_item.evaluate(p) +
               access.footprint_elements.evaluate(p);
    for (const auto& barrier : a.barriers)
        sum += barrier.per_work_item.evaluate(p);
    return sum;
}

void analyse_and_evaluate(benchmark::State& state, const char* kernel_name,
                          std::vector<std::pair<int, int>> ranges) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR "/examples/kernels/") + kernel_name + ".yaml");
    std::mt19937 rng(7);
    std::vector<std::vector<std::int64_t>> parameter_sets;
    for (int k = 0; k < 1000; ++k) {
        std::vector<std::int64_t> values;
        for (const auto& [lo, hi] : ranges)
            values.push_back(16 * std::uniform_int_distribution<int>(lo / 16, hi / 16)(rng));
        parameter_sets.push_back(values);
    }
    bool closed = true;
    for (auto _ : state) {
        const analysis::KernelAnalysis a = analysis::analyze(spec);
        std::int64_t total = 0;
        for (const auto& p : parameter_sets)
            total += evaluate_everything(a, p);
        benchmark::DoNotOptimize(total);
        for (const auto& access : a.accesses)
            closed =
                closed && access.count.closed_form() && access.footprint_elements.closed_form();
    }
    state.counters["all_closed_form"] = closed ? 1 : 0;
}

void BM_Star3dR4(benchmark::State& state) {
    analyse_and_evaluate(state, "star3d_r4", {{64, 1024}, {64, 1024}, {64, 1024}});
}
void BM_MatmulTiled16(benchmark::State& state) {
    analyse_and_evaluate(state, "matmul_tiled16", {{16, 4096}, {16, 4096}, {16, 4096}});
}

void BM_CountStatements(benchmark::State& state) {
    const auto statements = state.range(0);
    std::string text = "name: unrolled\nparams: {nx: 1048576}\narrays:\n"
                       "  a: {dtype: f32, shape: [nx]}\n  b: {dtype: f32, shape: [nx]}\n"
                       "domain: \"[nx] -> { [x] : 0 <= x < nx - " +
                       std::to_string(statements) +
                       " }\"\nthreads: {x: x}\nlaunch: {block: [256]}\nstatements:\n";
    for (std::int64_t i = 0; i < statements; ++i)
        text += "  - \"b[x] = a[x + " + std::to_string(i) + "] + " + std::to_string(i) + "\"\n";
    const kernel::KernelSpec spec = kernel::parse_kernel_text(text, "unrolled.yaml");
    models::counts::FootprintOptions footprints; // as `kerncast count`: 32 B sectors, 128 B lines
    footprints.granule_bytes = {32, 128};
    for (auto _ : state) {
        const auto report = models::counts::count_kernel(spec, spec.launch, {}, {}, footprints);
        benchmark::DoNotOptimize(report.accesses.size());
    }
    state.counters["statements_per_s"] = benchmark::Counter(
        static_cast<double>(statements), benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

BENCHMARK(BM_CountStatements)->Arg(1000)->Arg(4000)->Arg(16000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Star3dR4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulTiled16)->Unit(benchmark::kMillisecond);
