// Speed of one prediction as the Python module's kerncast.predict makes it (python/src/
// commands.cpp): the launch and register options, the analysis at the launch, the volume model
// and its report document, for star3d_r4 on a100-sxm4-40gb with the kernel file's launch.
// bench/python_predict_overhead.py runs this and times the same call through Python.
#include "bench_inputs.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/models/volumes/volume_view.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

void BM_PredictCall(benchmark::State& state) {
    const kernel::KernelSpec& spec = bench::star3d_r4();
    const MachineModel& machine = bench::a100_40gb();
    for (auto _ : state) {
        const kernel::LaunchConfig launch = kernel::override_launch(spec.launch, "", "");
        const auto registers = models::parse_register_request("", "registers");
        models::VolumeOptions options;
        options.registers = *models::fixed_register_count(registers, spec);
        benchmark::DoNotOptimize(
            models::predict_view(models::predict_launch(spec, launch, {}, machine, options),
                                 spec.name, machine.identity.id));
    }
}
BENCHMARK(BM_PredictCall)->Unit(benchmark::kMicrosecond);

} // namespace
