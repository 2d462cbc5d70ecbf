// A simulated TLB hierarchy driven by the probe's TLB chase (one load per stride, sequential,
// cyclic; chain_layout.hpp's element offsets): the synthetic "GPU" the TLB analysis is tested
// against, with known levels, page size and miss penalties.
//
// For a sequential cyclic walk over N distinct pages, an LRU level of E entries (fully
// associative) hits every page after the warm round when N <= E and misses every page change
// when N > E (each page's reuse distance is N - 1). The simulation uses that closed form
// instead of simulating LRU stacks, so curves over 10^5 pages stay cheap; a set-associative
// level is modelled by `ramp_pages`: between E and E + ramp pages, a page change misses with
// probability (N - E) / ramp.
#pragma once

#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/raw_series.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace kerncast::probe::testing {

struct SimulatedTlbLevel {
    std::int64_t entries = 16;
    double miss_cycles = 100; // extra cycles when this level misses
    std::int64_t ramp_pages = 0;
};

struct SimulatedTlb {
    std::int64_t page_bytes = 2 << 20;
    std::vector<SimulatedTlbLevel> levels{{16, 100, 0}};
    double hit_cycles = 260;   // an L2 data hit with every translation cached
    double noise_cycles = 2;   // uniform +- noise per load
    double outlier_rate = 0.0; // loads with 1000 extra cycles (interrupts)
    std::uint32_t seed = 1;

    // Round 2 of the TLB chase over `footprint_bytes` with one load per `stride_bytes`.
    std::vector<double> chase(std::int64_t stride_bytes, std::int64_t footprint_bytes,
                              std::size_t measure_count = 256) const {
        const auto stride = static_cast<std::uint64_t>(stride_bytes);
        const std::uint64_t count = std::max<std::int64_t>(1, footprint_bytes / stride_bytes);
        const auto page_of = [&](std::uint64_t k) {
            return chain::tlb_element_offset(k % count, stride) /
                   static_cast<std::uint64_t>(page_bytes);
        };
        // Distinct pages of the footprint (page_of never decreases along the chain).
        std::int64_t pages = 1;
        for (std::uint64_t k = 1; k < count; ++k)
            pages += page_of(k) != page_of(k - 1);
        std::mt19937 rng(seed + static_cast<std::uint32_t>(footprint_bytes / 4096) +
                         static_cast<std::uint32_t>(stride_bytes));
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        std::vector<double> timings;
        for (std::size_t k = 0; k < measure_count; ++k) {
            double t = hit_cycles;
            // A load touches a new page when its element's page differs from the previous
            // element's (the chase is a cycle: element 0 follows element count-1).
            const std::uint64_t here = page_of(k);
            const std::uint64_t before = page_of(k == 0 ? count - 1 : k - 1);
            if (here != before) {
                for (const auto& level : levels) {
                    bool miss = false;
                    if (pages > level.entries + level.ramp_pages)
                        miss = true;
                    else if (pages > level.entries)
                        miss = unit(rng) < static_cast<double>(pages - level.entries) /
                                               static_cast<double>(level.ramp_pages);
                    if (!miss)
                        break;
                    t += level.miss_cycles;
                }
            }
            t += noise_cycles * (2 * unit(rng) - 1);
            if (unit(rng) < outlier_rate)
                t += 1000;
            timings.push_back(std::round(t));
        }
        return timings;
    }
};

} // namespace kerncast::probe::testing
