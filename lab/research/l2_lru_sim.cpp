// Research tool, not part of kerncast's model: an LRU simulation of a whole GPU's caches (one
// L1 per SM and the shared L2) while it runs the published V100 stencil kernels of
// stencil_programs.hpp. It answers one question about the volume model's DRAM -> L2 terms
// (Ernst et al. 2023, sec. 4.4-4.5: layer conditions, and kerncast's redundant L2 loads, whose
// hit rate is one fitted curve of the whole wave's oversubscription): how much of the measured
// DRAM load volume do the caches' capacities explain when the order of every access is known?
//
// Schedule: blocks start in launch order (x fastest) at a steady rate, W = blocks per SM x SMs
// of them at once: block b starts at step b K / W, where K is a warp's step count, and runs K
// steps; in each step every warp of every running block issues its next `group` instructions
// (group=1: lockstep; a large group: each warp issues its whole program at once), blocks in
// launch order. Block b runs on SM (b mod W) mod SMs.
// L1 (per SM): `l1-bytes / 128` lines in sets of `l1-ways`, LRU, a valid bit per 32 B sector;
// loads that miss go to L2; stores are written through and allocate a line (kerncast's choice).
// L2: `l2-bytes / 128` lines in sets of `l2-ways`, LRU (or, with replacement=random, a random
// line of a full set), valid and dirty bits per sector; a load of an invalid sector is read
// from DRAM; a store makes its sector valid and dirty without a read (every store of these
// kernels writes whole sectors); an evicted dirty sector is written. Both caches place a line
// in a set by a hash of its address (random placement), or with placement=modulo by the line
// number modulo the sets (conflicts of addresses a power of two apart).
//
// Window: a warm-up of W blocks plus blocks whose unique sectors add up to twice the L2 ends at
// the middle block of the launch; the next `waves` x W blocks are measured (their requests'
// misses are counted); W blocks more keep the cache busy while the last measured ones run.
//
// Output, one line, bytes per interior point of the measured blocks: DRAM load of sectors that
// no block loaded before in the simulation (first touches, a lower bound), L2 -> L1 load, DRAM
// load, L1 -> L2 store, DRAM store (dirty evictions while measured blocks ran, per their points).
//
// Usage: l2_lru_sim star|box RANGE BX BY BZ FOLD_Z BLOCKS_PER_SM SMS L1_BYTES L1_WAYS
//                   L2_BYTES L2_WAYS [waves=8] [group=1] [replacement=lru|random]
//                   [placement=hash|modulo] [size=NXxNYxNZ]
// size: the arrays' elements per axis, ghost layers included (default the published size).
#include "stencil_programs.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using namespace research;

// Set-associative LRU cache of 128 B lines with valid and dirty bits per 32 B sector.
class Cache {
public:
    Cache(i64 lines, i64 ways, bool random = false, bool modulo = false)
        : ways_(ways), random_(random), modulo_(modulo) {
        sets_ = std::max<i64>(1, lines / ways);
        const auto n = static_cast<size_t>(sets_ * ways_);
        tag_.assign(n, -1);
        stamp_.assign(n, 0);
        valid_.assign(n, 0);
        dirty_.assign(n, 0);
    }
    // True on a hit of a valid sector. `dirty_evicted` receives the dirty sectors of an evicted
    // line.
    bool access(i64 sector, bool store, int& dirty_evicted) {
        dirty_evicted = 0;
        const i64 line = floor_div(sector, sectors_per_line);
        const auto bit = static_cast<unsigned char>(
            1u << static_cast<unsigned>(sector - line * sectors_per_line));
        const size_t base = static_cast<size_t>(
            static_cast<i64>((modulo_ ? static_cast<std::uint64_t>(line) : set_hash(line)) %
                             static_cast<std::uint64_t>(sets_)) *
            ways_);
        size_t victim = base;
        for (size_t i = base; i < base + static_cast<size_t>(ways_); ++i) {
            if (tag_[i] == line) {
                stamp_[i] = ++now_;
                const bool hit = (valid_[i] & bit) != 0;
                valid_[i] |= bit;
                if (store)
                    dirty_[i] |= bit;
                return hit;
            }
            if (stamp_[i] < stamp_[victim])
                victim = i;
        }
        if (random_ && tag_[victim] >= 0) {
            bool full = true;
            for (size_t i = base; i < base + static_cast<size_t>(ways_); ++i)
                full = full && tag_[i] >= 0;
            if (full) {
                rng_ = rng_ * 6364136223846793005ull + 1442695040888963407ull;
                victim =
                    base + static_cast<size_t>((rng_ >> 33) % static_cast<std::uint64_t>(ways_));
            }
        }
        if (tag_[victim] >= 0)
            dirty_evicted = __builtin_popcount(dirty_[victim]);
        tag_[victim] = line;
        stamp_[victim] = ++now_;
        valid_[victim] = bit;
        dirty_[victim] = store ? bit : 0;
        return false;
    }

private:
    i64 ways_ = 1, sets_ = 1;
    bool random_ = false;
    bool modulo_ = false;
    std::uint64_t rng_ = 1;
    std::uint64_t now_ = 0;
    std::vector<i64> tag_;
    std::vector<std::uint64_t> stamp_;
    std::vector<unsigned char> valid_, dirty_;
};

struct Running {
    i64 id = 0;    // launch index
    i64 start = 0; // step
    bool measured = false;
    i64 points = 0;
    std::vector<WarpProgram> warps;
};

int usage() {
    std::fprintf(stderr, "usage: l2_lru_sim star|box RANGE BX BY BZ FOLD_Z BLOCKS_PER_SM SMS "
                         "L1_BYTES L1_WAYS L2_BYTES L2_WAYS [waves=8] [group=1] "
                         "[replacement=lru|random] [placement=hash|modulo] [size=NXxNYxNZ]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 13 || argc > 17)
        return usage();
    Kernel k;
    if (!kernel_from_arguments(argv, k))
        return usage();
    const i64 blocks_per_sm = std::atoll(argv[7]), sms = std::atoll(argv[8]);
    const i64 l1_ways = std::atoll(argv[10]), l2_ways = std::atoll(argv[12]);
    const i64 l1_lines = std::atoll(argv[9]) / line_bytes / l1_ways * l1_ways;
    const i64 l2_bytes = std::atoll(argv[11]);
    const i64 l2_lines = l2_bytes / line_bytes / l2_ways * l2_ways;
    i64 measure_waves = 8, group = 1;
    bool random_replacement = false, modulo_placement = false;
    for (int i = 13; i < argc; ++i) {
        const std::string option = argv[i];
        if (option.rfind("waves=", 0) == 0)
            measure_waves = std::atoll(option.c_str() + 6);
        else if (option.rfind("group=", 0) == 0)
            group = std::atoll(option.c_str() + 6);
        else if (long long x = 0, y = 0, z = 0;
                 option.rfind("size=", 0) == 0 &&
                 std::sscanf(option.c_str() + 5, "%lldx%lldx%lld", &x, &y, &z) == 3 && x > 4 &&
                 y > 4 && z > 4)
            k.size = {x, y, z};
        else if (option == "replacement=random" || option == "replacement=lru")
            random_replacement = option == "replacement=random";
        else if (option == "placement=modulo" || option == "placement=hash")
            modulo_placement = option == "placement=modulo";
        else
            return usage();
    }
    if (k.range < 0 || k.block[0] < 1 || k.block[1] < 1 || k.block[2] < 1 || k.fold_z < 1 ||
        blocks_per_sm < 1 || sms < 1 || l1_ways < 1 || l2_ways < 1 || l1_lines < 1 ||
        l2_lines < 1 || measure_waves < 1 || group < 1)
        return usage();

    const auto interior = k.interior();
    const std::array<i64, 3> grid{
        (interior[0] + k.block[0] - 1) / k.block[0], (interior[1] + k.block[1] - 1) / k.block[1],
        (interior[2] + k.block[2] * k.fold_z - 1) / (k.block[2] * k.fold_z)};
    const i64 blocks = grid[0] * grid[1] * grid[2];
    const i64 wave = blocks_per_sm * sms;
    auto origin_of = [&](i64 b) {
        return std::array<i64, 3>{b % grid[0], (b / grid[0]) % grid[1], b / (grid[0] * grid[1])};
    };

    const i64 middle = blocks / 2;
    i64 unique_bytes = 0; // of the middle block
    {
        std::unordered_set<i64> sectors;
        for (const auto& warp : block_programs(k, origin_of(middle)))
            for (const auto& instruction : warp)
                sectors.insert(instruction.sectors.begin(), instruction.sectors.end());
        unique_bytes = static_cast<i64>(sectors.size()) * sector_bytes;
    }
    const i64 warm_up = wave + (2 * l2_bytes + unique_bytes - 1) / unique_bytes;
    const i64 first = std::max<i64>(0, middle - warm_up);
    const i64 measured_end = std::min(blocks, middle + measure_waves * wave);
    const i64 last = std::min(blocks, measured_end + wave);
    const i64 steps =
        (static_cast<i64>(block_programs(k, origin_of(middle))[0].size()) + group - 1) / group;

    std::vector<Cache> l1(static_cast<size_t>(sms),
                          Cache(l1_lines, l1_ways, false, modulo_placement));
    Cache l2(l2_lines, l2_ways, random_replacement, modulo_placement);
    std::deque<Running> running;
    i64 next = first;
    std::unordered_set<i64> seen;
    i64 dram_first = 0;
    i64 points = 0, l2_load = 0, dram_load = 0, l2_store = 0, dram_store = 0;
    for (i64 step = 0; next < last || !running.empty(); ++step) {
        while (next < last && (next - first) * steps / wave <= step) {
            Running block;
            block.id = next;
            block.start = step;
            block.measured = next >= middle && next < measured_end;
            block.warps = block_programs(k, origin_of(next), &block.points);
            if (block.measured)
                points += block.points;
            running.push_back(std::move(block));
            ++next;
        }
        const bool any_measured_running = std::any_of(running.begin(), running.end(),
                                                      [](const Running& r) { return r.measured; });
        for (Running& block : running) {
            const auto at = static_cast<size_t>(step - block.start);
            Cache& cache = l1[static_cast<size_t>(((block.id - first) % wave) % sms)];
            for (const auto& warp : block.warps) {
                for (size_t i = at * static_cast<size_t>(group);
                     i < std::min(warp.size(), (at + 1) * static_cast<size_t>(group)); ++i) {
                    const Instruction& instruction = warp[i];
                    for (const i64 sector : instruction.sectors) {
                        int evicted = 0;
                        const bool l1_hit = cache.access(sector, instruction.store, evicted);
                        if (!instruction.store && l1_hit)
                            continue;
                        const bool l2_hit = l2.access(sector, instruction.store, evicted);
                        if (!block.measured && !instruction.store)
                            seen.insert(sector);
                        if (any_measured_running)
                            dram_store += evicted;
                        if (!block.measured)
                            continue;
                        if (instruction.store) {
                            ++l2_store;
                        } else {
                            ++l2_load;
                            if (!l2_hit) {
                                ++dram_load;
                                if (seen.insert(sector).second)
                                    ++dram_first;
                            }
                        }
                    }
                }
            }
        }
        while (!running.empty() && step + 1 - running.front().start >= steps)
            running.pop_front();
    }
    const double per_point = static_cast<double>(sector_bytes) / static_cast<double>(points);
    std::printf(
        "%.4f %.4f %.4f %.4f %.4f\n", static_cast<double>(dram_first) * per_point,
        static_cast<double>(l2_load) * per_point, static_cast<double>(dram_load) * per_point,
        static_cast<double>(l2_store) * per_point, static_cast<double>(dram_store) * per_point);
    return 0;
}
