// The MWP-CWP parameter fit (Hong & Kim 2009, sec. 5.1) recovers known parameters from
// synthetic timed runs: times predicted with the GTX280's Table 6 values (450, 40, 4), then
// fitted from other starts.
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/mwp_cwp/kernel_prediction.hpp"
#include "kerncast/models/mwp_cwp/mwp_cwp.hpp"
#include "kerncast/models/mwp_cwp/parameter_fit.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <gtest/gtest.h>
#include <map>

namespace kerncast::models::mwp_cwp {
namespace {

// Synthetic samples: each micro-benchmark at three block sizes and the tiled matmul (barriers,
// coalesced loads) at three widths, timed by the model itself on `machine`.
std::vector<FitSample> synthetic_samples(const MachineModel& machine) {
    std::vector<FitSample> samples;
    auto add = [&](const std::string& kernel, const kernel::LaunchConfig& launch,
                   const std::vector<std::pair<std::string, std::int64_t>>& params) {
        const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                                   "/examples/kernels/" + kernel + ".yaml");
        const auto p = predict_kernel_mwp(spec, launch, params, machine);
        samples.push_back({kernel, kernel, p.derived.workload, p.model.time_seconds});
    };
    for (const char* kernel : {"hk_micro_mb1", "hk_micro_mb2_c", "hk_micro_mb2_uc",
                               "hk_micro_mb5_c", "hk_micro_mb5_uc", "hk_micro_mb7_uc"})
        for (std::int64_t block : {32, 128, 512})
            add(kernel, {{block, 1, 1}, {1, 1, 1}}, {});
    for (std::int64_t width : {48, 480, 4800})
        add("hk_matmul", {{16, 16, 1}, {1, 1, 1}}, {{"wM", width}});
    return samples;
}

TEST(MwpParameterFit, RecoversTheGtx280Parameters) {
    const MachineModel machine = resolve_machine("gtx280");
    const auto samples = synthetic_samples(machine);
    MwpFitOptions options;
    options.starts = {{300, 10, 8}, {800, 80, 2}};
    const MwpFit fit = fit_mwp_parameters(samples, machine, options);
    EXPECT_TRUE(fit.converged) << fit.termination;
    EXPECT_NEAR(fit.parameters[0], 450, 450 * 1e-4);
    EXPECT_NEAR(fit.parameters[1], 40, 40 * 1e-4);
    EXPECT_NEAR(fit.parameters[2], 4, 4 * 1e-4);
    EXPECT_LT(fit.max_abs_relative_error, 1e-6);
    EXPECT_EQ(fit.rows.size(), samples.size());
}

TEST(MwpParameterFit, DefaultStartsRecoverTheFx5600Parameters) {
    const MachineModel machine = resolve_machine("fx5600");
    const MwpFit fit = fit_mwp_parameters(synthetic_samples(machine), machine);
    EXPECT_NEAR(fit.parameters[0], 420, 420 * 1e-4);
    EXPECT_NEAR(fit.parameters[1], 10, 10 * 1e-4);
    EXPECT_NEAR(fit.parameters[2], 4, 4 * 1e-4);
}

TEST(MwpParameterFit, EveryParameterIsDeterminedByTheFullSet) {
    const MachineModel machine = resolve_machine("fx5600");
    const MwpFit fit = fit_mwp_parameters(synthetic_samples(machine), machine);
    EXPECT_TRUE(fit.determined());
}

// Without uncoalesced runs no time depends on Departure_del_uncoal (Hong & Kim eq. 8 uses it
// only for uncoalesced loads): it is marked, not reported as fitted at its start value.
TEST(MwpParameterFit, RecordsWithoutUncoalescedLoadsLeaveItsDelayUndetermined) {
    const MachineModel machine = resolve_machine("fx5600");
    std::vector<FitSample> coalesced;
    for (auto& sample : synthetic_samples(machine))
        if (sample.record.find("_uc") == std::string::npos)
            coalesced.push_back(sample);
    ASSERT_EQ(coalesced.size(), 12u);
    const MwpFit fit = fit_mwp_parameters(coalesced, machine);
    EXPECT_FALSE(fit.determined());
    EXPECT_EQ(fit.status[1], ParameterStatus::undetermined);
    EXPECT_EQ(fit.status[0], ParameterStatus::fitted);
    EXPECT_NEAR(fit.parameters[0], 420, 420 * 1e-4);
}

// Copies of one run fix one time: at most one parameter is fitted, whatever the run. Some runs
// leave the others flat (undetermined), some tie them (not separable), and the uncoalesced ones
// pull a delay to 0 (at bound; the fit used to end at exp(-inf) = 0 cycles and a model error).
TEST(MwpParameterFit, OneRepeatedRunFitsAtMostOneParameter) {
    const MachineModel machine = resolve_machine("fx5600");
    std::map<ParameterStatus, int> seen;
    for (const auto& sample : synthetic_samples(machine)) {
        const MwpFit fit = fit_mwp_parameters(std::vector<FitSample>(3, sample), machine);
        EXPECT_FALSE(fit.determined()) << sample.record;
        EXPECT_LE(std::count(fit.status.begin(), fit.status.end(), ParameterStatus::fitted), 1)
            << sample.record;
        for (const auto status : fit.status)
            ++seen[status];
        for (const double cycles : fit.parameters)
            EXPECT_TRUE(cycles >= 0.01 && cycles <= 1e6) << sample.record;
    }
    EXPECT_GT(seen[ParameterStatus::undetermined], 0);
    EXPECT_GT(seen[ParameterStatus::not_separable], 0);
    EXPECT_GT(seen[ParameterStatus::at_bound], 0);
}

TEST(MwpParameterFit, TooFewSamplesIsAnInputError) {
    const MachineModel machine = resolve_machine("fx5600");
    auto samples = synthetic_samples(machine);
    samples.resize(2);
    EXPECT_THROW(fit_mwp_parameters(samples, machine), Error);
}

} // namespace
} // namespace kerncast::models::mwp_cwp

namespace kerncast::models::mwp_cwp {
namespace {

// Cross-validation by kernel: the seven kernels alternate into {hk_matmul, mb2_c, mb5_c,
// mb7_uc} and {mb1, mb2_uc, mb5_uc}; each fold's parameters and held-out errors are those of
// fitting its half by hand. Without kernel names there is one group and no cross-validation.
TEST(MwpParameterFit, CrossValidationFitsEachHalfOfTheKernels) {
    const MachineModel machine = resolve_machine("gtx280");
    std::vector<FitSample> samples = synthetic_samples(machine);
    const MwpCrossValidation unnamed = cross_validate_mwp_fit(samples, machine);
    EXPECT_TRUE(unnamed.folds.empty());
    EXPECT_NE(unnamed.not_run.find("two kernels"), std::string::npos);
    for (auto& sample : samples)
        sample.kernel = sample.record;
    const MwpCrossValidation validation = cross_validate_mwp_fit(samples, machine);
    ASSERT_EQ(validation.folds.size(), 2u);
    EXPECT_EQ(validation.folds[0].train_kernels,
              (std::vector<std::string>{"hk_matmul", "hk_micro_mb2_c", "hk_micro_mb5_c",
                                        "hk_micro_mb7_uc"}));
    EXPECT_EQ(validation.folds[0].test_kernels,
              (std::vector<std::string>{"hk_micro_mb1", "hk_micro_mb2_uc", "hk_micro_mb5_uc"}));
    EXPECT_EQ(validation.samples, samples.size());

    std::vector<FitSample> half0;
    for (const auto& sample : samples)
        if (sample.kernel == "hk_matmul" || sample.kernel == "hk_micro_mb2_c" ||
            sample.kernel == "hk_micro_mb5_c" || sample.kernel == "hk_micro_mb7_uc")
            half0.push_back(sample);
    const MwpFit by_hand = fit_mwp_parameters(half0, machine);
    EXPECT_EQ(validation.folds[0].parameters, by_hand.parameters);
    EXPECT_EQ(validation.folds[0].test_samples, samples.size() - half0.size());
    // The data are exact and this half (with hk_micro_mb7_uc) determines every parameter: it
    // predicts the other half's runs to rounding.
    ASSERT_TRUE(by_hand.determined());
    EXPECT_LT(validation.folds[0].max_abs_relative_error, 1e-5);
    EXPECT_GE(validation.max_abs_relative_error, validation.folds[0].max_abs_relative_error);
}

} // namespace
} // namespace kerncast::models::mwp_cwp
