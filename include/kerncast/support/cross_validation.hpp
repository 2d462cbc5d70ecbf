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

// The relative errors of the samples under the fit on the half that does not hold them.
struct HeldOutErrors {
    std::vector<std::optional<double>> by_sample; // nullopt: the split was not usable
    // tested[h]: the errors of the other half's samples under half h's fit, in split order.
    std::array<std::vector<double>, 2> tested;
    std::vector<double> all; // every sample's, in sample order (empty: not usable)
};

// `fit(training indices)` returns whatever `error(fitted, i)` needs to give sample i's relative
// error; each half is fitted once.
template <class Fit, class Error>
HeldOutErrors held_out_errors(const TwoFoldSplit& split, Fit&& fit, Error&& error) {
    HeldOutErrors out;
    out.by_sample.resize(split.samples[0].size() + split.samples[1].size());
    if (!split.usable())
        return out;
    for (std::size_t trained_on = 0; trained_on < 2; ++trained_on) {
        const auto fitted = fit(split.samples[trained_on]);
        for (const std::size_t i : split.samples[1 - trained_on]) {
            out.by_sample[i] = error(fitted, i);
            out.tested[trained_on].push_back(*out.by_sample[i]);
        }
    }
    for (const auto& e : out.by_sample)
        out.all.push_back(*e);
    return out;
}

} // namespace kerncast::support
