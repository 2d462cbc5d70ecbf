// Speed of calibrating a cost model (docs/model-format.md): the 12-parameter overlap model of
// Stevens & Klöckner eq. (8) on 300 synthetic measurements (0.5 % noise), Levenberg-Marquardt
// from p_edge a factor 4 off and all costs at 0 — target: under 0.5 s. Arg 1: the five
// starts of the default (calibration.hpp, multi_start); arg 0: the model's start only. Also
// one evaluation of the model.
#include "../tests/unit/models/calibrated/synthetic_samples.hpp"
#include "kerncast/models/calibrated/calibration.hpp"

#include <benchmark/benchmark.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

static void BM_CalibrateOverlap12On300(benchmark::State& state) {
    const synthetic::OverlapCase c = synthetic::twelve_parameter_overlap();
    CostModel start = c.model;
    start.parameters.back().initial = 500;
    const auto samples = synthetic::synthetic_samples(c.model, c.ranges, c.parameters, 300, 0.005);
    const bool multi_start = state.range(0) != 0;
    int iterations = 0;
    for (auto _ : state) {
        const CalibrationResult result = calibrate(start, samples, {true, true, 200, multi_start});
        iterations = result.iterations;
        benchmark::DoNotOptimize(result.residual_norm);
    }
    state.counters["lm_iterations"] = iterations;
}
BENCHMARK(BM_CalibrateOverlap12On300)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

static void BM_EvaluateOverlap12(benchmark::State& state) {
    const synthetic::OverlapCase c = synthetic::twelve_parameter_overlap();
    const auto samples = synthetic::synthetic_samples(c.model, c.ranges, c.parameters, 1, 0.0);
    for (auto _ : state)
        benchmark::DoNotOptimize(c.model.evaluate(c.parameters, samples[0].features));
}
BENCHMARK(BM_EvaluateOverlap12);
