#include "kerncast/models/mwp_cwp/mwp_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models {
namespace {

using report::TableBuilder;

report::Table workload_table(const MwpCwpResult& r) {
    const Workload& w = r.workload;
    TableBuilder t("workload", "Workload (Hong & Kim 2009, Table 1)");
    t.columns({"parameter", {"symbol", "paper"}, "value", "unit"});
    t.row("threads_per_block", "#Threads_per_block", w.threads_per_block, "");
    t.row("blocks", "#Blocks", w.blocks, "");
    t.row("comp_insts", "#Comp_insts", w.comp_insts, "per thread");
    t.row("uncoal_mem_insts", "#Uncoal_Mem_insts", w.uncoal_mem_insts, "per thread");
    t.row("coal_mem_insts", "#Coal_Mem_insts", w.coal_mem_insts, "per thread");
    t.row("synch_insts", "#Synch_insts", w.synch_insts, "per thread");
    t.row("uncoal_per_mw", "#Uncoal_per_mw", w.uncoal_per_mw, "transactions");
    t.row("load_bytes_per_warp", "Load_bytes_per_warp", w.load_bytes_per_warp, "B");
    t.row("registers_per_thread", "Registers per thread", w.registers_per_thread, "");
    t.row("shared_memory_per_block_bytes", "Shared memory per block",
          w.shared_memory_per_block_bytes, "B");
    t.row("active_blocks_per_sm", "#Active_blocks_per_SM (given)", w.active_blocks_per_sm, "");
    t.row("active_sms", "#Active_SMs (given)", w.active_sms, "");
    return t.build();
}

report::Table machine_table(const MwpCwpResult& r) {
    TableBuilder t("machine", "Machine parameters of '" + r.machine_label + "' (Table 1 rows 1-7)");
    t.columns({{"symbol", "paper"}, "value", "unit", {"field", "machine field"}, "source"});
    auto row = [&](const char* symbol, const UsedParameter& used, const char* unit) {
        t.row(symbol, used.value, unit, used.field, used.source);
    };
    const auto& p = r.machine;
    row("#SMs", p.sm_count, "");
    row("#Threads_per_warp", p.warp_size, "");
    row("Freq", p.clock_mhz, "MHz");
    row("Mem_Bandwidth", p.mem_bandwidth_gbs, "GB/s");
    row("Mem_LD", p.mem_ld_cycles, "cycles");
    row("Departure_del_uncoal", p.departure_del_uncoal, "cycles");
    row("Departure_del_coal", p.departure_del_coal, "cycles");
    row("Issue_cycles", p.issue_cycles, "cycles");
    return t.build();
}

report::Table occupancy_table(const OccupancyResult& o) {
    TableBuilder t("occupancy", "Occupancy (CUDA Occupancy Calculator rules)");
    t.columns({"limit", {"blocks_per_sm", "blocks/SM"}, {"binding", "binds"}});
    auto row = [&](OccupancyLimit limit, const auto& blocks) {
        t.row(to_string(limit), blocks, o.binding_limit == limit);
    };
    row(OccupancyLimit::blocks, o.blocks_limited_by_blocks);
    row(OccupancyLimit::warps, o.blocks_limited_by_warps);
    row(OccupancyLimit::registers, o.blocks_limited_by_registers);
    row(OccupancyLimit::shared_memory, o.blocks_limited_by_shared_memory);
    return t.build();
}

report::Table intermediates_table(const MwpCwpResult& r) {
    TableBuilder t("intermediates", "MWP-CWP intermediates (Hong & Kim 2009, Table 2)");
    t.columns({"quantity", {"symbol", "paper"}, {"equation", "eq."}, "value", "unit"});
    const std::string exec_equation = fmt::format("({})", equation_number(r.execution_case));
    t.row("warps_per_block", "#Warps_per_block", "Table 1", r.warps_per_block, "");
    t.row("active_sms", "#Active_SMs", "Table 1", r.active_sms, "");
    t.row("active_blocks_per_sm", "#Active_blocks_per_SM", "Table 1", r.active_blocks_per_sm, "");
    t.row("active_warps_per_sm", "N", "(20)", r.active_warps_per_sm, "warps");
    t.row("mem_l_uncoal", "Mem_L_Uncoal", "(10)", r.mem_l_uncoal_cycles, "cycles");
    t.row("mem_l_coal", "Mem_L_Coal", "(11)", r.mem_l_coal_cycles, "cycles");
    t.row("weight_uncoal", "Weight_uncoal", "(13)", r.weight_uncoal, "");
    t.row("weight_coal", "Weight_coal", "(14)", r.weight_coal, "");
    t.row("mem_l", "Mem_L", "(12)", r.mem_l_cycles, "cycles");
    t.row("departure_delay", "Departure_delay", "(15)", r.departure_delay_cycles, "cycles");
    t.row("mwp_without_bw_full", "MWP_Without_BW_full", "(16)", r.mwp_without_bw_full, "warps");
    t.row("mwp_without_bw", "MWP_Without_BW", "(17)", r.mwp_without_bw, "warps");
    t.row("bw_per_warp", "BW_per_warp", "(7)", r.bw_per_warp_gbs, "GB/s");
    t.row("mwp_peak_bw", "MWP_peak_BW", "(6)", r.mwp_peak_bw, "warps");
    t.row("mwp", "MWP", "(5)", r.mwp, "warps");
    t.row("mwp_used", r.options.paper_rounding ? "MWP (rounded to 0.01)" : "MWP as used",
          "(22),(23)", r.mwp_used, "warps");
    t.row("comp_cycles", "Comp_cycles", "(19)", r.comp_cycles, "cycles");
    t.row("mem_cycles", "Mem_cycles", "(18)", r.mem_cycles, "cycles");
    t.row("cwp_full", "CWP_full", "(8)", r.cwp_full, "warps");
    t.row("cwp", "CWP", "(9)", r.cwp, "warps");
    t.row("rep", "#Rep", "(21)", r.rep, "");
    t.row("exec_cycles_app", "Exec_cycles_app", exec_equation, r.exec_cycles_app, "cycles");
    t.row("mwp_in_synch", "MWP in Synch_cost", "(26)", r.mwp_in_synch, "warps");
    t.row("synch_cost", "Synch_cost", "(26)", r.synch_cost_cycles, "cycles");
    t.row("exec_cycles_with_synch", "Exec_cycles_with_synch", "(27)", r.exec_cycles_with_synch,
          "cycles");
    t.row("cpi", "CPI", "(25)", r.cpi, "cycles");
    t.row("time", "Exec_cycles_with_synch / Freq", "", r.time_seconds, "s");
    return t.build();
}

report::Table result_table(const MwpCwpResult& r) {
    TableBuilder t("result", "Result");
    t.columns({{"case_equation", "case"},
               {"reason", "why"},
               {"total_cycles", "total", "cycles"},
               {"time_seconds", "time", "s"}});
    t.row(fmt::format("({})", equation_number(r.execution_case)), r.case_reason,
          r.exec_cycles_with_synch, r.time_seconds);
    return t.build();
}

} // namespace

// The cycle terms of eqs. (18), (19) and (22)-(27), for the HTML report's chart.
static report::Chart cycles_chart(const MwpCwpResult& r) {
    report::Chart chart;
    chart.key = "cycles";
    chart.title = fmt::format("Cycles per SM (Hong & Kim 2009, eqs. 18-27); Exec_cycles_app by "
                              "eq. ({})",
                              equation_number(r.execution_case));
    chart.kind = report::ChartKind::bar;
    chart.categories = {"Mem_cycles (18)", "Comp_cycles (19)", "Exec_cycles_app (22-24)",
                        "Synch_cost (26)", "Exec_cycles_with_synch (27)"};
    chart.x_axis = {"term", "", false};
    chart.y_axis = {"cycles", "cycles", false};
    chart.series.push_back({"cycles",
                            {},
                            {r.mem_cycles, r.comp_cycles, r.exec_cycles_app, r.synch_cost_cycles,
                             r.exec_cycles_with_synch},
                            {},
                            ""});
    return chart;
}

report::Document mwp_view(const MwpCwpResult& r) {
    report::Document doc;
    doc.schema = mwp_schema;
    const std::string workload_name = r.workload.name.empty() ? "workload" : r.workload.name;
    doc.title = "MWP-CWP model (Hong & Kim 2009): " + workload_name + " on " + r.machine_label;
    doc.tables.push_back(workload_table(r));
    doc.tables.push_back(machine_table(r));
    if (r.occupancy)
        doc.tables.push_back(occupancy_table(*r.occupancy));
    doc.tables.push_back(intermediates_table(r));
    doc.tables.push_back(result_table(r));

    doc.notes.push_back(
        r.active_blocks_per_sm_from_workload
            ? fmt::format("#Active_blocks_per_SM limit {} given by the workload{}",
                          r.active_blocks_per_sm_limit,
                          r.occupancy ? fmt::format(" (the occupancy calculation gives {})",
                                                    r.occupancy->active_blocks_per_sm)
                                      : "")
            : fmt::format("#Active_blocks_per_SM limit {} from the occupancy calculation "
                          "({} binds)",
                          r.active_blocks_per_sm_limit, to_string(r.occupancy->binding_limit)));
    if (r.active_blocks_per_sm < r.active_blocks_per_sm_limit)
        doc.notes.push_back(fmt::format("the launch gives each active SM at most {} blocks, "
                                        "fewer than the limit {}",
                                        r.active_blocks_per_sm, r.active_blocks_per_sm_limit));
    doc.notes.push_back(fmt::format(
        "options: paper rounding {}, #Rep ceiling {}, synchronisation bounded by block warps {}",
        r.options.paper_rounding ? "on" : "off", r.options.rep_ceiling ? "on" : "off",
        r.options.synch_bounded_by_block_warps ? "on" : "off"));
    for (const auto& warning : r.warnings)
        doc.notes.push_back("warning: " + warning);
    if (!r.workload.comment.empty())
        doc.notes.push_back("workload comment: " + r.workload.comment);
    doc.charts.push_back(cycles_chart(r));
    return doc;
}

} // namespace kerncast::models
