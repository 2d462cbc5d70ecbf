// Two-fold cross-validation by group, the one split the fits share (fit-volumes' capacity
// curves, calibrate's cost models, mwp-fit's MWP-CWP memory parameters): samples of one group
// (a stencil with its block shapes, a kernel with its sizes) stay in one half, so a half's fit
// is judged on groups it never saw. Pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::support {

struct TwoFoldSplit {
    std::array<std::vector<std::size_t>, 2> samples; // the sample indices of each half
    std::array<std::vector<std::string>, 2> groups;  // the groups of each half, sorted
    // Both halves hold samples: there are at least two groups.
    bool usable() const { return !samples[0].empty() && !samples[1].empty(); }
};

// The distinct groups in sorted order, alternately into half 0 (1st, 3rd, ...) and half 1
// (2nd, 4th, ...); `group_of_sample` names each sample's group.
TwoFoldSplit split_by_group(const std::vector<std::string>& group_of_sample);

// Each sample's relative error under the fit on the half that does not hold it: `fit(training
// indices)` returns whatever `error(fitted, i)` needs to give sample i's relative error.
// nullopt for every sample when the split is not usable.
template <class Fit, class Error>
std::vector<std::optional<double>> held_out_errors(const TwoFoldSplit& split, Fit&& fit,
                                                   Error&& error) {
    const std::size_t samples = split.samples[0].size() + split.samples[1].size();
    std::vector<std::optional<double>> errors(samples);
    if (!split.usable())
        return errors;
    for (std::size_t trained_on = 0; trained_on < 2; ++trained_on) {
        const auto fitted = fit(split.samples[trained_on]);
        for (const std::size_t i : split.samples[1 - trained_on])
            errors[i] = error(fitted, i);
    }
    return errors;
}

} // namespace kerncast::support
