// Footprints of a group of threads: the distinct elements, and the distinct memory granules
// (e.g. 32 B sectors, 128 B lines) an access touches, as isl sets (Ernst et al. sec. 4:
// footprints of thread groups from address expressions).
#pragma once

#include "kerncast/analysis/kernel_analysis.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::analysis {

// A group of threads of one launch: one block (its coordinates), a range of linear thread
// ids inside it (threadIdx.x fastest: id = tx + Bx*(ty + By*tz)), and optionally fixed
// sequential or fold indices (fx, fy, fz; absent ones range over their whole loop).
struct ThreadGroup {
    std::array<std::int64_t, kernel::axis_count> block{0, 0, 0};
    std::int64_t first_thread = 0;
    std::int64_t end_thread = 1; // exclusive
    std::map<std::string, std::int64_t> fixed_indices;
};

// Warp `warp` (threads [warp*size, (warp+1)*size)) of block 0, sequential and fold indices
// fixed to the first iteration of `access` (the lexicographic minimum over block 0).
ThreadGroup first_iteration_warp(const KernelAnalysis& analysis, const AccessInfo& access,
                                 const std::vector<std::int64_t>& params, std::int64_t warp_size,
                                 std::int64_t warp = 0);
// All threads of block 0 over all sequential iterations.
ThreadGroup whole_block(const KernelAnalysis& analysis);

// The iterations of `access` that `group` executes at `params`: isl set text over
// access.domain_variables, without parameters.
std::string group_iterations(const KernelAnalysis& analysis, const AccessInfo& access,
                             const std::vector<std::int64_t>& params, const ThreadGroup& group);

struct GranuleFootprint {
    std::int64_t granule_bytes = 0;
    std::int64_t count = 0; // distinct granules
    std::string set;        // isl set of granule numbers (address / granule_bytes)
};

struct Footprint {
    std::int64_t accesses = 0; // executions of the access by the group
    std::int64_t elements = 0; // distinct elements
    std::string element_set;   // isl set of element byte addresses
    std::vector<GranuleFootprint> granules;
};

// Footprint of `access` for `group` at `params`; granule sizes in bytes (the machine's
// sector and line sizes). Throws an input Error for indirect (data-dependent) accesses.
Footprint footprint(const KernelAnalysis& analysis, const AccessInfo& access,
                    const std::vector<std::int64_t>& params, const ThreadGroup& group,
                    const std::vector<std::int64_t>& granule_bytes);

// Footprints of many accesses of one analysis at one parameter point, as the free functions
// above compute them, with one isl context: each access domain's restriction to a group is
// computed once, and accesses alike in domain, group, byte address and granules share one
// result (a generated kernel repeats `a[x]` in every statement). Not thread-safe.
class FootprintSession {
public:
    FootprintSession(const KernelAnalysis& analysis, std::vector<std::int64_t> params);
    ~FootprintSession();
    FootprintSession(const FootprintSession&) = delete;
    FootprintSession& operator=(const FootprintSession&) = delete;

    ThreadGroup first_iteration_warp(const AccessInfo& access, std::int64_t warp_size,
                                     std::int64_t warp = 0);
    Footprint footprint(const AccessInfo& access, const ThreadGroup& group,
                        const std::vector<std::int64_t>& granule_bytes);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The union footprint of every access to `array` (only those in `direction` when given) for
// `group`: what a cache shared by the group must hold (Ernst et al. 4.3, "unique memory
// footprint"). `accesses` is the total number of executions.
Footprint array_footprint(const KernelAnalysis& analysis, const std::string& array,
                          const std::vector<std::int64_t>& params, const ThreadGroup& group,
                          const std::vector<std::int64_t>& granule_bytes,
                          std::optional<Direction> direction = std::nullopt);

} // namespace kerncast::analysis
