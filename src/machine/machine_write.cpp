// Writing a MachineModel as a machine document (docs/machine-format.md): each section's most
// common source becomes its default, values with another source carry their own.
#include "machine_write.hpp"

#include "kerncast/machine/machine_json.hpp"
#include "machine_fields.hpp"
#include "machine_layout.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast {
namespace machine_format {
namespace {

namespace mf = machine_fields;

// Counts sources in a section so the most common one becomes the section's default.
class SourceTally {
public:
    void add(const std::string& source) {
        if (counts_.emplace(source, 0).second)
            order_.push_back(source);
        ++counts_[source];
    }
    template <class T> void add(const Known<T>& value) {
        if (value)
            add(value->source);
    }
    std::string most_common() const {
        std::string best;
        int best_count = 0;
        for (const auto& source : order_) {
            if (counts_.at(source) > best_count) {
                best = source;
                best_count = counts_.at(source);
            }
        }
        return best;
    }

private:
    std::map<std::string, int> counts_;
    std::vector<std::string> order_;
};

// explicit_sources: every value as {"value", "source"} and no section defaults (the form an
// "extends" overlay is merged onto, so that a default in the overlay never re-attributes a
// value of the base machine).
// Json: nlohmann::json (sorted keys) or nlohmann::ordered_json (keys in the order written,
// which is the order docs/machine-format.md lists them).
template <class Json> class Writer {
public:
    explicit Writer(bool explicit_sources) : explicit_(explicit_sources) {}

    template <class T>
    void value(Json& object, const std::string& key, const Sourced<T>& sourced,
               const std::string& section_source) const {
        if (!explicit_ && sourced.source == section_source)
            object[key] = sourced.value;
        else
            object[key] = Json{{"value", sourced.value}, {"source", sourced.source}};
    }

    template <class Section, std::size_t N>
    std::string fields(Json& object, const Section& section,
                       const std::array<mf::Field<Section>, N>& list,
                       std::vector<std::string> extra_sources = {}) const {
        SourceTally tally;
        for (const auto& field : list)
            std::visit([&](auto member) { tally.add(section.*member); }, field.member);
        for (const auto& source : extra_sources)
            tally.add(source);
        const std::string source = explicit_ ? std::string() : tally.most_common();
        if (!source.empty())
            object["source"] = source;
        for (const auto& field : list) {
            std::visit(
                [&](auto member) {
                    const auto& known = section.*member;
                    if (known)
                        value(object, std::string(field.key), *known, source);
                },
                field.member);
        }
        return source;
    }

    // A list with one source, bare when the section's default source is its source.
    template <class T, class ElementToJson>
    void list(Json& object, const std::string& key, const Sourced<std::vector<T>>& sourced,
              const std::string& section_source, ElementToJson to_json) const {
        Json array = Json::array();
        for (const auto& element : sourced.value)
            array.push_back(to_json(element));
        if (!explicit_ && sourced.source == section_source)
            object[key] = array;
        else
            object[key] = Json{{"value", array}, {"source", sourced.source}};
    }

    Json level(const MemoryLevel& level) const {
        Json object = Json::object();
        object["name"] = level.name;
        object["shared_by"] = level.shared_by;
        std::vector<std::string> extra;
        if (level.effective_size_by_carveout)
            extra.push_back(level.effective_size_by_carveout->source);
        if (level.mixed_bandwidth_by_store_fraction)
            extra.push_back(level.mixed_bandwidth_by_store_fraction->source);
        if (level.latency_under_load)
            extra.push_back(level.latency_under_load->source);
        if (level.bandwidth_by_loads_in_flight)
            extra.push_back(level.bandwidth_by_loads_in_flight->source);
        const std::string source = fields(object, level, mf::level_fields, extra);
        if (level.effective_size_by_carveout)
            list(object, "effective_size_by_carveout", *level.effective_size_by_carveout, source,
                 [](const CarveoutSize& size) {
                     return Json{{"shared_kib", size.shared_kib},
                                 {"effective_size_bytes", size.effective_size_bytes}};
                 });
        if (level.mixed_bandwidth_by_store_fraction)
            list(object, "mixed_bandwidth_by_store_fraction",
                 *level.mixed_bandwidth_by_store_fraction, source, [](const MixedBandwidth& entry) {
                     return Json{{"store_fraction", entry.store_fraction},
                                 {"bandwidth_gbs", entry.bandwidth_gbs}};
                 });
        if (level.latency_under_load)
            list(object, "latency_under_load", *level.latency_under_load, source,
                 [](const LoadedLatency& entry) {
                     Json point{{"store_fraction", entry.store_fraction},
                                {"bandwidth_gbs", entry.bandwidth_gbs},
                                {"latency_cycles", entry.latency_cycles}};
                     if (entry.latency_stddev_cycles > 0)
                         point["latency_stddev_cycles"] = entry.latency_stddev_cycles;
                     return point;
                 });
        if (level.bandwidth_by_loads_in_flight)
            list(object, "bandwidth_by_loads_in_flight", *level.bandwidth_by_loads_in_flight,
                 source, [](const InFlightBandwidth& entry) {
                     return Json{
                         {"store_fraction", entry.store_fraction},
                         {"loads_in_flight_bytes_per_sm", entry.loads_in_flight_bytes_per_sm},
                         {"bandwidth_gbs", entry.bandwidth_gbs}};
                 });
        return object;
    }

    Json tlb(const TlbLevel& tlb) const {
        Json object = Json::object();
        object["name"] = tlb.name;
        if (!tlb.shared_by.empty())
            object["shared_by"] = tlb.shared_by;
        fields(object, tlb, mf::tlb_fields);
        return object;
    }

    Json machine(const MachineModel& m) const;

private:
    Json identity(const MachineIdentity& identity) const;
    static Json fit_provenance(const FitProvenance& f);
    static Json calibration_provenance(const CalibrationProvenance& c);
    Json sources(const std::map<std::string, Provenance>& all) const;
    Json compute(const ComputeUnits& units) const;
    Json capacity_fits(const CapacityFits& capacity_fits) const;
    template <class Costs> Json calibrated_costs(const Costs& calibrated) const;
    static Json atomic_service_times(const AtomicServiceTable& table);

    bool explicit_;
};

template <class Json> Json Writer<Json>::machine(const MachineModel& m) const {
    Json document = Json::object();
    document["schema"] = machine_schema;
    document["identity"] = identity(m.identity);
    document["sources"] = sources(m.sources);
    document["compute"] = compute(m.compute);

    document["memory"] = Json::array();
    for (const auto& level : m.memory)
        document["memory"].push_back(this->level(level));
    if (!m.special_memories.empty()) {
        document["special_memories"] = Json::array();
        for (const auto& level : m.special_memories)
            document["special_memories"].push_back(this->level(level));
    }
    if (!m.tlbs.empty()) {
        document["tlbs"] = Json::array();
        for (const auto& tlb : m.tlbs)
            document["tlbs"].push_back(this->tlb(tlb));
    }

    auto section = [&](const char* key, const auto& data, const auto& list) {
        Json object = Json::object();
        fields(object, data, list);
        if (object.size() > (object.contains("source") ? 1u : 0u))
            document[key] = object;
    };
    section("shared_memory_banks", m.shared_memory_banks, mf::bank_fields);
    section("mwp_cwp", m.mwp_cwp, mf::mwp_cwp_fields);

    Json fits = capacity_fits(m.capacity_fits);
    if (!fits.empty())
        document["capacity_fits"] = fits;
    if (!m.calibrated_costs.empty())
        document["calibrated_costs"] = calibrated_costs(m.calibrated_costs);
    if (m.atomic_service_times)
        document["atomic_service_times"] = atomic_service_times(*m.atomic_service_times);
    return document;
}

template <class Json> Json Writer<Json>::identity(const MachineIdentity& identity) const {
    Json object = Json::object();
    object["id"] = identity.id;
    object["name"] = identity.name;
    object["vendor"] = identity.vendor;
    object["architecture"] = identity.architecture;
    object["compute_capability"] =
        std::to_string(identity.cc_major) + "." + std::to_string(identity.cc_minor);
    if (identity.incomplete)
        object["incomplete"] = true;
    if (!identity.notes.empty())
        object["notes"] = identity.notes;
    if (!identity.device_names.empty())
        object["device_names"] = identity.device_names;
    return object;
}

template <class Json> Json Writer<Json>::fit_provenance(const FitProvenance& f) {
    Json fit = Json::object();
    fit["fits"] = f.fits;
    fit["records"] = f.records;
    fit["samples"] = f.samples;
    fit["median_abs_relative_error"] = f.median_abs_relative_error;
    fit["p90_abs_relative_error"] = f.p90_abs_relative_error;
    if (f.held_out_median_abs_relative_error)
        fit["held_out_median_abs_relative_error"] = *f.held_out_median_abs_relative_error;
    if (f.held_out_p90_abs_relative_error)
        fit["held_out_p90_abs_relative_error"] = *f.held_out_p90_abs_relative_error;
    fit["records_sha256"] = f.records_sha256;
    fit["date"] = f.date;
    fit["kerncast_version"] = f.kerncast_version;
    if (!f.oversubscription_ranges.empty()) {
        Json ranges = Json::object();
        for (const auto& [name, range] : f.oversubscription_ranges)
            ranges[name] = Json::array({range[0], range[1]});
        fit["oversubscription_ranges"] = ranges;
    }
    return fit;
}

template <class Json> Json Writer<Json>::calibration_provenance(const CalibrationProvenance& c) {
    return Json{{"model", c.model},
                {"model_sha256", c.model_sha256},
                {"parameters", c.parameters},
                {"records", c.records},
                {"records_sha256", c.records_sha256},
                {"relative_error", c.relative_error},
                {"non_negative", c.non_negative},
                {"residual_norm", c.residual_norm},
                {"geometric_mean_abs_relative_error", c.geometric_mean_abs_relative_error},
                {"max_abs_relative_error", c.max_abs_relative_error},
                {"date", c.date},
                {"kerncast_version", c.kerncast_version}};
}

template <class Json>
Json Writer<Json>::sources(const std::map<std::string, Provenance>& all) const {
    Json sources = Json::object();
    for (const auto& [key, provenance] : all) {
        Json entry{{"kind", source_kind_name(provenance.kind)}, {"citation", provenance.citation}};
        if (!provenance.run.empty())
            entry["run"] = provenance.run;
        if (const auto& u = provenance.uncertainty)
            entry["uncertainty"] = Json{{"relative_spread", u->relative_spread},
                                        {"confidence", u->confidence},
                                        {"repetitions", u->repetitions}};
        if (const auto& f = provenance.fit)
            entry["fit"] = fit_provenance(*f);
        if (const auto& c = provenance.calibration)
            entry["calibration"] = calibration_provenance(*c);
        sources[key] = entry;
    }
    return sources;
}

template <class Json> Json Writer<Json>::compute(const ComputeUnits& units) const {
    Json compute = Json::object();
    std::vector<std::string> extra;
    if (units.shared_memory_carveouts_kib)
        extra.push_back(units.shared_memory_carveouts_kib->source);
    const std::string compute_source = fields(compute, units, mf::compute_fields, extra);
    if (units.shared_memory_carveouts_kib)
        list(compute, "shared_memory_carveouts_kib", *units.shared_memory_carveouts_kib,
             compute_source, [](int kib) { return Json(kib); });
    if (!units.issue_rates.empty()) {
        Json rates = Json::array();
        for (const auto& rate : units.issue_rates) {
            Json entry{{"op", rate.op}, {"dtype", rate.dtype}};
            if (explicit_) {
                value(entry, "per_cycle_per_sm", rate.per_cycle_per_sm, "");
            } else {
                entry["per_cycle_per_sm"] = rate.per_cycle_per_sm.value;
                entry["source"] = rate.per_cycle_per_sm.source;
            }
            rates.push_back(entry);
        }
        compute["issue_rates"] = rates;
    }
    return compute;
}

template <class Json> Json Writer<Json>::capacity_fits(const CapacityFits& capacity_fits) const {
    Json fits = Json::object();
    for (const auto& slot : mf::capacity_fit_slots) {
        const auto& fit = capacity_fits.*slot.member;
        if (!fit)
            continue;
        Json object = Json::object();
        SourceTally tally;
        tally.add(fit->a.source);
        tally.add(fit->b.source);
        tally.add(fit->c.source);
        const std::string source = explicit_ ? std::string() : tally.most_common();
        if (!source.empty())
            object["source"] = source;
        value(object, "a", fit->a, source);
        value(object, "b", fit->b, source);
        value(object, "c", fit->c, source);
        fits[std::string(slot.key)] = object;
    }
    return fits;
}

template <class Json>
template <class Costs>
Json Writer<Json>::calibrated_costs(const Costs& calibrated) const {
    Json costs = Json::object();
    SourceTally tally;
    for (const auto& [name, cost] : calibrated)
        tally.add(cost.source);
    const std::string source = explicit_ ? std::string() : tally.most_common();
    if (!source.empty())
        costs["source"] = source;
    for (const auto& [name, cost] : calibrated)
        value(costs, name, cost, source);
    return costs;
}

template <class Json> Json Writer<Json>::atomic_service_times(const AtomicServiceTable& table) {
    Json operations = Json::array();
    for (const auto& grid : table.operations)
        operations.push_back(Json{{"operation", grid.operation},
                                  {"queued_warps", grid.queued_warps},
                                  {"active_threads", grid.active_threads},
                                  {"total_cycles", grid.total_cycles}});
    return Json{{"source", table.source}, {"operations", operations}};
}

} // namespace

nlohmann::json explicit_machine_json(const MachineModel& machine) {
    return Writer<nlohmann::json>(true).machine(machine);
}

} // namespace machine_format

std::string machine_json_text(const MachineModel& machine) {
    return machine_format::layout_machine_text(
               machine_format::Writer<nlohmann::ordered_json>(false).machine(machine)) +
           "\n";
}

nlohmann::json machine_to_json(const MachineModel& machine) {
    return machine_format::Writer<nlohmann::json>(false).machine(machine);
}

} // namespace kerncast
