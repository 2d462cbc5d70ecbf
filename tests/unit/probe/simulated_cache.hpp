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
    int line_bytes = 128;     // what one tag covers
    int sector_bytes = 0;     // what one miss fetches (0 = the whole line)
    int ways = 0;             // 0 = fully associative
    bool hashed_sets = false; // set = XOR-fold of the line index (else its low bits)
    double hit_cycles = 33;
    double miss_cycles = 220;
    double noise_cycles = 2;   // uniform +-noise on every access
    double outlier_rate = 0.0; // fraction of accesses with a large extra delay
    std::uint32_t seed = 1;

    // The set of a line: its low digit in base set_count, or (hashed) the sum of all its
    // digits modulo set_count, which still places consecutive lines in consecutive sets but
    // spreads power-of-two strides over all sets (as NVIDIA's L1 does).
    std::int64_t set_of(std::int64_t line, std::int64_t set_count) const {
        if (!hashed_sets || set_count <= 1)
            return line % set_count;
        std::int64_t set = 0;
        for (std::int64_t rest = line; rest > 0; rest /= set_count)
            set += rest % set_count;
        return set % set_count;
    }

    // The second round of a fine-grained chase (thesis fig. 3.2) over array_bytes with
    // consecutive accesses stride_bytes apart, after a first round that filled the cache;
    // max_timings accesses are recorded. A hit needs the line's tag and the load's sector.
    std::vector<double> chase(std::int64_t array_bytes, int stride_bytes,
                              std::size_t max_timings = 1024) const {
        const std::int64_t lines = capacity_bytes / line_bytes;
        const std::int64_t set_count = ways == 0 ? 1 : lines / ways;
        const std::int64_t set_ways = ways == 0 ? lines : ways;
        const int sector = sector_bytes == 0 ? line_bytes : sector_bytes;
        struct Tag {
            std::int64_t line;
            std::uint64_t sectors; // bit k: sector k present
        };
        std::vector<std::list<Tag>> sets(static_cast<std::size_t>(set_count));
        const auto access = [&](std::int64_t address) {
            const std::int64_t line = address / line_bytes;
            const std::uint64_t bit = std::uint64_t{1} << ((address % line_bytes) / sector);
            auto& set = sets[static_cast<std::size_t>(set_of(line, set_count))];
            for (auto it = set.begin(); it != set.end(); ++it) {
                if (it->line == line) {
                    const bool hit = (it->sectors & bit) != 0;
                    it->sectors |= bit;
                    set.splice(set.begin(), set, it);
                    return hit;
                }
            }
            set.push_front({line, bit});
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
