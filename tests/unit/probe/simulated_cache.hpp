// A simulated set-associative LRU cache driven by a pointer chase: the synthetic "GPU" that
// the probe's host-side algorithms are tested against (known size, line size, latencies).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <list>
#include <random>
#include <vector>

namespace kerncast::probe::testing {

struct SimulatedCache {
    std::int64_t capacity_bytes = 24 * 1024;
    int line_bytes = 128;
    int ways = 0; // 0 = fully associative
    double hit_cycles = 33;
    double miss_cycles = 220;
    double noise_cycles = 2;   // uniform +-noise on every access
    double outlier_rate = 0.0; // fraction of accesses with a large extra delay
    std::uint32_t seed = 1;

    // The second round of a fine-grained chase (thesis fig. 3.2) over array_bytes with
    // consecutive accesses stride_bytes apart, after a first round that filled the cache;
    // max_timings accesses are recorded.
    std::vector<double> chase(std::int64_t array_bytes, int stride_bytes,
                              std::size_t max_timings = 1024) const {
        const std::int64_t lines = capacity_bytes / line_bytes;
        const std::int64_t set_count = ways == 0 ? 1 : lines / ways;
        const std::int64_t set_ways = ways == 0 ? lines : ways;
        std::vector<std::list<std::int64_t>> sets(static_cast<std::size_t>(set_count));
        const auto access = [&](std::int64_t address) {
            const std::int64_t line = address / line_bytes;
            auto& set = sets[static_cast<std::size_t>(line % set_count)];
            for (auto it = set.begin(); it != set.end(); ++it) {
                if (*it == line) {
                    set.splice(set.begin(), set, it);
                    return true;
                }
            }
            set.push_front(line);
            if (static_cast<std::int64_t>(set.size()) > set_ways)
                set.pop_back();
            return false;
        };
        std::mt19937 rng(seed + static_cast<std::uint32_t>(array_bytes));
        std::uniform_real_distribution<double> noise(-noise_cycles, noise_cycles);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (std::int64_t a = 0; a < array_bytes; a += stride_bytes)
            access(a);
        std::vector<double> timings;
        // The chase is a cycle: round 2 records max_timings accesses, wrapping around the
        // array when it holds fewer elements (as the device kernel does).
        const std::int64_t elements = std::max<std::int64_t>(1, array_bytes / stride_bytes);
        for (std::int64_t k = 0; static_cast<std::size_t>(k) < max_timings; ++k) {
            const std::int64_t a = (k % elements) * stride_bytes;
            double t = access(a) ? hit_cycles : miss_cycles;
            t += noise(rng);
            if (unit(rng) < outlier_rate)
                t += 1000;
            timings.push_back(std::round(t)); // clock64 differences are whole cycles
        }
        return timings;
    }
};

} // namespace kerncast::probe::testing
