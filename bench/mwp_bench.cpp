// Speed of MWP-CWP for a kernel file (no target; the figure is in the report of the issue that
// added it): analysis with index arithmetic, derived workload (coalescing of every warp of a
// block), the equations; classic and cache-aware (which adds the volume model).
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

void predict(benchmark::State& state, const char* kernel_name, const char* machine_id,
             models::mwp_cwp::Variant variant) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR "/examples/kernels/") + kernel_name + ".yaml");
    const MachineModel machine = resolve_machine(machine_id);
    models::mwp_cwp::KernelMwpOptions options;
    options.variant = variant;
    for (auto _ : state) {
        const auto p = models::mwp_cwp::predict_kernel_mwp(spec, spec.launch, {}, machine, options);
        benchmark::DoNotOptimize(p.model.time_seconds);
    }
}

BENCHMARK_CAPTURE(predict, matmul_table2_classic, "hk_matmul_table2", "hk-example",
                  models::mwp_cwp::Variant::classic)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(predict, star3d_r4_v100_classic, "star3d_r4", "v100-pcie-32gb",
                  models::mwp_cwp::Variant::classic)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(predict, star3d_r4_v100_cache_aware, "star3d_r4", "v100-pcie-32gb",
                  models::mwp_cwp::Variant::cache_aware)
    ->Unit(benchmark::kMillisecond);

} // namespace
