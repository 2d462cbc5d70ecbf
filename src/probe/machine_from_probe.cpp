#include "kerncast/probe/analysis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <utility>

namespace kerncast::probe {

namespace {

std::string slug(const std::string& name) {
    std::string id;
    for (char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            id += static_cast<char>(std::tolower(u));
        else if (!id.empty() && id.back() != '-')
            id += '-';
    }
    while (!id.empty() && id.back() == '-')
        id.pop_back();
    if (id.rfind("nvidia-", 0) == 0)
        id = id.substr(7);
    return id.empty() ? "gpu" : id;
}

// Architecture names by compute capability (CUDA Programming Guide, "Compute Capabilities").
std::string architecture(int major, int minor) {
    switch (major) {
    case 3:
        return "Kepler";
    case 5:
        return "Maxwell";
    case 6:
        return "Pascal";
    case 7:
        return minor >= 5 ? "Turing" : "Volta";
    case 8:
        return minor == 9 ? "Ada Lovelace" : "Ampere";
    case 9:
        return "Hopper";
    case 10:
    case 12:
        return "Blackwell";
    default:
        return "unknown";
    }
}

class Builder {
public:
    Builder(const ProbeAnalysis& analysis, const std::string& run)
        : analysis_(analysis), run_(run) {}

    MachineModel build() {
        const auto& d = analysis_.device;
        m_.identity.id = slug(d.name) + "-probed";
        m_.identity.name = d.name;
        m_.identity.vendor = "NVIDIA";
        m_.identity.architecture = architecture(d.cc_major, d.cc_minor);
        m_.identity.cc_major = d.cc_major;
        m_.identity.cc_minor = d.cc_minor;
        // A probe measures the memory system, not issue rates or occupancy rules.
        m_.identity.incomplete = true;
        m_.identity.notes =
            fmt::format("Measured by kerncast probe {} on {}{}.", analysis_.tool_version,
                        analysis_.date.empty() ? "an unknown date" : analysis_.date,
                        analysis_.carveout_percent >= 0
                            ? fmt::format(" with the shared-memory carve-out at {} %",
                                          analysis_.carveout_percent)
                            : std::string());
        m_.sources["device_query"] = {SourceKind::measured,
                                      "CUDA runtime device query (cudaGetDeviceProperties, "
                                      "cudaDeviceGetAttribute)",
                                      run_};

        auto& c = m_.compute;
        set(c.sm_count, d.sm_count);
        set(c.warp_size, d.warp_size);
        set(c.boost_clock_mhz, d.sm_clock_peak_mhz);
        set(c.max_threads_per_sm, d.max_threads_per_sm);
        set(c.max_blocks_per_sm, d.max_blocks_per_sm);
        set(c.registers_per_sm, d.registers_per_sm);
        set(c.shared_memory_per_sm_bytes, d.shared_memory_per_sm_bytes);
        set(c.shared_memory_per_block_optin_bytes, d.shared_memory_per_block_optin_bytes);
        measured(c.measured_sm_clock_mhz, "", "sm_clock_mhz");
        measured(c.block_launches_per_cycle, "", "block_launches_per_cycle");

        for (const char* name : {"l1", "l2", "dram"})
            level(m_.memory, name);
        for (const char* name : {"texture", "readonly", "constant_l1", "constant_l15", "shared"})
            level(m_.special_memories, name);

        if (auto* l2 = find(m_.memory, "l2"); l2 && analysis_.device.l2_cache_bytes > 0) {
            l2->size_bytes = Sourced<std::int64_t>{analysis_.device.l2_cache_bytes, "device_query"};
        }
        if (auto* dram = find(m_.memory, "dram"); dram && analysis_.device.global_memory_bytes > 0)
            dram->size_bytes =
                Sourced<std::int64_t>{analysis_.device.global_memory_bytes, "device_query"};

        same_caches();
        tlbs();

        measured(m_.mwp_cwp.mem_ld_cycles, "", "mem_ld_cycles");
        measured(m_.mwp_cwp.departure_del_coal_cycles, "", "departure_del_coal_cycles");
        measured(m_.mwp_cwp.departure_del_uncoal_cycles, "", "departure_del_uncoal_cycles");
        measured(m_.mwp_cwp.issue_cycles, "", "issue_cycles");
        // Drop levels the probe knows nothing about.
        std::erase_if(m_.memory, [](const MemoryLevel& l) { return empty(l); });
        std::erase_if(m_.special_memories, [](const MemoryLevel& l) { return empty(l); });
        return std::move(m_);
    }

private:
    template <class T, class U> void set(Known<T>& field, U value) {
        if (value > 0)
            field = Sourced<T>{static_cast<T>(value), "device_query"};
    }

    // x to the nearest 1 / scale (the tables' store fractions to 1e-4, GB/s and cycles to 0.1).
    static double rounded(double x, double scale) {
        return static_cast<double>(std::llround(x * scale)) / scale;
    }

    static bool empty(const MemoryLevel& l) {
        return !l.size_bytes && !l.effective_size_bytes && !l.line_bytes && !l.sector_bytes &&
               !l.latency_cycles && !l.sustained_bandwidth_gbs && !l.store_bandwidth_gbs &&
               !l.latency_near_cycles && !l.latency_far_cycles && !l.partitions &&
               !l.count_per_sm && !l.same_cache_as && !l.effective_size_by_carveout &&
               !l.mixed_bandwidth_by_store_fraction && !l.latency_under_load &&
               !l.bandwidth_by_loads_in_flight;
    }

    static Uncertainty uncertainty_of(const Estimate& e) {
        return {std::isfinite(e.relative_spread()) ? e.relative_spread() : 0.0,
                to_string(e.confidence), std::max(1, e.repetitions)};
    }

    static MemoryLevel* find(std::vector<MemoryLevel>& levels, const std::string& name) {
        for (auto& l : levels)
            if (l.name == name)
                return &l;
        return nullptr;
    }

    // The source key of one probed value, with its estimate in the citation.
    std::string source_for(const ProbeValue& v) {
        const std::string key =
            "probe:" + (v.memory.empty() ? std::string() : v.memory + ".") + v.quantity;
        const Estimate& e = v.estimate;
        std::string citation = fmt::format(
            "kerncast probe, benchmark {}: median of {} repetition(s), spread (MAD) {:g} {}, "
            "confidence {}",
            v.benchmark, e.repetitions, e.spread, v.unit, to_string(e.confidence));
        if (e.p_value >= 0)
            citation += fmt::format(", KS p = {:.2g}", e.p_value);
        if (!e.note.empty())
            citation += "; " + e.note;
        if (!v.detail.empty())
            citation += "; " + v.detail;
        Provenance provenance{SourceKind::measured, citation, run_};
        // A spread relative to a zero value (a 0/1 flag) is not a relative spread.
        if (std::isfinite(e.relative_spread()))
            provenance.uncertainty = uncertainty_of(e);
        m_.sources[key] = provenance;
        return key;
    }

    const ProbeValue* usable(const std::string& memory, const std::string& quantity) const {
        const ProbeValue* v = analysis_.find(memory, quantity);
        return v && v->estimate.within_bounds ? v : nullptr;
    }

    template <class T>
    void measured(Known<T>& field, const std::string& memory, const std::string& quantity) {
        if (const ProbeValue* v = usable(memory, quantity))
            field = Sourced<T>{static_cast<T>(std::llround(v->estimate.value * 1e6) / 1e6),
                               source_for(*v)};
    }
    template <class T>
    void measured_int(Known<T>& field, const std::string& memory, const std::string& quantity) {
        if (const ProbeValue* v = usable(memory, quantity))
            field = Sourced<T>{static_cast<T>(std::llround(v->estimate.value)), source_for(*v)};
    }

    void level(std::vector<MemoryLevel>& levels, const std::string& name) {
        MemoryLevel l;
        l.name = name;
        l.shared_by = (name == "l2" || name == "dram" || name == "constant_l15") ? "gpu" : "sm";
        // L1 and L2: the probed capacity is what one SM sees (L1 at this carve-out, L2 as the
        // partition an SM reaches); the other memories' size is their capacity.
        if (name == "l1" || name == "l2")
            measured_int(l.effective_size_bytes, name, "size_bytes");
        else if (name != "dram")
            measured_int(l.size_bytes, name, "size_bytes");
        // The line benchmark measures how far apart misses recur in a 4-byte chase: what one
        // miss fetches. In the sectored L1 and L2 that is the 32-byte sector, so it is their
        // sector_bytes; the line a tag covers is the tag_line benchmark's (L1).
        if (name == "l1" || name == "l2") {
            measured_int(l.sector_bytes, name, "line_bytes");
            measured_int(l.line_bytes, name, "tag_line_bytes");
            if (l.line_bytes && l.sector_bytes &&
                l.line_bytes->value % l.sector_bytes->value != 0) {
                m_.identity.notes += fmt::format(
                    " The {} tag line measured ({} B) is not a multiple of its sector ({} B): "
                    "left out.",
                    name, l.line_bytes->value, l.sector_bytes->value);
                l.line_bytes.reset();
            }
        } else {
            measured_int(l.line_bytes, name, "line_bytes");
        }
        measured(l.latency_cycles, name, "latency_cycles");
        measured(l.sustained_bandwidth_gbs, name, "load_bandwidth_gbs");
        measured(l.store_bandwidth_gbs, name, "store_bandwidth_gbs");
        measured(l.latency_near_cycles, name, "near_latency_cycles");
        measured(l.latency_far_cycles, name, "far_latency_cycles");
        measured_int(l.partitions, name, "partitions");
        measured_int(l.count_per_sm, name, "count_per_sm");
        carveout_sizes(l);
        if (name == "dram" || name == "l2")
            mixed_bandwidths(l);
        if (name == "dram") {
            loaded_latencies(l);
            in_flight_bandwidths(l);
        }
        levels.push_back(std::move(l));
    }

    // Sizes searched at forced carve-outs: one list per memory, one source whose uncertainty
    // is the worst of its entries.
    void carveout_sizes(MemoryLevel& l) {
        std::vector<const ProbeValue*> found;
        for (const auto& v : analysis_.values)
            if (v.memory == l.name && v.carveout_shared_kib >= 0 && v.estimate.within_bounds)
                found.push_back(&v);
        if (found.empty())
            return;
        std::sort(found.begin(), found.end(), [](const ProbeValue* a, const ProbeValue* b) {
            return a->carveout_shared_kib < b->carveout_shared_kib;
        });
        std::vector<CarveoutSize> sizes;
        std::vector<const ProbeValue*> used;
        std::string citation = "kerncast probe, size searches at forced shared-memory carve-outs "
                               "(shared_kib = the shared memory each block claimed, so the "
                               "carve-out held at least that much):";
        for (const ProbeValue* v : found) {
            if (!sizes.empty() && sizes.back().shared_kib == v->carveout_shared_kib)
                continue;
            sizes.push_back({v->carveout_shared_kib,
                             static_cast<std::int64_t>(std::llround(v->estimate.value))});
            used.push_back(v);
            citation += fmt::format(" {} KiB: benchmark {}, {} repetition(s), confidence {};",
                                    v->carveout_shared_kib, v->benchmark, v->estimate.repetitions,
                                    to_string(v->estimate.confidence));
        }
        const std::string key =
            list_source(l.name + ".size_bytes_by_carveout", std::move(citation), used);
        l.effective_size_by_carveout = Sourced<std::vector<CarveoutSize>>{sizes, key};
    }

    // The DRAM's (L2's) bandwidth of each load/store mix the probe timed: one list, sorted by
    // store fraction, with one source whose uncertainty is the worst of its entries.
    void mixed_bandwidths(MemoryLevel& l) {
        std::vector<const ProbeValue*> found;
        for (const auto& v : analysis_.values)
            if (v.memory == l.name && v.quantity == "mixed_bandwidth_gbs" &&
                v.store_fraction >= 0 && v.estimate.within_bounds)
                found.push_back(&v);
        if (found.empty())
            return;
        std::stable_sort(found.begin(), found.end(), [](const ProbeValue* a, const ProbeValue* b) {
            return a->store_fraction < b->store_fraction;
        });
        std::vector<MixedBandwidth> entries;
        std::string citation =
            fmt::format("kerncast probe, {} streams of load/store mixes (store_fraction = stored "
                        "bytes over all bytes):",
                        l.name == "dram" ? "DRAM"
                        : l.name == "l2" ? "L2"
                                         : l.name);
        std::vector<const ProbeValue*> used;
        for (const ProbeValue* v : found) {
            const double fraction = rounded(v->store_fraction, 1e4);
            if (!entries.empty() && entries.back().store_fraction == fraction)
                continue; // another mix of the same fraction (1:1 and 2:2): the first
            entries.push_back({fraction, rounded(v->estimate.value, 10)});
            used.push_back(v);
            citation +=
                fmt::format(" {:.4g}: benchmark {}, median of {} launch(es), spread (MAD) {:g} "
                            "GB/s, {};",
                            entries.back().store_fraction, v->benchmark, v->estimate.repetitions,
                            v->estimate.spread, v->detail);
        }
        l.mixed_bandwidth_by_store_fraction = Sourced<std::vector<MixedBandwidth>>{
            entries,
            list_source(l.name + ".mixed_bandwidth_by_store_fraction", std::move(citation), used)};
    }

    // The latency under load: one list, sorted by store fraction and then bandwidth (a point
    // whose bandwidth rounds to one already listed for its fraction is left out), with one
    // source whose uncertainty is the worst of its entries.
    void loaded_latencies(MemoryLevel& l) {
        std::vector<const ProbeValue*> found;
        for (const auto& v : analysis_.values)
            if (v.memory == l.name && v.quantity == "loaded_latency_cycles" &&
                v.store_fraction >= 0 && v.bandwidth_gbs >= 0 && v.estimate.within_bounds)
                found.push_back(&v);
        if (found.empty())
            return;
        std::stable_sort(found.begin(), found.end(), [&](const ProbeValue* a, const ProbeValue* b) {
            return std::pair{rounded(a->store_fraction, 1e4), rounded(a->bandwidth_gbs, 10)} <
                   std::pair{rounded(b->store_fraction, 1e4), rounded(b->bandwidth_gbs, 10)};
        });
        std::vector<LoadedLatency> entries;
        std::vector<const ProbeValue*> used;
        std::string citation = "kerncast probe, a dependent DRAM load's latency while other "
                               "blocks stream (store_fraction of the streams' bytes):";
        for (const ProbeValue* v : found) {
            const LoadedLatency entry{rounded(v->store_fraction, 1e4),
                                      rounded(v->bandwidth_gbs, 10),
                                      rounded(v->estimate.value, 10)};
            if (!entries.empty() && entries.back().store_fraction == entry.store_fraction &&
                entries.back().bandwidth_gbs == entry.bandwidth_gbs)
                continue;
            entries.push_back(entry);
            used.push_back(v);
            // The spread of the same launches (same benchmark, mix and bandwidth), if measured.
            for (const auto& spread : analysis_.values)
                if (spread.quantity == "loaded_latency_stddev_cycles" &&
                    spread.benchmark == v->benchmark &&
                    spread.store_fraction == v->store_fraction &&
                    spread.bandwidth_gbs == v->bandwidth_gbs && spread.estimate.within_bounds)
                    entries.back().latency_stddev_cycles = rounded(spread.estimate.value, 10);
        }
        citation += fmt::format(" benchmark {}, {} points, each the median of {} repetition(s)",
                                used.front()->benchmark, entries.size(),
                                used.front()->estimate.repetitions);
        l.latency_under_load = Sourced<std::vector<LoadedLatency>>{
            entries, list_source(l.name + ".latency_under_load", std::move(citation), used)};
    }

    // The bandwidth by loads in flight: one list, sorted by store fraction and then bytes in
    // flight (each pair once), with one source whose uncertainty is the worst of its entries.
    void in_flight_bandwidths(MemoryLevel& l) {
        std::vector<const ProbeValue*> found;
        for (const auto& v : analysis_.values)
            if (v.memory == l.name && v.quantity == "in_flight_bandwidth_gbs" &&
                v.store_fraction >= 0 && v.store_fraction < 1 &&
                v.loads_in_flight_bytes_per_sm > 0 && v.estimate.within_bounds)
                found.push_back(&v);
        if (found.empty())
            return;
        std::stable_sort(found.begin(), found.end(), [&](const ProbeValue* a, const ProbeValue* b) {
            return std::pair{rounded(a->store_fraction, 1e4), a->loads_in_flight_bytes_per_sm} <
                   std::pair{rounded(b->store_fraction, 1e4), b->loads_in_flight_bytes_per_sm};
        });
        std::vector<InFlightBandwidth> entries;
        std::vector<const ProbeValue*> used;
        for (const ProbeValue* v : found) {
            const InFlightBandwidth entry{rounded(v->store_fraction, 1e4),
                                          v->loads_in_flight_bytes_per_sm,
                                          rounded(v->estimate.value, 10)};
            if (!entries.empty() && entries.back().store_fraction == entry.store_fraction &&
                entries.back().loads_in_flight_bytes_per_sm == entry.loads_in_flight_bytes_per_sm)
                continue; // another mix of the same fraction (1:1 and 2:2): the first
            entries.push_back(entry);
            used.push_back(v);
        }
        std::string citation = fmt::format(
            "kerncast probe, DRAM bandwidth (loads + stores) of each load/store mix by the load "
            "bytes an SM's threads keep in flight: benchmark {}, the launches of one block an SM "
            "({} points, each the median of {} launches)",
            used.front()->benchmark, entries.size(), used.front()->estimate.repetitions);
        l.bandwidth_by_loads_in_flight = Sourced<std::vector<InFlightBandwidth>>{
            entries,
            list_source(l.name + ".bandwidth_by_loads_in_flight", std::move(citation), used)};
    }

    // The source of a list of probed values: `citation` (its trailing ';' dropped), the worst
    // uncertainty of the values.
    std::string list_source(const std::string& field, std::string citation,
                            const std::vector<const ProbeValue*>& values) {
        Uncertainty worst{0, "high", 1 << 30};
        const auto rank = [](const std::string& c) { return c == "high" ? 2 : c == "medium"; };
        for (const ProbeValue* v : values) {
            const Uncertainty u = uncertainty_of(v->estimate);
            worst.relative_spread = std::max(worst.relative_spread, u.relative_spread);
            worst.repetitions = std::min(worst.repetitions, u.repetitions);
            if (rank(u.confidence) < rank(worst.confidence))
                worst.confidence = u.confidence;
        }
        if (!citation.empty() && citation.back() == ';')
            citation.pop_back();
        const std::string key = "probe:" + field;
        Provenance provenance{SourceKind::measured, std::move(citation), run_};
        provenance.uncertainty = worst;
        m_.sources[key] = provenance;
        return key;
    }

    // Texture and read-only caches that the sharing benchmarks found to be the L1 (or, for
    // read-only, the texture cache) name it in same_cache_as (thesis sec. 4.5).
    void same_caches() {
        for (const char* name : {"texture", "readonly"}) {
            MemoryLevel* level = find(m_.special_memories, name);
            if (!level)
                continue;
            const std::vector<std::pair<std::string, std::string>> candidates{{"l1", name},
                                                                              {"texture", name}};
            for (const auto& [cache, other] : candidates) {
                if (cache == name)
                    continue;
                const ProbeValue* v = usable(cache, "same_cache_as:" + other);
                if (v && v->estimate.value >= 0.5) {
                    level->same_cache_as = Sourced<std::string>{cache, source_for(*v)};
                    break;
                }
            }
        }
    }

    // TLB levels l1_tlb, l2_tlb, ... as the analysis numbered them.
    void tlbs() {
        for (int k = 1;; ++k) {
            const std::string name = fmt::format("l{}_tlb", k);
            if (!analysis_.find(name, "reach_bytes") &&
                !analysis_.find(name, "miss_latency_cycles"))
                break;
            TlbLevel tlb;
            tlb.name = name;
            // shared_by stays empty: the probe does not measure which units share a TLB.
            measured_int(tlb.reach_bytes, name, "reach_bytes");
            measured_int(tlb.page_bytes, name, "page_bytes");
            measured(tlb.miss_latency_cycles, name, "miss_latency_cycles");
            if (tlb.reach_bytes || tlb.page_bytes || tlb.miss_latency_cycles)
                m_.tlbs.push_back(std::move(tlb));
        }
    }

    const ProbeAnalysis& analysis_;
    std::string run_;
    MachineModel m_;
};

} // namespace

MachineModel machine_from_probe(const ProbeAnalysis& analysis, const std::string& run) {
    return Builder(analysis, run).build();
}

} // namespace kerncast::probe
