#include "kerncast/machine/machine_view.hpp"

#include "machine_fields.hpp"

#include <string>

namespace kerncast {
namespace {

namespace mf = machine_fields;
using report::Cell;
using report::Column;
using report::Table;

std::string compute_capability(const MachineModel& m) {
    return std::to_string(m.identity.cc_major) + "." + std::to_string(m.identity.cc_minor);
}

Cell cell_of(int value) {
    return std::int64_t{value};
}
Cell cell_of(std::int64_t value) {
    return value;
}
Cell cell_of(double value) {
    return value;
}
Cell cell_of(const std::string& value) {
    return value;
}

// Long-format table: one row per known value, with its unit and source key; `owner_column`
// ("level", "tlb") names the column that says whose value a row is, "" for none.
Table quantity_table(std::string key, std::string title, const std::string& owner_column) {
    Table table;
    table.key = std::move(key);
    table.title = std::move(title);
    if (!owner_column.empty())
        table.columns.push_back({owner_column, owner_column, "", -1});
    table.columns.push_back({"quantity", "quantity", "", -1});
    table.columns.push_back({"value", "value", "", -1});
    table.columns.push_back({"unit", "unit", "", -1});
    table.columns.push_back({"source", "source", "", -1});
    return table;
}

template <class Section, std::size_t N>
void add_rows(Table& table, const Section& section, const std::array<mf::Field<Section>, N>& list,
              const std::string* owner_name) {
    for (const auto& field : list) {
        std::visit(
            [&](auto member) {
                const auto& known = section.*member;
                if (!known)
                    return;
                std::vector<Cell> row;
                if (owner_name)
                    row.push_back(*owner_name);
                row.push_back(std::string(field.key));
                row.push_back(cell_of(known->value));
                row.push_back(std::string(field.unit));
                row.push_back(known->source);
                table.rows.push_back(std::move(row));
            },
            field.member);
    }
}

Table levels_table(const std::vector<MemoryLevel>& levels, std::string key, std::string title) {
    Table table = quantity_table(std::move(key), std::move(title), "level");
    for (const auto& level : levels) {
        table.rows.push_back({level.name, std::string("shared_by"), level.shared_by,
                              std::string(""), std::string("")});
        add_rows(table, level, mf::level_fields, &level.name);
    }
    return table;
}

// Capacity of each level by shared-memory carve-out, one row per (level, carve-out).
Table carveout_sizes_table(const MachineModel& m) {
    Table table;
    table.key = "effective_size_by_carveout";
    table.title = "Effective size by shared-memory carve-out";
    table.columns = {{"level", "level", "", -1},
                     {"shared_kib", "shared memory", "KiB", -1},
                     {"effective_size_bytes", "effective size", "B", -1},
                     {"source", "source", "", -1}};
    for (const auto* levels : {&m.memory, &m.special_memories})
        for (const auto& level : *levels)
            if (const auto& sizes = level.effective_size_by_carveout)
                for (const auto& size : sizes->value)
                    table.rows.push_back({level.name, std::int64_t{size.shared_kib},
                                          size.effective_size_bytes, sizes->source});
    return table;
}

Table tlbs_table(const std::vector<TlbLevel>& tlbs) {
    Table table = quantity_table("tlbs", "Address translation (TLBs)", "tlb");
    for (const auto& tlb : tlbs) {
        if (!tlb.shared_by.empty())
            table.rows.push_back({tlb.name, std::string("shared_by"), tlb.shared_by,
                                  std::string(""), std::string("")});
        add_rows(table, tlb, mf::tlb_fields, &tlb.name);
    }
    return table;
}

// The sources; the uncertainty columns only when some source states one.
Table sources_table(const MachineModel& m) {
    Table table;
    table.key = "sources";
    table.title = "Sources";
    table.columns = {{"key", "key", "", -1},
                     {"kind", "kind", "", -1},
                     {"citation", "citation", "", -1},
                     {"run", "run", "", -1}};
    bool any_uncertainty = false;
    for (const auto& [key, provenance] : m.sources)
        any_uncertainty = any_uncertainty || provenance.uncertainty.has_value();
    if (any_uncertainty) {
        table.columns.push_back({"relative_spread", "spread", "", -1});
        table.columns.push_back({"confidence", "confidence", "", -1});
        table.columns.push_back({"repetitions", "repetitions", "", -1});
    }
    for (const auto& [key, provenance] : m.sources) {
        std::vector<Cell> row{key, std::string(source_kind_name(provenance.kind)),
                              provenance.citation,
                              provenance.run.empty() ? Cell{} : Cell{provenance.run}};
        if (any_uncertainty) {
            if (const auto& u = provenance.uncertainty) {
                row.push_back(u->relative_spread);
                row.push_back(u->confidence);
                row.push_back(std::int64_t{u->repetitions});
            } else {
                row.insert(row.end(), 3, Cell{});
            }
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace

report::Document machines_view(const std::vector<MachineModel>& machines) {
    report::Document doc;
    doc.schema = "kerncast.machines/1";
    doc.title = "Machine models";
    Table table;
    table.key = "machines";
    table.title = "";
    table.columns = {
        {"id", "id", "", -1},
        {"name", "name", "", -1},
        {"compute_capability", "CC", "", -1},
        {"sm_count", "SMs", "", -1},
        {"l2_size_mib", "L2", "MiB", -1},
        {"dram_peak_bandwidth_gbs", "DRAM peak", "GB/s", -1},
        {"dram_sustained_bandwidth_gbs", "DRAM sustained", "GB/s", -1},
    };
    for (const auto& m : machines) {
        std::vector<Cell> row{m.identity.id, m.identity.name, compute_capability(m)};
        row.push_back(m.compute.sm_count ? Cell{std::int64_t{m.compute.sm_count->value}} : Cell{});
        const MemoryLevel* l2 = m.level("l2");
        row.push_back(l2 && l2->size_bytes
                          ? Cell{static_cast<double>(l2->size_bytes->value) / (1024.0 * 1024.0)}
                          : Cell{});
        const MemoryLevel* dram = m.level("dram");
        row.push_back(dram && dram->peak_bandwidth_gbs ? Cell{dram->peak_bandwidth_gbs->value}
                                                       : Cell{});
        row.push_back(dram && dram->sustained_bandwidth_gbs
                          ? Cell{dram->sustained_bandwidth_gbs->value}
                          : Cell{});
        table.rows.push_back(std::move(row));
        if (m.identity.incomplete)
            doc.notes.push_back(
                m.identity.id + " is incomplete: " +
                (m.identity.notes.empty() ? "it lacks values some models need" : m.identity.notes));
    }
    doc.tables.push_back(std::move(table));
    doc.notes.push_back("'-' = unknown; `kerncast machine show ID` prints every value with its "
                        "source");
    return doc;
}

report::Document machine_view(const MachineModel& m) {
    report::Document doc;
    doc.schema = "kerncast.machine-report/1";
    doc.title = "Machine " + m.identity.id + ": " + m.identity.name;

    Table identity;
    identity.key = "identity";
    identity.title = "Identity";
    identity.columns = {{"field", "field", "", -1}, {"value", "value", "", -1}};
    identity.rows = {
        {std::string("id"), m.identity.id},
        {std::string("name"), m.identity.name},
        {std::string("vendor"), m.identity.vendor},
        {std::string("architecture"), m.identity.architecture},
        {std::string("compute_capability"), compute_capability(m)},
        {std::string("incomplete"), m.identity.incomplete},
    };
    if (!m.identity.notes.empty())
        identity.rows.push_back({std::string("notes"), m.identity.notes});
    doc.tables.push_back(std::move(identity));

    Table compute = quantity_table("compute", "Compute units and occupancy limits", "");
    add_rows(compute, m.compute, mf::compute_fields, nullptr);
    if (const auto& carveouts = m.compute.shared_memory_carveouts_kib) {
        std::string list;
        for (int kib : carveouts->value)
            list += (list.empty() ? "" : ", ") + std::to_string(kib);
        compute.rows.push_back({std::string("shared_memory_carveouts_kib"), list,
                                std::string("KiB"), carveouts->source});
    }
    doc.tables.push_back(std::move(compute));

    if (!m.compute.issue_rates.empty()) {
        Table rates;
        rates.key = "issue_rates";
        rates.title = "Issue rates";
        rates.columns = {{"op", "op", "", -1},
                         {"dtype", "dtype", "", -1},
                         {"per_cycle_per_sm", "results", "per cycle per SM", -1},
                         {"source", "source", "", -1}};
        for (const auto& rate : m.compute.issue_rates)
            rates.rows.push_back(
                {rate.op, rate.dtype, rate.per_cycle_per_sm.value, rate.per_cycle_per_sm.source});
        doc.tables.push_back(std::move(rates));
    }

    doc.tables.push_back(levels_table(m.memory, "memory", "Memory hierarchy"));
    if (!m.special_memories.empty())
        doc.tables.push_back(
            levels_table(m.special_memories, "special_memories", "Special memories"));
    if (Table sizes = carveout_sizes_table(m); !sizes.rows.empty())
        doc.tables.push_back(std::move(sizes));
    if (!m.tlbs.empty())
        doc.tables.push_back(tlbs_table(m.tlbs));

    Table banks = quantity_table("shared_memory_banks", "Shared-memory banks", "");
    add_rows(banks, m.shared_memory_banks, mf::bank_fields, nullptr);
    if (!banks.rows.empty())
        doc.tables.push_back(std::move(banks));

    Table mwp_cwp =
        quantity_table("mwp_cwp", "MWP-CWP parameters (Hong & Kim 2009, Tables 1 and 6)", "");
    add_rows(mwp_cwp, m.mwp_cwp, mf::mwp_cwp_fields, nullptr);
    if (!mwp_cwp.rows.empty())
        doc.tables.push_back(std::move(mwp_cwp));

    Table fits;
    fits.key = "capacity_fits";
    fits.title = "Capacity-miss fits, hit rate = a exp(-b exp(-c O)) (Ernst et al. 2023, sec. 4.5)";
    fits.columns = {{"fit", "fit", "", -1},
                    {"a", "a", "", -1},
                    {"b", "b", "", -1},
                    {"c", "c", "", -1},
                    {"source", "source", "", -1}};
    for (const auto& slot : mf::capacity_fit_slots) {
        if (const auto& fit = m.capacity_fits.*slot.member) {
            std::string source = fit->a.source;
            if (fit->b.source != source || fit->c.source != source)
                source += ", " + fit->b.source + ", " + fit->c.source;
            fits.rows.push_back(
                {std::string(slot.key), fit->a.value, fit->b.value, fit->c.value, source});
        }
    }
    if (!fits.rows.empty())
        doc.tables.push_back(std::move(fits));

    if (!m.calibrated_costs.empty()) {
        Table costs;
        costs.key = "calibrated_costs";
        costs.title = "Calibrated cost parameters";
        costs.columns = {
            {"name", "name", "", -1}, {"value", "value", "", -1}, {"source", "source", "", -1}};
        for (const auto& [name, cost] : m.calibrated_costs)
            costs.rows.push_back({name, cost.value, cost.source});
        doc.tables.push_back(std::move(costs));
    }

    if (m.atomic_service_times) {
        Table atomics;
        atomics.key = "atomic_service_times";
        atomics.title = "Shared-memory atomic service times S(n, e, c) (Dong & Pai 2025), source " +
                        m.atomic_service_times->source;
        atomics.columns = {{"queued_warps", "n", "", -1},
                           {"active_threads", "e", "", -1},
                           {"cas_warps", "c", "", -1},
                           {"cycles", "S", "cycles", -1}};
        for (const auto& entry : m.atomic_service_times->entries)
            atomics.rows.push_back({std::int64_t{entry.queued_warps},
                                    std::int64_t{entry.active_threads},
                                    std::int64_t{entry.cas_warps}, entry.cycles});
        doc.tables.push_back(std::move(atomics));
    }

    doc.tables.push_back(sources_table(m));
    return doc;
}

} // namespace kerncast
