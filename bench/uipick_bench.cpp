// Speed of UIPICK generation and work removal (docs/uipick.md): generating every variant of
// every generator with its default values (each kernel built, written as YAML and parsed
// back, twice: the builder validates, the collection writes the file text), and removing
// the work of the tiled matmul.
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/uipick/kernel_collection.hpp"
#include "kerncast/uipick/work_removal.hpp"

#include <benchmark/benchmark.h>

using namespace kerncast;

static void BM_GenerateAllDefaultVariants(benchmark::State& state) {
    const uipick::FilterTags tags = uipick::parse_filter_tags({});
    std::size_t kernels = 0;
    for (auto _ : state) {
        const uipick::Generation g = uipick::generate_kernels(uipick::all_generators(), tags);
        kernels = g.kernels.size();
        benchmark::DoNotOptimize(kernels);
    }
    state.counters["kernels"] = static_cast<double>(kernels);
}
BENCHMARK(BM_GenerateAllDefaultVariants)->Unit(benchmark::kMillisecond);

static void BM_RemoveWorkTiledMatmul(benchmark::State& state) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/examples/kernels/matmul_tiled16.yaml");
    for (auto _ : state) {
        const kernel::KernelSpec removed = uipick::remove_work(spec, {"b"});
        benchmark::DoNotOptimize(removed.statements.size());
    }
}
BENCHMARK(BM_RemoveWorkTiledMatmul)->Unit(benchmark::kMicrosecond);
