// Research tool, not part of kerncast's model: an exact LRU simulation of one SM's L1 while it
// runs the published V100 stencil kernels (data/published/v100-warpspeed). It answers one
// question about the volume model's L1 capacity term (Ernst et al. 2023, sec. 4.5, eq. (5)):
// how much of the measured L2 -> L1 volume can capacity misses explain at all, when every
// access's order is known and the cache evicts the least recently used 128 B line?
//
// The kernels are the ones of stencil_programs.hpp (written out independently of kerncast).
// Each fold instance ends with its store of dst (write-through; it allocates a line in L1
// only with --stores-allocate 1, the choice kerncast's O_L1 makes).
//
// The SM holds K blocks. They start staggered by 1/K of a block's duration, and each finished
// block is replaced by one at a random position of the grid (blocks on one SM are not grid
// neighbours, sec. 4.3). Generations 1 .. G-2 of every slot are measured, the first and last
// are warm-up and drain. Schedules: lockstep (every warp issues its next instruction in turn),
// random (a random resident warp issues next) and warp-major (a warp issues all of its
// instructions before the next warp starts). The L1 is LRU over `l1-bytes / 128` lines with
// a valid bit per 32 B sector: a load of an invalid sector is a 32 B request to L2.
//
// Output, one line: L2->L1 load bytes per point, compulsory bytes per point (first touches),
// then the repeated load sectors per point in 256 bins of their LRU stack distance (distinct
// lines used since the line's last use) in units of 1/32 of the L1's lines, the last bin
// holding everything from 8 capacities on.
//
// Usage: l1_lru_sim star|box RANGE BX BY BZ FOLD_Z BLOCKS_PER_SM L1_BYTES WAYS STORES_ALLOCATE
//                   lockstep|random|warp-major GENERATIONS [replacement=lru|random] [inflight=N]
// WAYS 0 is a fully associative L1. replacement=random evicts a random line of the set instead
// of its least recently used one. inflight=N keeps a missed sector in flight for N of the SM's
// warp instructions, and a request for it meanwhile goes to L2 again (no merging of misses).
#include "stencil_programs.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

using namespace research;

constexpr int distance_bins = 256; // 1/32 of the L1 each, up to 8 capacities

// LRU over lines with a valid bit per sector. `ways` lines per set (0: fully associative);
// a line's set is a hash of its address (random placement: NVIDIA does not document the L1's
// set mapping, and a plain modulo would tie the result to this grid's row pitch).
class LruL1 {
public:
    LruL1(i64 lines, i64 ways, bool random_replacement = false)
        : ways_(ways > 0 ? ways : lines), random_(random_replacement) {
        sets_.resize(static_cast<size_t>(std::max<i64>(1, lines / ways_)));
    }
    // The time (executed warp instructions of the SM) and how long a missed sector stays in
    // flight: a request for it before then misses again (no merging of in-flight misses).
    i64 now = 0;
    i64 inflight = 0;

    // True on a hit of a valid sector that has arrived. A miss allocates the line when
    // `allocate`.
    bool access(i64 sector, bool allocate) {
        const i64 line = floor_div(sector, sectors_per_line);
        const auto index = static_cast<unsigned>(sector - line * sectors_per_line);
        const unsigned bit = 1u << index;
        Set& set = sets_[sets_.size() == 1 ? 0 : set_hash(line) % sets_.size()];
        if (auto at = set.lines.find(line); at != set.lines.end()) {
            set.order.splice(set.order.begin(), set.order, at->second.position);
            const bool valid = (at->second.valid & bit) != 0;
            if (valid && at->second.arrives[index] > now)
                return false; // still in flight: a second request to L2
            if (!valid && allocate)
                at->second.arrives[index] = now + inflight;
            at->second.valid |= bit;
            return valid;
        }
        if (!allocate)
            return false;
        if (static_cast<i64>(set.lines.size()) >= ways_) {
            auto victim = std::prev(set.order.end()); // LRU, or a random line of the set
            if (random_)
                victim = std::next(set.order.begin(),
                                   std::uniform_int_distribution<i64>(0, ways_ - 1)(rng_));
            set.lines.erase(*victim);
            set.order.erase(victim);
        }
        set.order.push_front(line);
        Entry& entry = set.lines[line];
        entry = {set.order.begin(), bit};
        entry.arrives[index] = now + inflight;
        return false;
    }

private:
    struct Entry {
        std::list<i64>::iterator position;
        unsigned valid = 0;
        std::array<i64, sectors_per_line> arrives{}; // when each sector's fill arrives
    };
    struct Set {
        std::list<i64> order; // most recent first
        std::unordered_map<i64, Entry> lines;
    };
    i64 ways_;
    bool random_ = false;
    std::mt19937_64 rng_{7};
    std::vector<Set> sets_;
};

// LRU stack distance of each line use (distinct lines used since its previous use), with a
// Fenwick tree over use times holding a 1 at each line's latest use.
class StackDistance {
public:
    explicit StackDistance(size_t uses) : tree_(uses + 2, 0) {}
    // -1 for the first use of the line.
    i64 use(i64 line) {
        i64 distance = -1;
        if (auto at = last_use_.find(line); at != last_use_.end()) {
            distance = prefix(now_) - prefix(at->second);
            add(at->second, -1);
        }
        add(now_, 1);
        last_use_[line] = now_++;
        return distance;
    }

private:
    void add(i64 i, int v) {
        for (++i; i < static_cast<i64>(tree_.size()); i += i & -i)
            tree_[static_cast<size_t>(i)] += v;
    }
    i64 prefix(i64 i) const {
        i64 sum = 0;
        for (++i; i > 0; i -= i & -i)
            sum += tree_[static_cast<size_t>(i)];
        return sum;
    }
    std::vector<int> tree_;
    std::unordered_map<i64, i64> last_use_;
    i64 now_ = 0;
};

enum class Schedule { lockstep, random, warp_major };

struct Slot {
    std::vector<WarpProgram> warps;
    std::vector<size_t> next; // per warp, its next instruction
    size_t finished_warps = 0;
    size_t next_warp = 0; // warp-major: the warp that runs next
    i64 delay = 0;        // steps before the slot's first block starts
    int generation = 0;
};

int usage() {
    std::fprintf(stderr, "usage: l1_lru_sim star|box RANGE BX BY BZ FOLD_Z BLOCKS_PER_SM L1_BYTES "
                         "WAYS STORES_ALLOCATE lockstep|random|warp-major GENERATIONS "
                         "[replacement=lru|random] [inflight=N]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 13 || argc > 15)
        return usage();
    bool random_replacement = false;
    i64 inflight = 0;
    for (int i = 13; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "replacement=random" || option == "replacement=lru")
            random_replacement = option == "replacement=random";
        else if (option.rfind("inflight=", 0) == 0 && std::atoll(option.c_str() + 9) >= 0)
            inflight = std::atoll(option.c_str() + 9);
        else
            return usage();
    }
    Kernel k;
    if (!kernel_from_arguments(argv, k))
        return usage();
    const int blocks_per_sm = std::atoi(argv[7]);
    const i64 l1_lines = std::atoll(argv[8]) / line_bytes;
    const i64 ways = std::atoll(argv[9]);
    const bool stores_allocate = std::atoi(argv[10]) != 0;
    const std::string schedule_name = argv[11];
    const Schedule schedule = schedule_name == "lockstep" ? Schedule::lockstep
                              : schedule_name == "random" ? Schedule::random
                                                          : Schedule::warp_major;
    if (schedule == Schedule::warp_major && schedule_name != "warp-major")
        return usage();
    const int generations = std::atoi(argv[12]);
    if (k.range < 0 || k.block[0] < 1 || k.block[1] < 1 || k.block[2] < 1 || k.fold_z < 1 ||
        blocks_per_sm < 1 || l1_lines < 1 || ways < 0 || (ways > 0 && l1_lines % ways != 0) ||
        generations < 3)
        return usage();

    const i64 interior = k.star ? 596 : 15000 - 2 * k.range;
    const std::array<i64, 3> grid{interior / k.block[0], interior / k.block[1],
                                  k.star ? 508 / (k.block[2] * k.fold_z) : 1};
    std::mt19937_64 rng(1);
    auto start_block = [&](Slot& slot) {
        std::array<i64, 3> origin{};
        for (size_t d = 0; d < 3; ++d)
            origin[d] = std::uniform_int_distribution<i64>(0, std::max<i64>(grid[d], 1) - 1)(rng);
        slot.warps = block_programs(k, origin);
        slot.next.assign(slot.warps.size(), 0);
        slot.finished_warps = 0;
        slot.next_warp = 0;
    };

    std::vector<Slot> slots(static_cast<size_t>(blocks_per_sm));
    size_t uses = 0;
    for (size_t j = 0; j < slots.size(); ++j) {
        start_block(slots[j]);
        const size_t length =
            schedule == Schedule::warp_major ? slots[j].warps.size() : slots[j].warps[0].size();
        slots[j].delay = static_cast<i64>(length * j / slots.size());
        for (const auto& warp : slots[j].warps)
            for (const auto& instruction : warp)
                uses += instruction.sectors.size();
    }
    uses *= 2 * (static_cast<size_t>(generations) + 1); // positions vary the sector counts a little

    LruL1 l1(l1_lines, ways, random_replacement);
    l1.inflight = inflight;
    StackDistance distance(uses);
    i64 misses = 0, compulsory = 0, points = 0;
    std::vector<i64> histogram(distance_bins, 0);
    std::unordered_set<i64> touched;
    const i64 points_per_block = k.block[0] * k.block[1] * k.block[2] * k.fold_z;
    auto measured = [&](const Slot& slot) {
        return slot.generation >= 1 && slot.generation < generations - 1;
    };
    auto execute = [&](Slot& slot, const Instruction& instruction) {
        ++l1.now;
        for (const i64 sector : instruction.sectors) {
            const bool hit = l1.access(sector, !instruction.store || stores_allocate);
            const i64 d = distance.use(floor_div(sector, sectors_per_line));
            if (instruction.store || !measured(slot))
                continue;
            if (!hit)
                ++misses;
            if (touched.insert(sector).second)
                ++compulsory;
            else
                ++histogram[static_cast<size_t>(
                    d < 0 ? distance_bins - 1
                          : std::min<i64>(distance_bins - 1, d * 32 / l1_lines))];
        }
    };
    auto finish_warp = [&](Slot& slot) {
        if (++slot.finished_warps < slot.warps.size())
            return false;
        if (measured(slot))
            points += points_per_block;
        ++slot.generation;
        start_block(slot);
        return true;
    };
    auto all_done = [&] {
        return std::all_of(slots.begin(), slots.end(),
                           [&](const Slot& s) { return s.generation >= generations; });
    };

    while (!all_done()) {
        if (schedule == Schedule::random) {
            std::vector<std::pair<size_t, size_t>> ready;
            for (size_t j = 0; j < slots.size(); ++j) {
                if (slots[j].delay > 0) {
                    --slots[j].delay;
                    continue;
                }
                if (slots[j].generation >= generations)
                    continue;
                for (size_t w = 0; w < slots[j].warps.size(); ++w)
                    if (slots[j].next[w] < slots[j].warps[w].size())
                        ready.emplace_back(j, w);
            }
            for (size_t n = ready.size(); n > 0; --n) {
                const auto [j, w] =
                    ready[std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng)];
                Slot& slot = slots[j];
                if (slot.next[w] >= slot.warps[w].size())
                    continue;
                execute(slot, slot.warps[w][slot.next[w]]);
                if (++slot.next[w] == slot.warps[w].size() && finish_warp(slot))
                    break; // a new block: its warps join at the next step
            }
            continue;
        }
        for (Slot& slot : slots) {
            if (slot.delay > 0) {
                --slot.delay;
                continue;
            }
            if (slot.generation >= generations)
                continue;
            if (schedule == Schedule::warp_major) {
                for (const auto& instruction : slot.warps[slot.next_warp])
                    execute(slot, instruction);
                ++slot.next_warp;
                finish_warp(slot);
                continue;
            }
            bool new_block = false;
            for (size_t w = 0; w < slot.warps.size() && !new_block; ++w) {
                execute(slot, slot.warps[w][slot.next[w]]);
                if (++slot.next[w] == slot.warps[w].size())
                    new_block = finish_warp(slot);
            }
        }
    }
    const double per_point = static_cast<double>(sector_bytes) / static_cast<double>(points);
    std::printf("%.4f %.4f", static_cast<double>(misses) * per_point,
                static_cast<double>(compulsory) * per_point);
    for (const i64 count : histogram)
        std::printf(" %.5f", static_cast<double>(count) * per_point);
    std::printf("\n");
    return 0;
}
