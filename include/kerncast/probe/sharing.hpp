// Which caches are one physical cache (thesis 002, sec. 4.5) and how many instances of a
// cache an SM has (sec. 4.6), both from two-thread interference: a second chase that
// evicts the first one's lines shows up as misses in the first one's times.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kerncast::probe {

struct InterferenceOptions {
    double alpha = 0.01;                 // KS level
    double min_relative_increase = 0.05; // the mean must rise at least this much
};

struct SharingResult {
    bool shared = false;        // the two caches evict each other: one physical cache
    double reference_mean = 0;  // mean load time of cache A alone (cycles)
    double interfered_mean = 0; // mean load time of cache A after B's chase
    double relative_increase = 0;
    double p_value = 1; // KS reference vs interfered
};

// reference: fine-grained times of A's second round alone (array just below A's size);
// interfered: the same after a second thread filled B with an array just below B's size.
SharingResult infer_sharing(std::span<const double> reference, std::span<const double> interfered,
                            const InterferenceOptions& options = {});

struct CountPerSmResult {
    int count = 0;               // cache instances per SM
    std::vector<bool> disturbed; // per tested thread: shares the base thread's cache
    std::size_t disturbed_threads = 0;
    double agreement = 0; // fraction of threads in the class of their warp's majority
};

// Sec. 4.6: thread 0 and thread t (t = 1 .. T-1) chase private arrays in the same cache
// kind. disturbance[t-1] is thread 0's mean load time with thread t interfering;
// reference_mean is thread 0's mean alone. Threads that share thread 0's cache disturb it;
// with T threads spread evenly over c instances, T/c of them (thread 0 included) share it,
// so c = T / (1 + disturbed). A warp runs on one scheduler and so uses one instance:
// agreement checks that the classes come in whole warps (thesis fig. 4.21).
CountPerSmResult infer_count_per_sm(std::span<const double> disturbance, double reference_mean,
                                    const InterferenceOptions& options = {});

} // namespace kerncast::probe
