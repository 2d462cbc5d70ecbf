// Memory levels and special memories, their tables by store fraction, loads in flight and
// carve-out, the hierarchy's order, same_cache_as and TLBs (machine_checks.hpp;
// docs/machine-format.md).
#include "kerncast/closest_names.hpp"
#include "machine_checks.hpp"

#include <algorithm>
#include <regex>

namespace kerncast::machine_checks {
namespace {

class LevelChecks : public MachineChecks {
public:
    using MachineChecks::MachineChecks;

    void levels(const std::vector<MemoryLevel>& list, const std::string& path,
                bool hierarchy) const {
        std::vector<std::string> allowed;
        if (hierarchy)
            allowed.assign(mf::hierarchy_level_names.begin(), mf::hierarchy_level_names.end());
        else
            allowed.assign(mf::special_memory_names.begin(), mf::special_memory_names.end());
        const std::vector<std::string> scopes(mf::sharing_scopes.begin(), mf::sharing_scopes.end());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const MemoryLevel& level = list[i];
            const std::string level_path = child_pointer(path, i);
            if (std::find(allowed.begin(), allowed.end(), level.name) == allowed.end()) {
                std::vector<std::string> notes;
                const auto close = closest_names(level.name, allowed, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                std::string names;
                for (const auto& name : allowed)
                    names += (names.empty() ? "" : ", ") + name;
                notes.push_back("levels here: " + names);
                fail(child_pointer(level_path, "name"),
                     "unknown memory level \"" + level.name + "\"", notes);
            }
            for (std::size_t j = 0; j < i; ++j)
                if (list[j].name == level.name)
                    fail(child_pointer(level_path, "name"),
                         "memory level \"" + level.name + "\" is given twice");
            if (std::find(scopes.begin(), scopes.end(), level.shared_by) == scopes.end())
                fail(child_pointer(level_path, "shared_by"),
                     "expected one of \"sm\", \"tpc\", \"gpc\", \"gpu\", got \"" + level.shared_by +
                         "\"");
            section(level, level_path, mf::level_fields);
            if (level.line_bytes && level.sector_bytes &&
                (level.sector_bytes->value > level.line_bytes->value ||
                 level.line_bytes->value % level.sector_bytes->value != 0))
                fail(child_pointer(level_path, "sector_bytes"),
                     "sector_bytes (" + std::to_string(level.sector_bytes->value) +
                         ") must divide line_bytes (" + std::to_string(level.line_bytes->value) +
                         ")");
            if (level.ways && level.size_bytes && level.line_bytes &&
                (level.size_bytes->value % level.line_bytes->value != 0 ||
                 (level.size_bytes->value / level.line_bytes->value) % level.ways->value != 0))
                fail(child_pointer(level_path, "ways"),
                     "ways (" + std::to_string(level.ways->value) +
                         ") must divide the lines of the level (size_bytes / line_bytes)");
            not_above(level_path, level.effective_size_bytes, "effective_size_bytes",
                      level.size_bytes, "size_bytes");
            not_above(level_path, level.sustained_bandwidth_gbs, "sustained_bandwidth_gbs",
                      level.peak_bandwidth_gbs, "peak_bandwidth_gbs");
            not_above(level_path, level.store_bandwidth_gbs, "store_bandwidth_gbs",
                      level.peak_bandwidth_gbs, "peak_bandwidth_gbs");
            not_above(level_path, level.latency_near_cycles, "latency_near_cycles",
                      level.latency_far_cycles, "latency_far_cycles");
            if (level.effective_size_by_carveout)
                carveout_sizes(level, child_pointer(level_path, "effective_size_by_carveout"));
            if (level.mixed_bandwidth_by_store_fraction)
                mixed_bandwidths(level,
                                 child_pointer(level_path, "mixed_bandwidth_by_store_fraction"));
            if (level.latency_under_load)
                loaded_latencies(level, child_pointer(level_path, "latency_under_load"));
            if (level.bandwidth_by_loads_in_flight)
                in_flight_bandwidths(level,
                                     child_pointer(level_path, "bandwidth_by_loads_in_flight"));
        }
    }

    // A load/store mix's store fraction: 0 (loads alone) to 1 (stores alone).
    void store_fraction_in_range(double fraction, const std::string& path) const {
        if (!(fraction >= 0 && fraction <= 1))
            fail(path,
                 "must be between 0 (loads alone) and 1 (stores alone), got " + number(fraction));
    }

    // A curve's entries: sorted by store fraction and, within one fraction, by `key`, each
    // (fraction, key) pair once; `before_*` are the previous entry's.
    void sorted_by_fraction_then(double before_fraction, double fraction,
                                 const std::string& fraction_path, const char* key,
                                 double before_value, double value,
                                 const std::string& key_path) const {
        if (fraction < before_fraction)
            fail(fraction_path, "entries must be sorted by store_fraction (" + number(fraction) +
                                    " comes after " + number(before_fraction) + ")");
        if (fraction == before_fraction && value <= before_value)
            fail(key_path, std::string("entries of one store_fraction must be sorted by ") + key +
                               ", each once (" + number(value) + " comes after " +
                               number(before_value) + ")");
    }

    // A bandwidth of the level's streams: at most its peak, when the level gives one.
    void not_above_peak(const MemoryLevel& level, double gbs, const std::string& path) const {
        if (level.peak_bandwidth_gbs && gbs > level.peak_bandwidth_gbs->value)
            fail(path, "bandwidth_gbs (" + number(gbs) + ") exceeds peak_bandwidth_gbs (" +
                           number(level.peak_bandwidth_gbs->value) + ")");
    }

    // A table only the dram level takes (`key`; `why` says why): its source, the level, and at
    // least one entry of `shape`.
    template <class Entry>
    void dram_only_list(const MemoryLevel& level, const Sourced<std::vector<Entry>>& list,
                        const std::string& path, const std::string& key, const std::string& why,
                        const std::string& shape) const {
        source(list.source, path);
        if (level.name != "dram")
            fail(path,
                 "only the dram level takes " + key + " (" + why + "), not '" + level.name + "'");
        if (list.value.empty())
            fail(path, "expected at least one " + shape + " entry");
    }

    // Latency under load: the dram level's only (the probe measures no other), sorted by store
    // fraction and then bandwidth, each pair once; fractions in [0, 1], bandwidths not negative
    // (0: nothing streams) and not above the level's peak, latencies positive, their standard
    // deviations not negative (0: not measured).
    void loaded_latencies(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.latency_under_load;
        dram_only_list(level, list, path, "latency_under_load",
                       "the probe measures no other level's",
                       "{\"store_fraction\", \"bandwidth_gbs\", \"latency_cycles\"}");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const LoadedLatency& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            store_fraction_in_range(entry.store_fraction, fraction_path);
            if (!(entry.bandwidth_gbs >= 0))
                fail(bandwidth_path, "must not be negative, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
            if (i > 0)
                sorted_by_fraction_then(list.value[i - 1].store_fraction, entry.store_fraction,
                                        fraction_path, "bandwidth_gbs",
                                        list.value[i - 1].bandwidth_gbs, entry.bandwidth_gbs,
                                        bandwidth_path);
            if (!(entry.latency_cycles > 0))
                fail(child_pointer(entry_path, "latency_cycles"),
                     "must be positive, got " + number(entry.latency_cycles));
            if (!(entry.latency_stddev_cycles >= 0))
                fail(child_pointer(entry_path, "latency_stddev_cycles"),
                     "must not be negative, got " + number(entry.latency_stddev_cycles));
        }
    }

    // Bandwidth by load bytes in flight: the dram level's only (the in-flight limiter reads no
    // other), sorted by store fraction and then bytes in flight, each pair once; fractions in [0,
    // 1) (a mix with loads), bytes in flight and bandwidths positive, bandwidths not above the
    // level's peak.
    void in_flight_bandwidths(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.bandwidth_by_loads_in_flight;
        dram_only_list(level, list, path, "bandwidth_by_loads_in_flight",
                       "the in-flight limiter reads no other level's",
                       "{\"store_fraction\", \"loads_in_flight_bytes_per_sm\", "
                       "\"bandwidth_gbs\"}");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const InFlightBandwidth& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bytes_path =
                child_pointer(entry_path, "loads_in_flight_bytes_per_sm");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            if (!(entry.store_fraction >= 0 && entry.store_fraction < 1))
                fail(fraction_path, "must be from 0 (loads alone) to below 1 (a mix with loads), "
                                    "got " +
                                        number(entry.store_fraction));
            if (!(entry.loads_in_flight_bytes_per_sm > 0))
                fail(bytes_path,
                     "must be positive, got " + number(entry.loads_in_flight_bytes_per_sm));
            if (!(entry.bandwidth_gbs > 0))
                fail(bandwidth_path, "must be positive, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
            if (i > 0)
                sorted_by_fraction_then(list.value[i - 1].store_fraction, entry.store_fraction,
                                        fraction_path, "loads_in_flight_bytes_per_sm",
                                        list.value[i - 1].loads_in_flight_bytes_per_sm,
                                        entry.loads_in_flight_bytes_per_sm, bytes_path);
        }
    }

    // Bandwidth by load/store mix: the dram and l2 levels' only (the limiter model reads no
    // other), sorted by store fraction, each fraction in [0, 1] and once, each bandwidth
    // positive and not above the level's peak.
    void mixed_bandwidths(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.mixed_bandwidth_by_store_fraction;
        source(list.source, path);
        if (level.name != "dram" && level.name != "l2")
            fail(path, "only the dram and l2 levels take mixed_bandwidth_by_store_fraction (the "
                       "limiter model reads no other level's), not '" +
                           level.name + "'");
        if (list.value.empty())
            fail(path, "expected at least one {\"store_fraction\", \"bandwidth_gbs\"} entry");
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const MixedBandwidth& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string fraction_path = child_pointer(entry_path, "store_fraction");
            const std::string bandwidth_path = child_pointer(entry_path, "bandwidth_gbs");
            store_fraction_in_range(entry.store_fraction, fraction_path);
            if (i > 0 && entry.store_fraction <= list.value[i - 1].store_fraction)
                fail(fraction_path, "entries must be sorted by store_fraction, each once (" +
                                        number(entry.store_fraction) + " comes after " +
                                        number(list.value[i - 1].store_fraction) + ")");
            if (!(entry.bandwidth_gbs > 0))
                fail(bandwidth_path, "must be positive, got " + number(entry.bandwidth_gbs));
            not_above_peak(level, entry.bandwidth_gbs, bandwidth_path);
        }
    }

    // Sizes by shared-memory carve-out: sorted by carve-out, each one a carve-out the machine
    // offers, each size positive. (Not bounded by size_bytes: a probed L1's size_bytes is what
    // it measured at one carve-out, and a smaller carve-out leaves a larger L1.)
    void carveout_sizes(const MemoryLevel& level, const std::string& path) const {
        const auto& list = *level.effective_size_by_carveout;
        source(list.source, path);
        if (list.value.empty())
            fail(path, "expected at least one {\"shared_kib\", \"effective_size_bytes\"} entry");
        const auto& offered = m_.compute.shared_memory_carveouts_kib;
        for (std::size_t i = 0; i < list.value.size(); ++i) {
            const CarveoutSize& entry = list.value[i];
            const std::string entry_path = child_pointer(path, i);
            const std::string kib_path = child_pointer(entry_path, "shared_kib");
            const std::string size_path = child_pointer(entry_path, "effective_size_bytes");
            if (entry.shared_kib < 0)
                fail(kib_path, "must not be negative, got " + std::to_string(entry.shared_kib));
            if (i > 0 && entry.shared_kib == list.value[i - 1].shared_kib)
                fail(kib_path,
                     "carve-out " + std::to_string(entry.shared_kib) + " KiB is given twice");
            if (i > 0 && entry.shared_kib < list.value[i - 1].shared_kib)
                fail(kib_path, "entries must be sorted by shared_kib (" +
                                   std::to_string(entry.shared_kib) + " comes after " +
                                   std::to_string(list.value[i - 1].shared_kib) + ")");
            if (offered && std::find(offered->value.begin(), offered->value.end(),
                                     entry.shared_kib) == offered->value.end()) {
                std::string kibs;
                for (int kib : offered->value)
                    kibs += (kibs.empty() ? "" : ", ") + std::to_string(kib);
                fail(kib_path,
                     "carve-out " + std::to_string(entry.shared_kib) +
                         " KiB is not one of the machine's shared_memory_carveouts_kib",
                     {"carve-outs: " + kibs + " KiB"});
            }
            if (entry.effective_size_bytes <= 0)
                fail(size_path,
                     "must be positive, got " + std::to_string(entry.effective_size_bytes));
        }
    }

    // same_cache_as names another level or special memory (a cache, not DRAM), and following
    // the names never comes back to where it started.
    void same_cache() const {
        struct Named {
            const MemoryLevel* level;
            std::string path;
        };
        std::vector<Named> all;
        for (std::size_t i = 0; i < m_.memory.size(); ++i)
            all.push_back({&m_.memory[i], child_pointer("/memory", i)});
        for (std::size_t i = 0; i < m_.special_memories.size(); ++i)
            all.push_back({&m_.special_memories[i], child_pointer("/special_memories", i)});
        auto find = [&](const std::string& name) -> const Named* {
            for (const auto& named : all)
                if (named.level->name == name)
                    return &named;
            return nullptr;
        };
        std::vector<std::string> names;
        for (const auto& named : all)
            if (named.level->name != "dram")
                names.push_back(named.level->name);
        for (const auto& named : all) {
            const auto& target = named.level->same_cache_as;
            if (!target)
                continue;
            const std::string path = child_pointer(named.path, "same_cache_as");
            if (named.level->name == "dram")
                fail(path, "\"dram\" is not a cache; same_cache_as applies to caches");
            if (target->value == named.level->name)
                fail(path, "\"" + named.level->name + "\" cannot be the same cache as itself");
            if (target->value == "dram")
                fail(path, "same_cache_as must name a cache, not \"dram\"");
            if (!find(target->value)) {
                std::vector<std::string> notes;
                const auto close = closest_names(target->value, names, 1);
                if (!close.empty())
                    notes.push_back("did you mean \"" + close.front() + "\"?");
                notes.push_back("levels and special memories of this machine: " +
                                json_reader::quoted_list(names));
                fail(path,
                     "same_cache_as names no memory level or special memory: \"" + target->value +
                         "\"",
                     notes);
            }
            // Follow the chain; coming back to this level is a cycle.
            std::string chain = named.level->name;
            const Named* at = find(target->value);
            for (std::size_t steps = 0; at && steps <= all.size(); ++steps) {
                chain += " -> " + at->level->name;
                if (at == &named)
                    fail(path, "same_cache_as forms a cycle: " + chain,
                         {"name the cache once: e.g. \"texture\": {\"same_cache_as\": \"l1\"} "
                          "and nothing on \"l1\""});
                if (!at->level->same_cache_as)
                    break;
                at = find(at->level->same_cache_as->value);
            }
        }
    }

    void tlbs() const {
        static const std::regex name_pattern("^[a-z0-9][a-z0-9_]*$");
        const std::vector<std::string> scopes(mf::sharing_scopes.begin(), mf::sharing_scopes.end());
        for (std::size_t i = 0; i < m_.tlbs.size(); ++i) {
            const TlbLevel& tlb = m_.tlbs[i];
            const std::string path = child_pointer("/tlbs", i);
            if (!std::regex_match(tlb.name, name_pattern))
                fail(child_pointer(path, "name"),
                     "expected a TLB name of lower-case letters, digits and '_' such as "
                     "\"l1_tlb\", got \"" +
                         tlb.name + "\"");
            for (std::size_t j = 0; j < i; ++j)
                if (m_.tlbs[j].name == tlb.name)
                    fail(child_pointer(path, "name"), "TLB \"" + tlb.name + "\" is given twice");
            if (!tlb.shared_by.empty() &&
                std::find(scopes.begin(), scopes.end(), tlb.shared_by) == scopes.end())
                fail(child_pointer(path, "shared_by"),
                     "expected one of \"sm\", \"tpc\", \"gpc\", \"gpu\", got \"" + tlb.shared_by +
                         "\"");
            section(tlb, path, mf::tlb_fields);
            if (tlb.page_bytes && (tlb.page_bytes->value & (tlb.page_bytes->value - 1)) != 0)
                fail(child_pointer(path, "page_bytes"), "page_bytes must be a power of two, got " +
                                                            std::to_string(tlb.page_bytes->value));
            if (tlb.reach_bytes && tlb.page_bytes && tlb.reach_bytes->value < tlb.page_bytes->value)
                fail(child_pointer(path, "reach_bytes"),
                     "reach_bytes (" + std::to_string(tlb.reach_bytes->value) +
                         ") is less than one page (page_bytes " +
                         std::to_string(tlb.page_bytes->value) + ")");
        }
    }

    void hierarchy() const {
        // Levels from the SM outwards, and the DRAM level every model needs.
        int previous_rank = -1;
        std::size_t dram_index = m_.memory.size();
        for (std::size_t i = 0; i < m_.memory.size(); ++i) {
            const auto begin = mf::hierarchy_level_names.begin();
            const int rank = static_cast<int>(
                std::find(begin, mf::hierarchy_level_names.end(), m_.memory[i].name) - begin);
            if (rank < previous_rank)
                fail(child_pointer(child_pointer("/memory", i), "name"),
                     "memory levels must be listed from the SM outwards (l1, l2, dram); \"" +
                         m_.memory[i].name + "\" comes after \"" +
                         std::string(mf::hierarchy_level_names[previous_rank]) + "\"");
            previous_rank = rank;
            if (m_.memory[i].name == "dram")
                dram_index = i;
        }
        if (dram_index == m_.memory.size())
            fail("/memory", "missing the required memory level \"dram\"");

        const MemoryLevel* l1 = m_.level("l1");
        const MemoryLevel* l2 = m_.level("l2");
        if (l1 && l2 && l1->size_bytes && l2->size_bytes &&
            l1->size_bytes->value >= l2->size_bytes->value) {
            const auto index = static_cast<std::size_t>(l1 - m_.memory.data());
            fail(child_pointer(child_pointer("/memory", index), "size_bytes"),
                 "the L1 (" + std::to_string(l1->size_bytes->value) +
                     " B per SM) must be smaller than the L2 (" +
                     std::to_string(l2->size_bytes->value) + " B)");
        }
        // Since Volta, shared memory is carved out of the unified L1 array of each SM.
        if (m_.identity.cc_major >= 7 && l1 && l1->size_bytes &&
            m_.compute.shared_memory_per_sm_bytes &&
            m_.compute.shared_memory_per_sm_bytes->value > l1->size_bytes->value)
            fail("/compute/shared_memory_per_sm_bytes",
                 "shared_memory_per_sm_bytes (" +
                     std::to_string(m_.compute.shared_memory_per_sm_bytes->value) +
                     ") exceeds the unified L1/shared array of the SM (l1 size_bytes " +
                     std::to_string(l1->size_bytes->value) + ")");
    }
};

} // namespace

void check_levels(const MachineModel& machine, const JsonPathLocator& locate) {
    LevelChecks checks(machine, locate);
    checks.levels(machine.memory, "/memory", true);
    checks.levels(machine.special_memories, "/special_memories", false);
}

void check_hierarchy(const MachineModel& machine, const JsonPathLocator& locate) {
    LevelChecks(machine, locate).hierarchy();
}

void check_same_cache(const MachineModel& machine, const JsonPathLocator& locate) {
    LevelChecks(machine, locate).same_cache();
}

void check_tlbs(const MachineModel& machine, const JsonPathLocator& locate) {
    LevelChecks(machine, locate).tlbs();
}

} // namespace kerncast::machine_checks
