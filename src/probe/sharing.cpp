#include "kerncast/probe/sharing.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/kolmogorov_smirnov.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace kerncast::probe {

SharingResult infer_sharing(std::span<const double> reference, std::span<const double> interfered,
                            const InterferenceOptions& options) {
    SharingResult result;
    result.reference_mean = mean(reference);
    result.interfered_mean = mean(interfered);
    result.relative_increase =
        (result.interfered_mean - result.reference_mean) / std::max(1e-9, result.reference_mean);
    const KsTestResult test = ks_two_sample_test(reference, interfered, options.alpha);
    result.p_value = test.p_value;
    result.shared = test.reject && result.relative_increase >= options.min_relative_increase;
    return result;
}

CountPerSmResult infer_count_per_sm(std::span<const double> disturbance, double reference_mean,
                                    const InterferenceOptions& options) {
    KERNCAST_CHECK(!disturbance.empty(), "count per SM needs at least two threads");
    CountPerSmResult result;
    const double threshold = reference_mean * (1.0 + options.min_relative_increase);
    for (double d : disturbance)
        result.disturbed.push_back(d > threshold);
    result.disturbed_threads = static_cast<std::size_t>(
        std::count(result.disturbed.begin(), result.disturbed.end(), true));
    const double threads = static_cast<double>(disturbance.size() + 1);
    const double sharing = static_cast<double>(result.disturbed_threads + 1);
    result.count = std::max(1, static_cast<int>(std::lround(threads / sharing)));
    // A warp runs on one scheduler, so all 32 threads of a warp (thread 0's warp included)
    // must fall in one class; agreement = fraction of threads that match their warp's
    // majority. Low agreement means noise decided the classes, not the hardware.
    std::size_t matches = 0;
    const std::size_t threads_total = disturbance.size() + 1;
    for (std::size_t warp_begin = 0; warp_begin < threads_total; warp_begin += 32) {
        const std::size_t warp_end = std::min(threads_total, warp_begin + 32);
        std::size_t yes = 0;
        std::size_t counted = 0;
        for (std::size_t thread = std::max<std::size_t>(1, warp_begin); thread < warp_end;
             ++thread, ++counted)
            yes += result.disturbed[thread - 1];
        if (warp_begin == 0)
            ++yes, ++counted; // thread 0 shares its own cache
        matches += std::max(yes, counted - yes);
    }
    result.agreement = static_cast<double>(matches) / static_cast<double>(threads_total);
    return result;
}

} // namespace kerncast::probe
