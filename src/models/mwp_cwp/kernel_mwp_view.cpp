#include "kerncast/models/mwp_cwp/kernel_mwp_view.hpp"

#include "kerncast/models/mwp_cwp/mwp_view.hpp"
#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models::mwp_cwp {
namespace {

using report::TableBuilder;

report::Table instructions_table(const DerivedWorkload& d) {
    TableBuilder t("instructions",
                   "Instruction mapping: warp instructions per thread (docs/mwp-cwp.md)");
    t.columns({"class", {"per_thread", "per thread", "", 4}, {"counts_as", "counts as"}});
    const InstructionMix& m = d.mix;
    t.row("floating_point", m.floating_point, "computation");
    t.row("integer", m.integer, "computation");
    t.row("address", m.address, "computation");
    t.row("shared_memory", m.shared_memory, "computation");
    t.row("constant_memory", m.constant_memory, "computation");
    t.row("barriers", m.barriers, "computation + synchronisation");
    t.row("loop_control", m.loop_control, "computation");
    t.row("thread_setup", m.thread_setup, "computation");
    t.row("global_loads", m.global_loads, "memory");
    t.row("global_stores", m.global_stores, "memory");
    t.row("total", m.computation() + m.memory(), "");
    return t.build();
}

report::Table accesses_table(const DerivedWorkload& d) {
    TableBuilder t("accesses", "Global accesses under the " + to_string(d.rule));
    t.columns({"access",
               "direction",
               {"element_bytes", "B"},
               {"per_thread", "per thread", "", 4},
               {"transactions_per_warp", "transactions/warp", "", 2},
               {"sectors_per_warp", "sectors/warp", "", 2},
               {"lines_per_warp", "lines/warp", "", 2},
               {"warps_sampled", "warps"},
               "coalesced"});
    for (const auto& a : d.accesses)
        t.row(a.text, a.direction, a.element_bytes, a.per_thread, a.transactions_per_warp,
              a.sectors_per_warp, a.lines_per_warp, a.warps_sampled,
              a.indirect ? std::string("no (indirect)") : std::string(a.coalesced ? "yes" : "no"));
    return t.build();
}

report::Table loops_table(const DerivedWorkload& d) {
    TableBuilder t("loops", "Sequential loops");
    t.columns({"index",
               {"iterations_per_thread", "iterations/thread", "", 4},
               "unrolled",
               {"control_per_thread", "control insts/thread", "", 4}});
    for (const auto& l : d.loops)
        t.row(l.index, l.iterations_per_thread, l.unrolled, l.control_per_thread);
    return t.build();
}

report::Table levels_table(const CacheAwareResult& c) {
    TableBuilder t("levels", "Cache-aware inputs: latency and bandwidth per level");
    t.columns({"level",
               {"load_fraction", "load share", "", 4},
               {"latency_cycles", "latency", "cycles", 1},
               {"latency_field", "latency field"},
               {"bytes_per_point", "traffic", "B/point", 3},
               {"bytes_per_warp_inst", "per warp inst.", "B", 1},
               {"bandwidth_gbs", "bandwidth", "GB/s", 1},
               {"equivalent_bandwidth_gbs", "Mem_Bandwidth equiv.", "GB/s", 1},
               {"binds", "binds"}});
    for (const auto& s : c.levels)
        t.row(s.level, s.load_fraction, s.latency_cycles, s.latency_field, s.bytes_per_point,
              s.bytes_per_warp_inst, report::cell_if(s.bandwidth_gbs > 0, s.bandwidth_gbs),
              report::cell_if(s.equivalent_bandwidth_gbs > 0, s.equivalent_bandwidth_gbs),
              s.level == c.binding_level);
    return t.build();
}

} // namespace

report::Document kernel_mwp_view(const KernelMwpPrediction& p) {
    report::Document model = mwp_view(p.model);
    report::Document doc;
    doc.schema = model.schema;
    doc.title = fmt::format("MWP-CWP model (Hong & Kim 2009, {}): {} on {}", to_string(p.variant),
                            p.kernel, p.model.machine_label);
    doc.tables.push_back(instructions_table(p.derived));
    if (!p.derived.accesses.empty())
        doc.tables.push_back(accesses_table(p.derived));
    if (!p.derived.loops.empty())
        doc.tables.push_back(loops_table(p.derived));
    if (p.cache_aware)
        doc.tables.push_back(levels_table(*p.cache_aware));
    for (auto& table : model.tables)
        doc.tables.push_back(std::move(table));
    doc.notes = p.derived.notes;
    doc.notes.push_back(register_count_note(p.derived.registers));
    if (p.cache_aware)
        doc.notes.push_back(fmt::format(
            "cache-aware: Mem_LD = average latency {:.6g} cycles; Mem_Bandwidth = {:.6g} GB/s "
            "(bound by {}); departure delays x {:.6g} (the loads that miss L1)",
            p.cache_aware->average_latency_cycles, p.cache_aware->mem_bandwidth_gbs,
            p.cache_aware->binding_level, p.cache_aware->departure_scale));
    for (auto& note : model.notes)
        doc.notes.push_back(std::move(note));
    doc.charts = std::move(model.charts);
    return doc;
}
} // namespace kerncast::models::mwp_cwp
