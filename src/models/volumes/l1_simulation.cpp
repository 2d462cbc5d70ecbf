#include "kerncast/models/volumes/l1_simulation.hpp"

#include "kerncast/error.hpp"
#include "kerncast/support/hash.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace kerncast::models {

namespace {

bool in_sequential_loop(const analysis::KernelAnalysis& analysis,
                        const analysis::AccessInfo& access) {
    for (const auto& name : access.domain_variables)
        for (const auto& variable : analysis.variables)
            if (variable.name == name &&
                variable.kind == analysis::LaunchVariable::Kind::sequential)
                return true;
    return false;
}

// The L1's set of a line is a hash of its address (random placement).
using support::splitmix64_hash;

// A line of one block copy's array.
struct LineKey {
    std::int64_t copy = 0;
    std::int64_t array = 0;
    std::int64_t line = 0;
    bool operator==(const LineKey&) const = default;
};

// The set bits of `bits` (std::popcount, which is a library call where the target has no
// population count instruction).
int bit_count(unsigned bits) {
    bits = bits - ((bits >> 1) & 0x55555555u);
    bits = (bits & 0x33333333u) + ((bits >> 2) & 0x33333333u);
    return static_cast<int>((((bits + (bits >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

// The hash of a line: of its block copy and array first, then of the line; the simulation
// keeps the first part per block copy and array, so that a look-up hashes once.
std::uint64_t copy_array_hash(std::int64_t copy, std::int64_t array) {
    return splitmix64_hash(static_cast<std::uint64_t>(copy) * 64 +
                           static_cast<std::uint64_t>(array));
}

size_t line_hash(std::uint64_t copy_array, std::int64_t line) {
    return static_cast<size_t>(splitmix64_hash(static_cast<std::uint64_t>(line) ^ copy_array));
}

struct LineKeyHash {
    size_t operator()(const LineKey& k) const {
        return line_hash(copy_array_hash(k.copy, k.array), k.line);
    }
};

// What an L1 look-up found: the sectors of the request that were not valid (misses), and when
// the line last missed (now, if it misses now).
struct LineAccess {
    unsigned missing = 0;
    double last_miss_cycle = 0;
};

// A hit on a cached line (any struct with `valid` sector bits and `last_miss_cycle`): the
// requested sectors not valid yet are filled, from L2 when `fetch`.
template <class CachedLine>
LineAccess hit(CachedLine& line, unsigned sector_bits, double now, bool fetch) {
    const unsigned missing = sector_bits & ~line.valid;
    line.valid |= sector_bits;
    if (missing && fetch)
        line.last_miss_cycle = now;
    return {missing, line.last_miss_cycle};
}

// The three L1s below are LRU sets of lines with a valid bit per sector and give the same
// answers. set_of(): the set of a line by its hash (LineKeyHash of its key), asking the host's
// caches for it ahead of the look-up. access(): the sectors of `sector_bits` that were not valid
// in L1 (misses); they are filled, the line allocated when absent. `hash`: LineKeyHash of `key`,
// `set` its set_of(). `now`: the SM's clock;
// `fetch`: the missing sectors come from L2 (a load), so the line's last miss is now (a store
// writes them instead).

// The sets SmallSetL1 keeps: per set a run of words, `header` of them (its ways' order of use,
// then the count of ways in use) and then each way's key hash, and the ways' lines.
class HashedWays {
public:
    static constexpr size_t header = 2;
    explicit HashedWays(const L1Geometry& g)
        : ways_(static_cast<size_t>(g.ways)), sets_(static_cast<size_t>(g.lines / g.ways)),
          set_of_(sets_), words_(sets_ * (header + ways_)), lines_(static_cast<size_t>(g.lines)) {}

    size_t set_of(size_t hash) const {
        const size_t set = set_of_(hash);
        __builtin_prefetch(&words_[set * (header + ways_)]);
        __builtin_prefetch(&lines_[set * ways_]);
        return set;
    }

protected:
    struct Line {
        LineKey key;
        unsigned valid = 0;
        double last_miss_cycle = 0;
    };
    std::uint64_t* words(size_t set) { return &words_[set * (header + ways_)]; }
    Line* lines(size_t set) { return &lines_[set * ways_]; }
    static unsigned used(const std::uint64_t* words) {
        return static_cast<unsigned>(words[header - 1]);
    }
    // The way holding `key` (whose hash is `hash`) of the set of words `w` and lines `l`, or -1.
    static int find(const std::uint64_t* w, const Line* l, size_t hash, const LineKey& key) {
        const unsigned in_use = used(w);
        for (unsigned way = 0; way < in_use; ++way)
            if (w[header + way] == hash && l[way].key == key)
                return static_cast<int>(way);
        return -1;
    }
    // Puts `key` in way `victim` of that set, counting it in use when it is the next unused.
    static LineAccess fill(std::uint64_t* w, Line* l, unsigned victim, const LineKey& key,
                           size_t hash, unsigned sector_bits, double now, bool fetch) {
        if (victim == used(w))
            w[header - 1] = victim + 1;
        const double missed_at = fetch ? now : std::numeric_limits<double>::lowest();
        w[header + victim] = hash;
        l[victim] = Line{key, sector_bits, missed_at};
        return {sector_bits, missed_at};
    }
    size_t ways_;

private:
    size_t sets_;
    support::Remainder set_of_;        // hash % sets
    std::vector<std::uint64_t> words_; // per set: the header, then each way's hash
    std::vector<Line> lines_;          // set s holds ways [s * ways, (s + 1) * ways)
};

// Sets of up to 4 ways (Hopper's L1), each set one 128-byte record of two cache lines: the
// ways' line keys and last uses (a count of look-ups, all distinct, so the least recent is
// unique) in the first, their valid sectors and last misses in the second. A look-up compares
// the keys, stamps the way it uses, and on a miss fills the next unused way or else the least
// recently used. A key is the block copy, array and line packed into 64 bits (fits_packed_keys),
// so one comparison finds a line; the set is chosen by the line's hash as in the other L1s,
// which give the same answers. With few ways cheaper than keeping an order of use, which wider
// sets (the V100's 16 ways, more misses) keep instead.
class FewWaysL1 {
public:
    static constexpr std::int64_t max_ways = 4;
    // Packed keys: the line less the lowest line in 38 bits, the array in 6, the copy in 20.
    static constexpr int line_bits = 38, array_bits = 6, copy_bits = 20;
    static bool fits_packed_keys(std::int64_t copies, size_t arrays, std::int64_t line_span) {
        return copies <= (std::int64_t{1} << copy_bits) && arrays <= (size_t{1} << array_bits) &&
               line_span < (std::int64_t{1} << line_bits);
    }
    FewWaysL1(const L1Geometry& g, std::int64_t lowest_line)
        : ways_(static_cast<unsigned>(g.ways)), set_of_(static_cast<size_t>(g.lines / g.ways)),
          sets_(static_cast<size_t>(g.lines / g.ways)), lowest_line_(lowest_line) {}

    size_t set_of(size_t hash) const {
        const size_t set = set_of_(hash);
        __builtin_prefetch(&sets_[set]);
        __builtin_prefetch(&sets_[set].valid);
        return set;
    }

    LineAccess access(const LineKey& key, size_t /*hash*/, size_t set_index, unsigned sector_bits,
                      double now, bool fetch) {
        Set& set = sets_[set_index];
        const std::uint64_t packed = static_cast<std::uint64_t>(key.copy)
                                         << (line_bits + array_bits) |
                                     static_cast<std::uint64_t>(key.array) << line_bits |
                                     static_cast<std::uint64_t>(key.line - lowest_line_);
        for (unsigned way = 0; way < set.used; ++way)
            if (set.key[way] == packed) {
                set.last_use[way] = ++clock_;
                const unsigned missing = sector_bits & ~set.valid[way];
                set.valid[way] |= sector_bits;
                if (missing && fetch)
                    set.last_miss_cycle[way] = now;
                return {missing, set.last_miss_cycle[way]};
            }
        unsigned victim = set.used;
        if (victim == ways_) {
            // The least recent, without branches (a miss's victim is unpredictable): the first
            // way of the smallest count, as the counts are distinct.
            victim = 0;
            std::uint64_t oldest = set.last_use[0];
            for (unsigned way = 1; way < ways_; ++way) {
                const bool older = set.last_use[way] < oldest;
                oldest = older ? set.last_use[way] : oldest;
                victim = older ? way : victim;
            }
        } else {
            ++set.used;
        }
        const double missed_at = fetch ? now : std::numeric_limits<double>::lowest();
        set.key[victim] = packed;
        set.last_use[victim] = ++clock_;
        set.valid[victim] = sector_bits;
        set.last_miss_cycle[victim] = missed_at;
        return {sector_bits, missed_at};
    }

private:
    struct alignas(128) Set {
        std::uint64_t key[max_ways] = {};      // the ways in use: [0, used)
        std::uint64_t last_use[max_ways] = {}; // look-up count at the way's last use
        unsigned valid[max_ways] = {};         // sector bits
        double last_miss_cycle[max_ways] = {};
        unsigned used = 0;
    };
    unsigned ways_;
    support::Remainder set_of_; // hash % sets
    std::vector<Set> sets_;
    std::int64_t lowest_line_;
    std::uint64_t clock_ = 0; // look-ups so far
};

// Sets of up to 16 ways, each set's ways in order of use packed into one 64-bit word (4 bits a
// way, the most recent lowest) before the count of ways in use: a look-up scans the hashes,
// moves the way it uses to the front of the order, and on a miss fills the next unused way or
// else the last of the order.
class SmallSetL1 : public HashedWays {
public:
    static constexpr std::int64_t max_ways = 16;
    explicit SmallSetL1(const L1Geometry& g) : HashedWays(g) {}

    LineAccess access(const LineKey& key, size_t hash, size_t set, unsigned sector_bits, double now,
                      bool fetch) {
        std::uint64_t* const w = words(set);
        Line* const l = lines(set);
        std::uint64_t& order = w[0];
        if (const int way = find(w, l, hash, key); way >= 0) {
            order = to_front(order, static_cast<unsigned>(way));
            return hit(l[way], sector_bits, now, fetch);
        }
        unsigned victim = used(w);
        if (victim < ways_) {
            order = order << 4 | victim;
        } else {
            victim = static_cast<unsigned>(order >> (4 * (ways_ - 1)) & 15); // least recent
            order = to_front(order, victim);
        }
        return fill(w, l, victim, key, hash, sector_bits, now, fetch);
    }

private:
    // The order with `way`, which it holds, moved to the front (the lowest 4 bits).
    static std::uint64_t to_front(std::uint64_t order, unsigned way) {
        // The first 4-bit field equal to `way`: the lowest zero field of order ^ way-in-every-
        // field (the lowest flagged field of this zero test is exact).
        const std::uint64_t x = order ^ (std::uint64_t{way} * 0x1111111111111111ull);
        const std::uint64_t zero = (x - 0x1111111111111111ull) & ~x & 0x8888888888888888ull;
        const int shift = std::countr_zero(zero) - 3; // 4 x the field's position
        if (shift == 0)
            return order;
        const std::uint64_t below = order & ((std::uint64_t{1} << shift) - 1);
        const std::uint64_t above = shift + 4 < 64 ? order >> (shift + 4) << (shift + 4) : 0;
        return above | below << 4 | way;
    }
};

// Sets of any width: each set a doubly linked list of its slots, most recently used first, so
// reordering and evicting cost O(1); a look-up scans the set's key hashes (up to 32 ways) or,
// for wider sets, an index of every line.
class SetAssociativeL1 {
public:
    explicit SetAssociativeL1(const L1Geometry& g)
        : ways_(static_cast<size_t>(g.ways)), sets_(static_cast<size_t>(g.lines / g.ways)),
          slots_(static_cast<size_t>(g.lines)), hashes_(slots_.size()), lists_(sets_) {}

    size_t set_of(size_t hash) const { return hash % sets_; }

    LineAccess access(const LineKey& key, size_t hash, size_t set, unsigned sector_bits, double now,
                      bool fetch) {
        List& list = lists_[set];
        if (const size_t s = find(set, hash, key); s != none) {
            touch(list, s);
            return hit(slots_[s], sector_bits, now, fetch);
        }
        size_t victim;
        if (list.used < ways_) {
            victim = set * ways_ + list.used++;
        } else {
            victim = list.tail; // least recently used
            unlink(list, victim);
            if (indexed())
                where_.erase(slots_[victim].key);
        }
        const double missed_at = fetch ? now : std::numeric_limits<double>::lowest();
        slots_[victim] = Slot{key, sector_bits, missed_at, none, none};
        hashes_[victim] = hash;
        push_front(list, victim);
        if (indexed())
            where_[key] = victim;
        return {sector_bits, missed_at};
    }

private:
    static constexpr size_t none = static_cast<size_t>(-1);
    static constexpr size_t scanned_ways = 32; // up to this, a set is searched, not indexed
    struct Slot {
        LineKey key;
        unsigned valid = 0;
        double last_miss_cycle = 0;
        size_t prev = none, next = none;
    };
    bool indexed() const { return ways_ > scanned_ways; }
    // The slot holding `key` in `set`, or none.
    size_t find(size_t set, size_t hash, const LineKey& key) const {
        if (indexed()) {
            const auto at = where_.find(key);
            return at == where_.end() ? none : at->second;
        }
        const size_t first = set * ways_;
        for (size_t s = first; s < first + lists_[set].used; ++s)
            if (hashes_[s] == hash && slots_[s].key == key)
                return s;
        return none;
    }
    struct List {
        size_t head = none, tail = none;
        size_t used = 0;
    };
    void unlink(List& list, size_t s) {
        Slot& slot = slots_[s];
        (slot.prev == none ? list.head : slots_[slot.prev].next) = slot.next;
        (slot.next == none ? list.tail : slots_[slot.next].prev) = slot.prev;
        slot.prev = slot.next = none;
    }
    void push_front(List& list, size_t s) {
        slots_[s].next = list.head;
        if (list.head != none)
            slots_[list.head].prev = s;
        list.head = s;
        if (list.tail == none)
            list.tail = s;
    }
    void touch(List& list, size_t s) {
        if (list.head == s)
            return;
        unlink(list, s);
        push_front(list, s);
    }
    size_t ways_;
    size_t sets_;
    std::vector<Slot> slots_;    // set s holds slots [s * ways, (s + 1) * ways)
    std::vector<size_t> hashes_; // each slot's key hash: a set is scanned through these
    std::vector<List> lists_;
    std::unordered_map<LineKey, size_t, LineKeyHash> where_; // only when indexed()
};

} // namespace

std::optional<BlockPrograms> block_programs(const analysis::KernelAnalysis& analysis,
                                            const std::vector<std::int64_t>& params,
                                            const L1BankLayout& layout,
                                            const kernel::Dim3& block_index, std::string& why_not) {
    const auto& block = analysis.launch.block;
    const auto& fold = analysis.launch.fold;
    const std::int64_t threads = block[0] * block[1] * block[2];
    const std::int64_t warps = (threads + layout.warp_size - 1) / layout.warp_size;

    // The global accesses in program order: statements in turn, loads before stores.
    struct Ordered {
        const analysis::AccessInfo* access;
        analysis::ByteAddress address;
        AxisCoefficients axes;
        int array;
        int bytes;
    };
    BlockPrograms programs;
    std::vector<Ordered> ordered;
    for (const auto& access : analysis.accesses) {
        if (access.space != kernel::MemorySpace::global || access.atomic)
            continue;
        if (access.indirect) {
            why_not = "'" + access.text + "' has a data-dependent address";
            return std::nullopt;
        }
        if (in_sequential_loop(analysis, access)) {
            why_not = "'" + access.text + "' is inside a sequential loop";
            return std::nullopt;
        }
        auto named = std::find(programs.arrays.begin(), programs.arrays.end(), access.array);
        if (named == programs.arrays.end())
            named = programs.arrays.insert(programs.arrays.end(), access.array);
        Ordered o{&access,
                  analysis::byte_address(analysis, access, params),
                  {},
                  0,
                  kernel::data_type_bytes(access.dtype)};
        o.axes = axis_coefficients(analysis, o.address);
        o.array = static_cast<int>(named - programs.arrays.begin());
        ordered.push_back(std::move(o));
    }
    std::stable_sort(ordered.begin(), ordered.end(), [](const Ordered& a, const Ordered& b) {
        const bool a_store = a.access->direction != analysis::Direction::load;
        const bool b_store = b.access->direction != analysis::Direction::load;
        return std::tie(a.access->statement, a_store) < std::tie(b.access->statement, b_store);
    });

    const std::int64_t fold_points = fold[0] * fold[1] * fold[2];
    if (warps * fold_points * static_cast<std::int64_t>(ordered.size()) >
        l1_simulation_request_limit) {
        why_not = "its blocks issue more than " + std::to_string(l1_simulation_request_limit) +
                  " warp requests each";
        return std::nullopt;
    }
    programs.warps.resize(static_cast<size_t>(warps));
    const support::FloorDivider sector_of(layout.sector_bytes);
    programs.points = threads * fold_points;
    // Loads already issued by every thread: (array, thread coefficients, constant).
    std::set<std::tuple<int, std::array<std::int64_t, 3>, std::int64_t>> in_registers;
    // Per distinct thread coefficients, each thread's address less the constant
    // (lane_address(axes, block, t, constant) = constant + offset[t]) and each warp's lane
    // class: warps whose lanes' offsets less the first lane's are equal share one.
    struct ThreadOffsets {
        std::array<std::int64_t, 3> thread;
        std::vector<std::int64_t> offset; // per thread
        std::vector<int> warp_lane_class; // per warp
    };
    std::vector<ThreadOffsets> offsets_by_thread;
    std::map<std::vector<std::int64_t>, int> lane_classes;
    const auto offsets_of = [&](const std::array<std::int64_t, 3>& thread) -> const ThreadOffsets& {
        for (const ThreadOffsets& known : offsets_by_thread)
            if (known.thread == thread)
                return known;
        ThreadOffsets& added = offsets_by_thread.emplace_back();
        added.thread = thread;
        added.offset = thread_offsets(thread, block);
        std::vector<std::int64_t> lanes;
        for (std::int64_t w = 0; w < warps; ++w) {
            const auto first = added.offset.begin() + w * layout.warp_size;
            const auto last = added.offset.begin() + std::min(threads, (w + 1) * layout.warp_size);
            lanes.assign(first, last);
            for (std::int64_t& lane : lanes)
                lane -= *first;
            added.warp_lane_class.push_back(
                lane_classes.try_emplace(lanes, static_cast<int>(lane_classes.size()))
                    .first->second);
        }
        return added;
    };
    for (std::int64_t fz = 0; fz < fold[2]; ++fz)
        for (std::int64_t fy = 0; fy < fold[1]; ++fy)
            for (std::int64_t fx = 0; fx < fold[0]; ++fx)
                for (const Ordered& o : ordered) {
                    const std::int64_t constant =
                        o.address.constant + fx * o.axes.fold[0] + fy * o.axes.fold[1] +
                        fz * o.axes.fold[2] + block_index[0] * o.axes.block[0] +
                        block_index[1] * o.axes.block[1] + block_index[2] * o.axes.block[2];
                    const bool store = o.access->direction != analysis::Direction::load;
                    if (!store && !in_registers.insert({o.array, o.axes.thread, constant}).second)
                        continue;
                    const ThreadOffsets& offsets = offsets_of(o.axes.thread);
                    const std::vector<std::int64_t>& offset = offsets.offset;
                    for (std::int64_t w = 0; w < warps; ++w) {
                        WarpRequest request{
                            o.array, store,   {},
                            {},      o.bytes, offsets.warp_lane_class[static_cast<size_t>(w)]};
                        const std::int64_t end = std::min(threads, (w + 1) * layout.warp_size);
                        request.lane_addresses.reserve(
                            static_cast<size_t>(end - w * layout.warp_size));
                        request.sectors.reserve(2 *
                                                static_cast<size_t>(end - w * layout.warp_size));
                        auto& s = request.sectors;
                        for (std::int64_t t = w * layout.warp_size; t < end; ++t) {
                            const std::int64_t a = constant + offset[static_cast<size_t>(t)];
                            request.lane_addresses.push_back(a);
                            // Neighbouring lanes mostly share a sector: a repeat of the last
                            // one is left out here rather than by the sort below.
                            for (const std::int64_t sector :
                                 {sector_of(a), sector_of(a + o.bytes - 1)})
                                if (s.empty() || s.back() != sector)
                                    s.push_back(sector);
                        }
                        if (!std::is_sorted(s.begin(), s.end()))
                            std::sort(s.begin(), s.end());
                        s.erase(std::unique(s.begin(), s.end()), s.end());
                        programs.warps[static_cast<size_t>(w)].push_back(std::move(request));
                    }
                }
    return programs;
}

namespace {

// The block's requests as the simulation reads them, step by step (the k-th request of every
// warp in turn): each its lines with the requested sectors as bits (one cache look-up a line)
// and, with passes, each lane's first and last byte's line (indices into the request's lines),
// all in three arrays.
struct StepRequests {
    struct Request {
        const WarpRequest* request = nullptr;
        std::uint32_t first_line = 0, lines = 0; // into `lines`
        std::uint32_t first_lane = 0;            // into `lane_lines`, one a lane (with passes)
        // With passes: the request's lanes as the bank rule sees them (requests of one pattern
        // cost the same wavefronts for the same lanes late), and the bank rule over all lanes:
        // a store's cost, and a load's when its lines all hit or all are late (one pass).
        std::uint32_t pattern = 0;
        std::int64_t one_pass_wavefronts = 0;
    };
    size_t warps = 0;
    std::vector<Request> requests; // step k of warp w at k * warps + w
    std::vector<std::pair<std::int64_t, unsigned>> lines;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lane_lines;
};

struct LaneOffsetsHash {
    size_t operator()(const std::vector<std::int64_t>& values) const {
        std::uint64_t h = values.size();
        for (const std::int64_t v : values)
            h = splitmix64_hash(h ^ static_cast<std::uint64_t>(v));
        return static_cast<size_t>(h);
    }
};

StepRequests step_requests(const BlockPrograms& block, const L1Geometry& geometry,
                           std::int64_t sectors_per_line,
                           const std::optional<L1MissPasses>& passes) {
    StepRequests steps;
    steps.warps = block.warps.size();
    const size_t length = block.warps.front().size();
    steps.requests.reserve(length * steps.warps);
    // Each pattern's number and one-pass wavefronts, by its key: the access size, the first
    // lane's address modulo the bank rule's period, and every lane's address less the first's
    // (or, in their place, -1 and the request's lane class, which stands for them; an
    // address list's first entry is 0).
    std::unordered_map<std::vector<std::int64_t>, std::pair<std::uint32_t, std::int64_t>,
                       LaneOffsetsHash>
        patterns;
    std::vector<std::int64_t> key;
    // The first of the lane lines of each lane class, first lane's place in its line and access
    // size seen.
    std::map<std::tuple<int, std::int64_t, int>, std::uint32_t> lane_lines_of;
    const support::FloorDivider line_of_sector(sectors_per_line), line_of(geometry.line_bytes);
    for (size_t k = 0; k < length; ++k)
        for (size_t w = 0; w < steps.warps; ++w) {
            const WarpRequest& request = block.warps[w][k];
            StepRequests::Request step{&request, static_cast<std::uint32_t>(steps.lines.size()), 0,
                                       static_cast<std::uint32_t>(steps.lane_lines.size()), 0};
            for (const std::int64_t sector : request.sectors) { // sorted
                const std::int64_t line = line_of_sector(sector);
                const auto bit = 1u << static_cast<unsigned>(sector - line * sectors_per_line);
                if (step.lines == 0 || steps.lines.back().first != line) {
                    steps.lines.emplace_back(line, 0u);
                    ++step.lines;
                }
                steps.lines.back().second |= bit;
            }
            if (passes) {
                const auto& lanes = request.lane_addresses;
                // Which of the request's lines each lane reads depends only on its lanes'
                // addresses less the first's (the lane class) and the first's place in its
                // line: requests alike in both share their lane lines.
                if (request.lane_class >= 0 && !lanes.empty()) {
                    const std::int64_t place = lanes[0] - line_of(lanes[0]) * geometry.line_bytes;
                    const auto [at, added] = lane_lines_of.try_emplace(
                        std::tuple{request.lane_class, place, request.access_bytes},
                        step.first_lane);
                    if (!added)
                        step.first_lane = at->second;
                }
                const auto first = steps.lines.begin() + step.first_line;
                const auto last = first + step.lines;
                // Lanes mostly come in address order: the last lane's line is tried first.
                std::uint32_t hint = 0;
                const auto index_of = [&](std::int64_t address) {
                    const std::int64_t line = line_of(address);
                    if (hint >= step.lines || first[hint].first != line)
                        hint = static_cast<std::uint32_t>(
                            std::lower_bound(first, last, std::pair{line, 0u}) - first);
                    return hint;
                };
                if (step.first_lane == steps.lane_lines.size())
                    for (const std::int64_t a : lanes)
                        steps.lane_lines.emplace_back(index_of(a),
                                                      index_of(a + request.access_bytes - 1));
                const std::int64_t period = bank_rule_period(request.access_bytes, passes->layout);
                key.assign({request.access_bytes,
                            lanes.empty() ? 0 : ((lanes[0] % period) + period) % period});
                if (request.lane_class >= 0)
                    key.insert(key.end(), {-1, request.lane_class});
                else
                    for (const std::int64_t a : lanes)
                        key.push_back(a - lanes[0]);
                auto [at, added] = patterns.try_emplace(
                    key, static_cast<std::uint32_t>(patterns.size()), std::int64_t{0});
                if (added)
                    at->second.second =
                        warp_instruction_cost(lanes, request.access_bytes, passes->layout)
                            .wavefronts;
                step.pattern = at->second.first;
                step.one_pass_wavefronts = at->second.second;
            }
            steps.requests.push_back(step);
        }
    return steps;
}

// Every block copy first touches the same sectors of its own data: the block's distinct load
// sectors of each array, in bytes a point.
std::vector<double> first_touch_bytes(const BlockPrograms& block, const StepRequests& steps,
                                      const L1Geometry& geometry) {
    // Per array, its loaded lines with the union of their requested sectors as bits, in an
    // open-addressed table of twice the loads' line look-ups (a requested line has at least
    // one sector, so no bits marks a free entry).
    std::vector<size_t> looked_up(block.arrays.size(), 0);
    for (const StepRequests::Request& request : steps.requests)
        if (!request.request->store)
            looked_up[static_cast<size_t>(request.request->array)] += request.lines;
    std::vector<std::vector<std::pair<std::int64_t, unsigned>>> tables(block.arrays.size());
    for (size_t a = 0; a < tables.size(); ++a)
        if (looked_up[a] > 0)
            tables[a].assign(std::bit_ceil(2 * looked_up[a]), {0, 0u});
    for (const StepRequests::Request& request : steps.requests) {
        if (request.request->store)
            continue;
        auto& table = tables[static_cast<size_t>(request.request->array)];
        const size_t mask = table.size() - 1;
        for (size_t i = request.first_line; i < request.first_line + request.lines; ++i) {
            const auto [line, sectors] = steps.lines[i];
            size_t at = splitmix64_hash(static_cast<std::uint64_t>(line)) & mask;
            while (table[at].second != 0 && table[at].first != line)
                at = (at + 1) & mask;
            table[at] = {line, table[at].second | sectors};
        }
    }
    std::vector<double> bytes(block.arrays.size(), 0.0);
    for (size_t a = 0; a < block.arrays.size(); ++a) {
        std::int64_t unique = 0;
        for (const auto& entry : tables[a])
            unique += bit_count(entry.second);
        bytes[a] =
            static_cast<double>(unique * geometry.sector_bytes) / static_cast<double>(block.points);
    }
    return bytes;
}

// The key of a load's two-pass wavefronts: its lane lines' first index and its pattern (high and
// low 32 bits), and its late lines as bits.
struct TwoPassKey {
    std::uint64_t lane_lines_and_pattern = 0;
    std::uint64_t late_lines = 0;
    bool operator==(const TwoPassKey&) const = default;
};

struct TwoPassKeyHash {
    size_t operator()(const TwoPassKey& key) const {
        return static_cast<size_t>(
            splitmix64_hash(key.lane_lines_and_pattern ^ splitmix64_hash(key.late_lines)));
    }
};

// The lowest and highest line the requests name (0, 0 without any).
std::pair<std::int64_t, std::int64_t> line_range(const StepRequests& steps) {
    if (steps.lines.empty())
        return {0, 0};
    const auto [low, high] =
        std::minmax_element(steps.lines.begin(), steps.lines.end(),
                            [](const auto& a, const auto& b) { return a.first < b.first; });
    return {low->first, high->first};
}

// One block slot of the simulated SM: the block copy it runs and that copy's generation.
struct Slot {
    std::int64_t copy = 0;
    int generation = 0;
    size_t next = 0;                         // every warp's next request (lockstep)
    std::int64_t delay = 0;                  // steps before the first block starts
    std::vector<std::uint64_t> array_hashes; // copy_array_hash of each array
    void start(std::int64_t block_copy) {
        copy = block_copy;
        for (size_t a = 0; a < array_hashes.size(); ++a)
            array_hashes[a] = copy_array_hash(copy, static_cast<std::int64_t>(a));
    }
};

// The SM's block slots at the start: slot j runs block copy j and starts length * j / slots
// steps late (the slots' blocks spread over a block's life).
std::vector<Slot> first_slots(std::int64_t blocks_per_sm, size_t arrays, size_t length) {
    std::vector<Slot> slots(static_cast<size_t>(blocks_per_sm));
    for (size_t j = 0; j < slots.size(); ++j) {
        slots[j].array_hashes.resize(arrays);
        slots[j].start(static_cast<std::int64_t>(j));
        slots[j].delay = static_cast<std::int64_t>(length * j / slots.size());
    }
    return slots;
}

} // namespace

L1Simulation simulate_l1(const BlockPrograms& block, std::int64_t blocks_per_sm,
                         const L1Geometry& geometry, const std::optional<L1MissPasses>& passes) {
    KERNCAST_CHECK(blocks_per_sm > 0 && geometry.ways > 0 && geometry.lines >= geometry.ways &&
                       geometry.lines % geometry.ways == 0 && geometry.sector_bytes > 0 &&
                       geometry.line_bytes % geometry.sector_bytes == 0,
                   "L1 geometry and residency must be positive and consistent");
    const std::int64_t sectors_per_line = geometry.line_bytes / geometry.sector_bytes;
    KERNCAST_CHECK(sectors_per_line <= 32, "at most 32 sectors per line");
    const size_t length = block.warps.empty() ? 0 : block.warps.front().size();
    L1Simulation result;
    result.arrays = block.arrays;
    result.load_miss_bytes.assign(block.arrays.size(), 0.0);
    result.first_touch_bytes.assign(block.arrays.size(), 0.0);
    if (length == 0)
        return result;

    std::vector<Slot> slots = first_slots(blocks_per_sm, block.arrays.size(), length);
    std::int64_t next_copy = blocks_per_sm;

    const StepRequests steps = step_requests(block, geometry, sectors_per_line, passes);

    std::vector<std::int64_t> misses(block.arrays.size(), 0);
    std::int64_t measured_points = 0;
    double now = 0;                   // the SM's clock, cycles (with passes)
    std::int64_t load_wavefronts = 0; // of the measured generations (with passes)
    std::vector<unsigned char> late_line, late_lane;
    // The request's lines' hashes and sets, found (and prefetched) ahead of their look-ups.
    std::vector<std::pair<size_t, size_t>> line_places;
    // Two-pass wavefronts of a load by its lane lines (StepRequests::Request::first_lane), its
    // pattern and which of its lines are late: the lane lines say which lanes those make late,
    // the pattern what the bank rule charges for them (requests of up to 64 lines).
    std::unordered_map<TwoPassKey, std::int64_t, TwoPassKeyHash> two_pass_memo;
    const int generations = l1_simulation_generations(blocks_per_sm);
    const auto measured = [generations](const Slot& s) {
        return s.generation >= 1 && s.generation < generations - 1;
    };
    // The last generation only keeps the others' measured ones company: once every slot has
    // reached it, nothing measured is left to issue and the simulation ends.
    const auto run = [&](auto& l1) {
        for (bool measuring = true; measuring;) {
            measuring = false;
            for (Slot& slot : slots) {
                if (slot.generation >= generations)
                    continue;
                measuring = measuring || slot.generation < generations - 1;
                if (slot.delay > 0) {
                    --slot.delay;
                    continue;
                }
                const StepRequests::Request* const step = &steps.requests[slot.next * steps.warps];
                const bool slot_measured = measured(slot); // the generation changes after the step
                for (size_t w = 0; w < steps.warps; ++w) {
                    const StepRequests::Request& request = step[w];
                    const bool store = request.request->store;
                    const int array = request.request->array;
                    const auto* const lines = &steps.lines[request.first_line];
                    const std::uint64_t array_hash = slot.array_hashes[static_cast<size_t>(array)];
                    late_line.resize(request.lines);
                    line_places.resize(request.lines);
                    std::uint32_t late_lines = 0;
                    std::uint64_t late_line_bits = 0; // bit i: line i is late (its first 64)
                    for (size_t i = 0; i < request.lines; ++i) {
                        const size_t hash = line_hash(array_hash, lines[i].first);
                        line_places[i] = {hash, l1.set_of(hash)};
                    }
                    for (size_t i = 0; i < request.lines; ++i) {
                        const auto [line, sector_bits] = lines[i];
                        const auto [hash, set] = line_places[i];
                        const auto access = l1.access({slot.copy, array, line}, hash, set,
                                                      sector_bits, now, !store);
                        if (access.missing != 0 && !store && slot_measured)
                            misses[static_cast<size_t>(array)] += bit_count(access.missing);
                        // In flight: missing now, or filled less than the fill latency ago.
                        late_line[i] =
                            passes && (access.missing != 0 ||
                                       now - access.last_miss_cycle < passes->fill_latency_cycles);
                        late_lines += late_line[i];
                        late_line_bits |= std::uint64_t{late_line[i]} << (i % 64);
                    }
                    if (!passes)
                        continue;
                    if (store) {
                        now += static_cast<double>(request.one_pass_wavefronts);
                        continue;
                    }
                    std::int64_t wavefronts = request.one_pass_wavefronts;
                    if (late_lines > 0 && late_lines < request.lines) {
                        const auto& lanes = request.request->lane_addresses;
                        const auto* const lane_lines = &steps.lane_lines[request.first_lane];
                        const auto lane_late = [&](size_t l) -> unsigned char {
                            return late_line[lane_lines[l].first] | late_line[lane_lines[l].second];
                        };
                        const auto two_pass = [&] {
                            late_lane.resize(lanes.size());
                            for (size_t l = 0; l < lanes.size(); ++l)
                                late_lane[l] = lane_late(l);
                            return two_pass_wavefronts(
                                lanes, late_lane, request.request->access_bytes, passes->layout);
                        };
                        if (request.lines <= 64) { // the key holds 64 lines' flags
                            auto [at, added] = two_pass_memo.try_emplace(
                                TwoPassKey{std::uint64_t{request.first_lane} << 32 |
                                               request.pattern,
                                           late_line_bits},
                                0);
                            if (added)
                                at->second = two_pass();
                            wavefronts = at->second;
                        } else {
                            wavefronts = two_pass();
                        }
                    }
                    now += static_cast<double>(wavefronts);
                    if (slot_measured)
                        load_wavefronts += wavefronts;
                }
                if (++slot.next < length)
                    continue;
                if (measured(slot))
                    measured_points += block.points;
                slot.next = 0;
                slot.start(next_copy++);
                ++slot.generation;
            }
        }
    };
    // FewWaysL1's packed keys: the lines, and the copies (slot j, generation g: j + g * slots).
    const auto [lowest_line, highest_line] = line_range(steps);
    if (geometry.ways <= FewWaysL1::max_ways &&
        FewWaysL1::fits_packed_keys(blocks_per_sm * (generations + 1), block.arrays.size(),
                                    highest_line - lowest_line)) {
        FewWaysL1 l1(geometry, lowest_line);
        run(l1);
    } else if (geometry.ways <= SmallSetL1::max_ways) {
        SmallSetL1 l1(geometry);
        run(l1);
    } else {
        SetAssociativeL1 l1(geometry);
        run(l1);
    }
    const double per_point =
        static_cast<double>(geometry.sector_bytes) / static_cast<double>(measured_points);
    for (size_t a = 0; a < block.arrays.size(); ++a)
        result.load_miss_bytes[a] = static_cast<double>(misses[a]) * per_point;
    result.first_touch_bytes = first_touch_bytes(block, steps, geometry);
    if (passes)
        result.load_wavefronts_per_point =
            static_cast<double>(load_wavefronts) / static_cast<double>(measured_points);
    return result;
}

} // namespace kerncast::models
