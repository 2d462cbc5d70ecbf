#include "kerncast/machine/machine_view.hpp"

#include "kerncast/report/table_builder.hpp"
#include "machine_fields.hpp"

#include <fmt/format.h>
#include <string>

namespace kerncast {
namespace {

namespace mf = machine_fields;
using report::Cell;
using report::TableBuilder;

std::string compute_capability(const MachineModel& m) {
    return std::to_string(m.identity.cc_major) + "." + std::to_string(m.identity.cc_minor);
}

// The value of a known field; nullopt when it is unknown or the level is missing.
template <class T> std::optional<T> value_of(const Known<T>& known) {
    return known ? std::optional<T>(known->value) : std::nullopt;
}
template <class T>
std::optional<T> value_of(const MemoryLevel* level, Known<T> MemoryLevel::*member) {
    return level ? value_of(level->*member) : std::nullopt;
}

// Long-format table: one row per known value, with its unit and source key; `owner_column`
// ("level", "tlb") names the column that says whose value a row is, "" for none (rows then
// give a blank owner, which is dropped).
TableBuilder quantity_table(std::string key, std::string title, const std::string& owner_column) {
    TableBuilder table(std::move(key), std::move(title));
    table.column_if(!owner_column.empty(), owner_column);
    table.columns({"quantity", "value", "unit", "source"});
    return table;
}

template <class Section, std::size_t N>
void add_rows(TableBuilder& table, const Section& section,
              const std::array<mf::Field<Section>, N>& list, const Cell& owner = report::blank) {
    for (const auto& field : list) {
        std::visit(
            [&](auto member) {
                if (const auto& known = section.*member)
                    table.row(owner, field.key, known->value, field.unit, known->source);
            },
            field.member);
    }
}

report::Table levels_table(const std::vector<MemoryLevel>& levels, std::string key,
                           std::string title) {
    TableBuilder table = quantity_table(std::move(key), std::move(title), "level");
    for (const auto& level : levels) {
        table.row(level.name, "shared_by", level.shared_by, "", "");
        add_rows(table, level, mf::level_fields, level.name);
    }
    return table.build();
}

// Capacity of each level by shared-memory carve-out, one row per (level, carve-out).
report::Table carveout_sizes_table(const MachineModel& m) {
    TableBuilder table("effective_size_by_carveout", "Effective size by shared-memory carve-out");
    table.columns({"level",
                   {"shared_kib", "shared memory", "KiB"},
                   {"effective_size_bytes", "effective size", "B"},
                   "source"});
    for (const auto* levels : {&m.memory, &m.special_memories})
        for (const auto& level : *levels)
            if (const auto& sizes = level.effective_size_by_carveout)
                for (const auto& size : sizes->value)
                    table.row(level.name, size.shared_kib, size.effective_size_bytes,
                              sizes->source);
    return table.build();
}

// Bandwidth of each level by load/store mix, one row per (level, store fraction).
report::Table mixed_bandwidths_table(const MachineModel& m) {
    TableBuilder table("mixed_bandwidth_by_store_fraction", "Bandwidth by load/store mix");
    table.columns({"level",
                   {"store_fraction", "store fraction", "", 3},
                   {"bandwidth_gbs", "bandwidth", "GB/s"},
                   "source"});
    for (const auto& level : m.memory)
        if (const auto& entries = level.mixed_bandwidth_by_store_fraction)
            for (const auto& entry : entries->value)
                table.row(level.name, entry.store_fraction, entry.bandwidth_gbs, entries->source);
    return table.build();
}

// Latency of a dependent load by the bandwidth streamed beside it, one row per point.
report::Table loaded_latencies_table(const MachineModel& m) {
    TableBuilder table("latency_under_load", "Latency under load");
    table.columns({"level",
                   {"store_fraction", "store fraction", "", 3},
                   {"bandwidth_gbs", "bandwidth", "GB/s"},
                   {"latency_cycles", "latency", "cycles"},
                   {"latency_stddev_cycles", "std. dev.", "cycles"},
                   "source"});
    for (const auto& level : m.memory)
        if (const auto& entries = level.latency_under_load)
            for (const auto& entry : entries->value)
                table.row(
                    level.name, entry.store_fraction, entry.bandwidth_gbs, entry.latency_cycles,
                    report::cell_if(entry.latency_stddev_cycles > 0, entry.latency_stddev_cycles),
                    entries->source);
    return table.build();
}

// Bandwidth by the load bytes an SM keeps in flight, one row per (store fraction, bytes).
report::Table in_flight_bandwidths_table(const MachineModel& m) {
    TableBuilder table("bandwidth_by_loads_in_flight", "Bandwidth by load bytes in flight");
    table.columns({"level",
                   {"store_fraction", "store fraction", "", 3},
                   {"loads_in_flight_bytes_per_sm", "loads in flight an SM", "B"},
                   {"bandwidth_gbs", "bandwidth", "GB/s"},
                   "source"});
    for (const auto& level : m.memory)
        if (const auto& entries = level.bandwidth_by_loads_in_flight)
            for (const auto& entry : entries->value)
                table.row(level.name, entry.store_fraction, entry.loads_in_flight_bytes_per_sm,
                          entry.bandwidth_gbs, entries->source);
    return table.build();
}

report::Table tlbs_table(const std::vector<TlbLevel>& tlbs) {
    TableBuilder table = quantity_table("tlbs", "Address translation (TLBs)", "tlb");
    for (const auto& tlb : tlbs) {
        if (!tlb.shared_by.empty())
            table.row(tlb.name, "shared_by", tlb.shared_by, "", "");
        add_rows(table, tlb, mf::tlb_fields, tlb.name);
    }
    return table.build();
}

// The sources; the uncertainty columns only when some source states one.
report::Table sources_table(const MachineModel& m) {
    bool any_uncertainty = false;
    for (const auto& [key, provenance] : m.sources)
        any_uncertainty = any_uncertainty || provenance.uncertainty.has_value();
    TableBuilder table("sources", "Sources");
    table.columns({"key", "kind", "citation", "run"});
    table.columns_if(any_uncertainty, {{"relative_spread", "spread"}, "confidence", "repetitions"});
    for (const auto& [key, provenance] : m.sources) {
        const auto& u = provenance.uncertainty;
        table.row(key, source_kind_name(provenance.kind), provenance.citation,
                  report::cell_if(!provenance.run.empty(), provenance.run),
                  report::make_cell(u, &Uncertainty::relative_spread),
                  report::make_cell(u, &Uncertainty::confidence),
                  report::make_cell(u, &Uncertainty::repetitions));
    }
    return table.build();
}

// What the fitted sources rest on (`kerncast fit-volumes`); empty without fitted sources.
report::Table fit_provenance_table(const MachineModel& m) {
    TableBuilder table("fit_provenance", "Fitted sources: dataset and errors");
    table.columns({"key",
                   "fits",
                   {"oversubscription_ranges", "O of the samples"},
                   "records",
                   "samples",
                   {"median_abs_relative_error", "median |rel. error|", "", 4},
                   {"p90_abs_relative_error", "p90 |rel. error|", "", 4},
                   {"held_out_median_abs_relative_error", "held-out median", "", 4},
                   {"held_out_p90_abs_relative_error", "held-out p90", "", 4},
                   "records_sha256",
                   "date",
                   "kerncast_version"});
    for (const auto& [key, provenance] : m.sources) {
        if (!provenance.fit)
            continue;
        const FitProvenance& f = *provenance.fit;
        std::string fits;
        for (const auto& fit : f.fits)
            fits += (fits.empty() ? "" : ",") + fit;
        std::string ranges; // "y_layer_overlap 0.001-2.46, ..." in the order of `fits`
        for (const auto& fit : f.fits)
            if (const auto at = f.oversubscription_ranges.find(fit);
                at != f.oversubscription_ranges.end())
                ranges += (ranges.empty() ? "" : ", ") +
                          fmt::format("{} {:.3g}-{:.3g}", fit, at->second[0], at->second[1]);
        table.row(key, fits, ranges, f.records, f.samples, f.median_abs_relative_error,
                  f.p90_abs_relative_error, f.held_out_median_abs_relative_error,
                  f.held_out_p90_abs_relative_error, f.records_sha256, f.date, f.kerncast_version);
    }
    return table.build();
}

// What the calibrated sources rest on (`kerncast calibrate`); empty without them.
report::Table calibration_provenance_table(const MachineModel& m) {
    TableBuilder table("calibration_provenance", "Calibrated sources: model, dataset and errors");
    table.columns({"key",
                   "model",
                   "parameters",
                   "records",
                   "relative_error",
                   "non_negative",
                   {"residual_norm", "||r||", "", 6},
                   {"geometric_mean_abs_relative_error", "geo. mean |rel. error|", "", 4},
                   {"max_abs_relative_error", "max |rel. error|", "", 4},
                   "records_sha256",
                   "date",
                   "kerncast_version"});
    for (const auto& [key, provenance] : m.sources) {
        if (!provenance.calibration)
            continue;
        const CalibrationProvenance& c = *provenance.calibration;
        table.row(key, c.model, c.parameters.size(), c.records, c.relative_error, c.non_negative,
                  c.residual_norm, c.geometric_mean_abs_relative_error, c.max_abs_relative_error,
                  c.records_sha256, c.date, c.kerncast_version);
    }
    return table.build();
}

report::Table capacity_fits_table(const MachineModel& m) {
    TableBuilder table(
        "capacity_fits",
        "Capacity-miss fits, hit rate = a exp(-b exp(-c O)) (Ernst et al. 2023, sec. 4.5)");
    table.columns({"fit", "a", "b", "c", "source"});
    for (const auto& slot : mf::capacity_fit_slots) {
        if (const auto& fit = m.capacity_fits.*slot.member) {
            std::string source = fit->a.source;
            if (fit->b.source != source || fit->c.source != source)
                source += ", " + fit->b.source + ", " + fit->c.source;
            table.row(slot.key, fit->a.value, fit->b.value, fit->c.value, source);
        }
    }
    return table.build();
}

// One row per (operation, n, e) sample: T at c = 0 and c = n, and S = T / n at c = 0
// (Dong & Pai eq. 3); the whole grid is in the machine file.
report::Table atomic_service_times_table(const AtomicServiceTable& times) {
    TableBuilder table("atomic_service_times",
                       "Shared-memory atomic total times T(n, e, c) (Dong & Pai 2025), source " +
                           times.source);
    table.columns({{"operation", "Operation"},
                   {"queued_warps", "n"},
                   {"active_threads", "e"},
                   {"total_cycles_no_cas", "T(c=0)", "cycles"},
                   {"total_cycles_all_cas", "T(c=n)", "cycles"},
                   {"service_cycles_no_cas", "S(c=0)", "cycles"}});
    for (const auto& grid : times.operations)
        for (std::size_t n = 0; n < grid.total_cycles.size(); ++n)
            for (std::size_t e = 0; e < grid.total_cycles[n].size(); ++e) {
                const auto& by_cas = grid.total_cycles[n][e];
                table.row(grid.operation, grid.queued_warps[n], grid.active_threads[e],
                          by_cas.front(), by_cas.back(), by_cas.front() / grid.queued_warps[n]);
            }
    return table.build();
}

void add_if_rows(report::Document& doc, report::Table table) {
    if (!table.rows.empty())
        doc.tables.push_back(std::move(table));
}

} // namespace

report::Document machines_view(const std::vector<MachineModel>& machines) {
    report::Document doc;
    doc.schema = "kerncast.machines/1";
    doc.title = "Machine models";
    TableBuilder table("machines", "");
    table.columns({"id",
                   "name",
                   {"compute_capability", "CC"},
                   {"sm_count", "SMs"},
                   {"l2_size_mib", "L2", "MiB"},
                   {"dram_peak_bandwidth_gbs", "DRAM peak", "GB/s"},
                   {"dram_sustained_bandwidth_gbs", "DRAM sustained", "GB/s"}});
    for (const auto& m : machines) {
        const auto l2_bytes = value_of(m.level("l2"), &MemoryLevel::size_bytes);
        const MemoryLevel* dram = m.level("dram");
        table.row(
            m.identity.id, m.identity.name, compute_capability(m), value_of(m.compute.sm_count),
            l2_bytes ? std::optional<double>(static_cast<double>(*l2_bytes) / (1024.0 * 1024.0))
                     : std::nullopt,
            value_of(dram, &MemoryLevel::peak_bandwidth_gbs),
            value_of(dram, &MemoryLevel::sustained_bandwidth_gbs));
        if (m.identity.incomplete)
            doc.notes.push_back(
                m.identity.id + " is incomplete: " +
                (m.identity.notes.empty() ? "it lacks values some models need" : m.identity.notes));
    }
    doc.tables.push_back(table.build());
    doc.notes.push_back("'-' = unknown; `kerncast machine show ID` prints every value with its "
                        "source");
    return doc;
}

report::Document machine_view(const MachineModel& m) {
    report::Document doc;
    doc.schema = "kerncast.machine-report/1";
    doc.title = "Machine " + m.identity.id + ": " + m.identity.name;

    TableBuilder identity("identity", "Identity");
    identity.columns({"field", "value"});
    identity.row("id", m.identity.id)
        .row("name", m.identity.name)
        .row("vendor", m.identity.vendor)
        .row("architecture", m.identity.architecture)
        .row("compute_capability", compute_capability(m))
        .row("incomplete", m.identity.incomplete);
    if (!m.identity.notes.empty())
        identity.row("notes", m.identity.notes);
    if (!m.identity.device_names.empty()) {
        std::string names;
        for (const std::string& name : m.identity.device_names)
            names += (names.empty() ? "" : "; ") + name;
        identity.row("device_names", names);
    }
    doc.tables.push_back(identity.build());

    TableBuilder compute = quantity_table("compute", "Compute units and occupancy limits", "");
    add_rows(compute, m.compute, mf::compute_fields);
    if (const auto& carveouts = m.compute.shared_memory_carveouts_kib) {
        std::string list;
        for (int kib : carveouts->value)
            list += (list.empty() ? "" : ", ") + std::to_string(kib);
        compute.row(report::blank, "shared_memory_carveouts_kib", list, "KiB", carveouts->source);
    }
    doc.tables.push_back(compute.build());

    if (!m.compute.issue_rates.empty()) {
        TableBuilder rates("issue_rates", "Issue rates");
        rates.columns(
            {"op", "dtype", {"per_cycle_per_sm", "results", "per cycle per SM"}, "source"});
        for (const auto& rate : m.compute.issue_rates)
            rates.row(rate.op, rate.dtype, rate.per_cycle_per_sm.value,
                      rate.per_cycle_per_sm.source);
        doc.tables.push_back(rates.build());
    }

    doc.tables.push_back(levels_table(m.memory, "memory", "Memory hierarchy"));
    if (!m.special_memories.empty())
        doc.tables.push_back(
            levels_table(m.special_memories, "special_memories", "Special memories"));
    add_if_rows(doc, carveout_sizes_table(m));
    add_if_rows(doc, mixed_bandwidths_table(m));
    add_if_rows(doc, loaded_latencies_table(m));
    add_if_rows(doc, in_flight_bandwidths_table(m));
    if (!m.tlbs.empty())
        doc.tables.push_back(tlbs_table(m.tlbs));

    TableBuilder banks = quantity_table("shared_memory_banks", "Shared-memory banks", "");
    add_rows(banks, m.shared_memory_banks, mf::bank_fields);
    add_if_rows(doc, banks.build());

    TableBuilder mwp_cwp =
        quantity_table("mwp_cwp", "MWP-CWP parameters (Hong & Kim 2009, Tables 1 and 6)", "");
    add_rows(mwp_cwp, m.mwp_cwp, mf::mwp_cwp_fields);
    add_if_rows(doc, mwp_cwp.build());

    add_if_rows(doc, capacity_fits_table(m));

    if (!m.calibrated_costs.empty()) {
        TableBuilder costs("calibrated_costs", "Calibrated cost parameters");
        costs.columns({"name", "value", "source"});
        for (const auto& [name, cost] : m.calibrated_costs)
            costs.row(name, cost.value, cost.source);
        doc.tables.push_back(costs.build());
    }

    if (m.atomic_service_times)
        doc.tables.push_back(atomic_service_times_table(*m.atomic_service_times));

    doc.tables.push_back(sources_table(m));
    add_if_rows(doc, fit_provenance_table(m));
    add_if_rows(doc, calibration_provenance_table(m));
    return doc;
}

} // namespace kerncast
