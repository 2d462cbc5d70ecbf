// Synthetic calibration samples: features drawn at random over realistic ranges, the measured
// time made by a model at known parameters with multiplicative noise (a fixed seed). Shared
// by the calibration tests and bench/calibration_bench.cpp.
#pragma once

#include "kerncast/models/calibrated/calibration.hpp"
#include "kerncast/models/calibrated/cost_model.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace kerncast::synthetic {

// Each feature is drawn log-uniformly from [low, high] (a range per feature).
inline std::vector<models::calibrated::CalibrationSample>
synthetic_samples(const models::calibrated::CostModel& model,
                  const std::vector<std::pair<double, double>>& feature_ranges,
                  const std::vector<double>& true_parameters, int count, double relative_noise,
                  unsigned seed = 12) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<models::calibrated::CalibrationSample> samples;
    for (int k = 0; k < count; ++k) {
        models::calibrated::CalibrationSample sample;
        sample.label = "synthetic/" + std::to_string(k);
        sample.kernel = "kernel" + std::to_string(k % 3);
        for (const auto& [low, high] : feature_ranges) {
            std::uniform_real_distribution<double> u(std::log(low), std::log(high));
            sample.features.push_back(low == high ? low : std::exp(u(random)));
        }
        const double exact = model.evaluate(true_parameters, sample.features);
        sample.measured = exact * (1.0 + relative_noise * noise(random));
        samples.push_back(std::move(sample));
    }
    return samples;
}

// The 12-parameter overlap model of Stevens & Klöckner eq. (8) (launch, group and barrier
// overhead; five global patterns; three on-chip costs; the step's edge), its feature ranges
// and parameters: global costs ~1e-12 s per access, on-chip ~5e-12 s per operation, so that
// the samples range from memory- to compute-bound around the step.
struct OverlapCase {
    models::calibrated::CostModel model;
    std::vector<std::pair<double, double>> ranges;
    std::vector<double> parameters; // true values, model.parameters order
};

inline OverlapCase twelve_parameter_overlap() {
    OverlapCase c;
    c.model = models::calibrated::make_cost_model(
        "overlap12", "f_time", "c_overhead + overlap(c_gmem, c_onchip, p_edge)",
        {{"c_overhead", "p_launch * f_sync_kernel_launch + p_group * f_thread_groups + "
                        "p_barrier * f_sync_barrier_local * f_thread_groups"},
         {"c_gmem", "p_ga * f_mem_access_tag:a + p_gb * f_mem_access_tag:b + "
                    "p_gc * f_mem_access_tag:c + p_gd * f_mem_access_tag:d + "
                    "p_gs * f_mem_access_global_store"},
         {"c_onchip", "p_madd * f_op_float32_madd + p_add * f_op_float32_add + "
                      "p_local * f_mem_access_local_float32"}},
        {{"p_edge", 2e3, 0.0, std::nullopt, ""}});
    // Features in order of first use: launch, groups, barriers, a, b, c, d, store, madd, add,
    // local.
    c.ranges = {{1, 1},     {1e3, 1e5}, {0, 0},     {1e6, 1e8}, {1e6, 1e8}, {1e6, 1e8},
                {1e6, 1e8}, {1e6, 1e8}, {1e7, 1e9}, {1e6, 1e8}, {1e7, 1e9}};
    c.ranges[2] = {1, 32};
    // Parameters in order of first use.
    c.parameters = {5e-6, 2e-9, 1e-13, 2e-12, 5e-12, 1e-12, 8e-12, 3e-12, 5e-12, 5e-12, 9e-12, 2e3};
    return c;
}

} // namespace kerncast::synthetic
