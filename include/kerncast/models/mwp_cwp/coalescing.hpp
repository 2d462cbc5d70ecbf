// Memory transactions of one warp's global-memory access under a GPU's coalescing rule: the
// input #Uncoal_per_mw and the coalesced/uncoalesced split of Hong & Kim 2009 (sec. 3.4.5,
// Table 1 rows 19-20, Table 3). Pure: lane byte addresses in, transactions out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::models::mwp_cwp {

// The rule a compute capability follows (CUDA C Programming Guide 3.x, appendix G.3.2 and
// G.4.2, "Global Memory").
enum class CoalescingRule {
    half_warp_strict,   // CC 1.0, 1.1: per half-warp, the k-th thread the k-th word of an aligned
                        // segment: one transaction (two for 16-byte words), else one per thread
    half_warp_segments, // CC 1.2, 1.3: per half-warp, 32/64/128 B segments, each used segment
                        // one transaction (halved while only one half is used)
    warp_sectors,       // CC >= 2.0: per warp, one 32 B sector request per distinct sector
                        // (128 B lines of 4 sectors in L1)
};

// "CC 1.0/1.1 half-warp rule" ...
std::string to_string(CoalescingRule rule);

// The rule of compute capability major.minor; an input Error for CC < 1.0.
CoalescingRule coalescing_rule(int cc_major, int cc_minor);

struct WarpTransactions {
    std::int64_t transactions = 0;      // memory transactions (segments or sectors) of the warp
    std::int64_t lines = 0;             // distinct 128 B lines (the L1 line of CC >= 2.0)
    std::int64_t sectors = 0;           // distinct 32 B sectors
    std::int64_t transferred_bytes = 0; // bytes the transactions move
    // The fewest transactions the rule allows for these lanes' bytes: every half-warp (warp,
    // CC >= 2.0) one segment (the minimum sectors of its distinct bytes). Hong & Kim use the
    // coalesced model only then (sec. 3.4.5, footnote 8).
    bool coalesced = false;
};

// Transactions of one warp executing one access of `element_bytes`-byte elements; lane i (0 ..
// lanes - 1) reads or writes the element at byte address lane_addresses[i]. Up to 32 lanes (a
// partial last warp has fewer); every lane is active.
WarpTransactions warp_transactions(CoalescingRule rule,
                                   const std::vector<std::int64_t>& lane_addresses,
                                   int element_bytes);

} // namespace kerncast::models::mwp_cwp
