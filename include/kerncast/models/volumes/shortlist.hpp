// The configurations worth measuring: given a ranked space's predicted times and the spread of
// the model's time errors across one kernel's configurations, the fewest leading
// configurations that contain the measured best with a stated confidence (docs/autotuning.md).
//
// Model of the errors: measured time = predicted time x b x exp(e), with b common to the
// space (a bias that does not change the order) and e independent, normal, of standard deviation
// `log_spread`. Configuration i (predicted t_i) measures faster than the predicted best (t_1)
// with probability p_i = Phi(-ln(t_i / t_1) / (log_spread * sqrt 2)). The measured best lies
// outside the first K only if some configuration after K beats the predicted best, so (union
// bound) P(best outside) <= sum over i > K of p_i: K is the smallest with that sum at most
// 1 - confidence.
#pragma once

#include <cstddef>
#include <vector>

namespace kerncast::models {

struct Shortlist {
    std::size_t size = 0;           // K: measure the first K configurations
    std::vector<double> beats_best; // p_i per configuration (1 for the predicted best)
    double outside_probability = 0; // the bound on P(the measured best is not among the K)
};

// `predicted_seconds` ascending (the ranking's order), all positive; log_spread > 0 and
// 0 < confidence < 1 (Usage Error otherwise). Empty input: an empty shortlist.
Shortlist shortlist(const std::vector<double>& predicted_seconds, double log_spread,
                    double confidence);

} // namespace kerncast::models
