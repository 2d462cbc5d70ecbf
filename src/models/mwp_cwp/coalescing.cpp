// Coalescing rules of the CUDA C Programming Guide 3.x, appendix G ("Compute Capability 1.x",
// sec. G.3.2, and "Compute Capability 2.x", sec. G.4.2), as Hong & Kim 2009 sec. 3.4.5 uses them.
#include "kerncast/models/mwp_cwp/coalescing.hpp"

#include "kerncast/error.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace kerncast::models::mwp_cwp {

std::string to_string(CoalescingRule rule) {
    switch (rule) {
    case CoalescingRule::half_warp_strict:
        return "CC 1.0/1.1 half-warp rule";
    case CoalescingRule::half_warp_segments:
        return "CC 1.2/1.3 half-warp segments";
    case CoalescingRule::warp_sectors:
        return "CC 2.0+ 128 B lines / 32 B sectors";
    }
    return "?";
}

CoalescingRule coalescing_rule(int cc_major, int cc_minor) {
    if (cc_major < 1)
        throw_input_error(fmt::format("compute capability {}.{} has no coalescing rule; the "
                                      "machine file must state compute_capability",
                                      cc_major, cc_minor));
    if (cc_major == 1)
        return cc_minor <= 1 ? CoalescingRule::half_warp_strict
                             : CoalescingRule::half_warp_segments;
    return CoalescingRule::warp_sectors;
}

namespace {

constexpr int half_warp = 16;

using support::floor_div;

// G.3.2.1 (CC 1.0, 1.1): the threads of a half-warp must access 4-, 8- or 16-byte words, the
// k-th thread the k-th word of a segment aligned to 16 words; then one 64 B (4-byte words), one
// 128 B (8-byte) or two 128 B (16-byte) transactions, else one transaction per thread.
void strict_half_warp(const std::int64_t* lane, int lanes, int bytes, WarpTransactions& out,
                      bool& all_coalesced) {
    const bool word = bytes == 4 || bytes == 8 || bytes == 16;
    const std::int64_t segment = std::int64_t{half_warp} * bytes;
    bool coalesced = word && lane[0] % segment == 0;
    for (int k = 1; coalesced && k < lanes; ++k)
        coalesced = lane[k] == lane[0] + std::int64_t{k} * bytes;
    if (coalesced) {
        const int count = bytes == 16 ? 2 : 1;
        out.transactions += count;
        out.transferred_bytes += segment;
    } else {
        // One transaction per thread, of at least 32 B (the smallest a 1.x GPU moves).
        out.transactions += lanes;
        out.transferred_bytes += std::int64_t{lanes} * std::max(32, bytes);
        all_coalesced = false;
    }
}

// G.3.2.2 (CC 1.2, 1.3): the segment of the lowest-numbered remaining thread (32 B for 1-byte
// words, 64 B for 2-byte, 128 B for 4- and 8-byte), every thread in it served together, the
// segment halved while only its lower or upper half is used (down to 32 B); repeated until
// every thread is served. 16-byte words: per quarter-warp... as two 8-byte halves, i.e. the
// 128 B segment rule over the words' bytes.
void segment_half_warp(const std::int64_t* lane, int lanes, int bytes, WarpTransactions& out,
                       bool& all_coalesced) {
    const std::int64_t segment = bytes == 1 ? 32 : bytes == 2 ? 64 : 128;
    std::vector<bool> served(static_cast<std::size_t>(lanes), false);
    int transactions = 0;
    for (int first = 0; first < lanes; ++first) {
        if (served[static_cast<std::size_t>(first)])
            continue;
        const std::int64_t base = floor_div(lane[first], segment) * segment;
        std::int64_t low = base + segment, high = base; // used byte range [low, high)
        for (int k = first; k < lanes; ++k) {
            if (floor_div(lane[k], segment) * segment != base)
                continue;
            served[static_cast<std::size_t>(k)] = true;
            low = std::min(low, lane[k]);
            high = std::max(high, std::min(lane[k] + bytes, base + segment));
        }
        std::int64_t size = segment, start = base;
        while (size > 32) {
            const std::int64_t half = size / 2;
            if (high <= start + half)
                size = half;
            else if (low >= start + half)
                start += half, size = half;
            else
                break;
        }
        ++transactions;
        out.transferred_bytes += size;
        // A word wider than what is left of the segment spills into the next one.
        if (lane[first] + bytes > base + segment)
            ++transactions, out.transferred_bytes += 32;
    }
    out.transactions += transactions;
    if (transactions > (bytes == 16 ? 2 : 1))
        all_coalesced = false;
}

} // namespace

WarpTransactions warp_transactions(CoalescingRule rule,
                                   const std::vector<std::int64_t>& lane_addresses,
                                   int element_bytes) {
    KERNCAST_CHECK(!lane_addresses.empty() && lane_addresses.size() <= 32,
                   "a warp has 1 to 32 lanes");
    KERNCAST_CHECK(element_bytes > 0, "element size must be positive");
    WarpTransactions out;
    std::set<std::int64_t> lines, sectors, words;
    for (const std::int64_t a : lane_addresses) {
        for (std::int64_t b = floor_div<std::int64_t>(a, 32) * 32; b < a + element_bytes; b += 32)
            sectors.insert(b);
        for (std::int64_t b = floor_div<std::int64_t>(a, 128) * 128; b < a + element_bytes;
             b += 128)
            lines.insert(b);
        words.insert(a);
    }
    out.lines = static_cast<std::int64_t>(lines.size());
    out.sectors = static_cast<std::int64_t>(sectors.size());
    const int lanes = static_cast<int>(lane_addresses.size());
    bool all_coalesced = true;
    switch (rule) {
    case CoalescingRule::half_warp_strict:
    case CoalescingRule::half_warp_segments:
        for (int start = 0; start < lanes; start += half_warp) {
            const int count = std::min(half_warp, lanes - start);
            if (rule == CoalescingRule::half_warp_strict)
                strict_half_warp(lane_addresses.data() + start, count, element_bytes, out,
                                 all_coalesced);
            else
                segment_half_warp(lane_addresses.data() + start, count, element_bytes, out,
                                  all_coalesced);
        }
        break;
    case CoalescingRule::warp_sectors: {
        // G.4.2: one request per distinct 32 B sector (L2 and DRAM work in sectors; an L1 line
        // is 4 of them). Coalesced: no more sectors than the distinct bytes need.
        out.transactions = out.sectors;
        out.transferred_bytes = out.sectors * 32;
        const std::int64_t distinct_bytes = static_cast<std::int64_t>(words.size()) * element_bytes;
        all_coalesced = out.sectors <= (distinct_bytes + 31) / 32;
        break;
    }
    }
    out.coalesced = all_coalesced;
    return out;
}

} // namespace kerncast::models::mwp_cwp
