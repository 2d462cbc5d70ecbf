#include "kerncast/models/volumes/shortlist.hpp"

#include "kerncast/error.hpp"

#include <cmath>
#include <string>

namespace kerncast::models {

Shortlist shortlist(const std::vector<double>& predicted_seconds, double log_spread,
                    double confidence) {
    if (!(log_spread > 0) || !std::isfinite(log_spread))
        throw_usage_error("the error spread must be a positive number, got " +
                          std::to_string(log_spread));
    if (!(confidence > 0 && confidence < 1))
        throw_usage_error("the shortlist's confidence must lie strictly between 0 and 1, got " +
                          std::to_string(confidence));
    Shortlist result;
    if (predicted_seconds.empty())
        return result;
    const double best = predicted_seconds.front();
    KERNCAST_CHECK(best > 0, "predicted times are positive");
    result.beats_best.reserve(predicted_seconds.size());
    for (std::size_t i = 0; i < predicted_seconds.size(); ++i) {
        KERNCAST_CHECK(i == 0 || predicted_seconds[i] >= predicted_seconds[i - 1],
                       "predicted times ascending");
        // Phi(-x) = erfc(x / sqrt 2) / 2 with x = ln(t_i / t_1) / (spread sqrt 2).
        const double x = std::log(predicted_seconds[i] / best) / (log_spread * std::sqrt(2.0));
        result.beats_best.push_back(i == 0 ? 1.0 : 0.5 * std::erfc(x / std::sqrt(2.0)));
    }
    // The smallest K whose tail (i >= K) sums to at most 1 - confidence.
    double tail = 0;
    std::size_t size = predicted_seconds.size();
    while (size > 1 && tail + result.beats_best[size - 1] <= 1 - confidence) {
        tail += result.beats_best[size - 1];
        --size;
    }
    result.size = size;
    result.outside_probability = tail;
    return result;
}

} // namespace kerncast::models
