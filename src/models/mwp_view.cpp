#include "kerncast/models/mwp_view.hpp"

#include <fmt/format.h>

namespace kerncast::models {
namespace {

using report::Cell;

Cell optional_cell(const std::optional<double>& value) {
    return value ? Cell{*value} : Cell{std::monostate{}};
}

Cell optional_cell(const std::optional<int>& value) {
    return value ? Cell{std::int64_t{*value}} : Cell{std::monostate{}};
}

report::Table workload_table(const MwpCwpResult& r) {
    const Workload& w = r.workload;
    report::Table t;
    t.key = "workload";
    t.title = "Workload (Hong & Kim 2009, Table 1)";
    t.columns = {{"parameter", "parameter", "", -1},
                 {"symbol", "paper", "", -1},
                 {"value", "value", "", -1},
                 {"unit", "unit", "", -1}};
    auto row = [&](const char* key, const char* symbol, Cell value, const char* unit) {
        t.rows.push_back({key, symbol, std::move(value), unit});
    };
    row("threads_per_block", "#Threads_per_block", std::int64_t{w.threads_per_block}, "");
    row("blocks", "#Blocks", std::int64_t{w.blocks}, "");
    row("comp_insts", "#Comp_insts", w.comp_insts, "per thread");
    row("uncoal_mem_insts", "#Uncoal_Mem_insts", w.uncoal_mem_insts, "per thread");
    row("coal_mem_insts", "#Coal_Mem_insts", w.coal_mem_insts, "per thread");
    row("synch_insts", "#Synch_insts", w.synch_insts, "per thread");
    row("uncoal_per_mw", "#Uncoal_per_mw", w.uncoal_per_mw, "transactions");
    row("load_bytes_per_warp", "Load_bytes_per_warp", w.load_bytes_per_warp, "B");
    row("registers_per_thread", "Registers per thread", optional_cell(w.registers_per_thread), "");
    row("shared_memory_per_block_bytes", "Shared memory per block",
        optional_cell(w.shared_memory_per_block_bytes), "B");
    row("active_blocks_per_sm", "#Active_blocks_per_SM (given)",
        optional_cell(w.active_blocks_per_sm), "");
    row("active_sms", "#Active_SMs (given)", optional_cell(w.active_sms), "");
    return t;
}

report::Table machine_table(const MwpCwpResult& r) {
    const auto& p = r.machine;
    report::Table t;
    t.key = "machine";
    t.title = "Machine parameters of '" + r.machine_label + "' (Table 1 rows 1-7)";
    t.columns = {{"symbol", "paper", "", -1},
                 {"value", "value", "", -1},
                 {"unit", "unit", "", -1},
                 {"field", "machine field", "", -1},
                 {"source", "source", "", -1}};
    auto row = [&](const char* symbol, const UsedParameter& used, const char* unit) {
        t.rows.push_back({symbol, used.value, unit, used.field, used.source});
    };
    row("#SMs", p.sm_count, "");
    row("#Threads_per_warp", p.warp_size, "");
    row("Freq", p.clock_mhz, "MHz");
    row("Mem_Bandwidth", p.mem_bandwidth_gbs, "GB/s");
    row("Mem_LD", p.mem_ld_cycles, "cycles");
    row("Departure_del_uncoal", p.departure_del_uncoal, "cycles");
    row("Departure_del_coal", p.departure_del_coal, "cycles");
    row("Issue_cycles", p.issue_cycles, "cycles");
    return t;
}

report::Table occupancy_table(const OccupancyResult& o) {
    report::Table t;
    t.key = "occupancy";
    t.title = "Occupancy (CUDA Occupancy Calculator rules)";
    t.columns = {{"limit", "limit", "", -1},
                 {"blocks_per_sm", "blocks/SM", "", -1},
                 {"binding", "binds", "", -1}};
    auto row = [&](OccupancyLimit limit, Cell blocks) {
        t.rows.push_back({to_string(limit), std::move(blocks), o.binding_limit == limit});
    };
    row(OccupancyLimit::blocks, std::int64_t{o.blocks_limited_by_blocks});
    row(OccupancyLimit::warps, std::int64_t{o.blocks_limited_by_warps});
    row(OccupancyLimit::registers, optional_cell(o.blocks_limited_by_registers));
    row(OccupancyLimit::shared_memory, optional_cell(o.blocks_limited_by_shared_memory));
    return t;
}

report::Table intermediates_table(const MwpCwpResult& r) {
    report::Table t;
    t.key = "intermediates";
    t.title = "MWP-CWP intermediates (Hong & Kim 2009, Table 2)";
    t.columns = {{"quantity", "quantity", "", -1},
                 {"symbol", "paper", "", -1},
                 {"equation", "eq.", "", -1},
                 {"value", "value", "", -1},
                 {"unit", "unit", "", -1}};
    auto row = [&](const char* key, const char* symbol, const char* equation, Cell value,
                   const char* unit) {
        t.rows.push_back({key, symbol, equation, std::move(value), unit});
    };
    const std::string exec_equation = fmt::format("({})", equation_number(r.execution_case));
    row("warps_per_block", "#Warps_per_block", "Table 1", std::int64_t{r.warps_per_block}, "");
    row("active_sms", "#Active_SMs", "Table 1", std::int64_t{r.active_sms}, "");
    row("active_blocks_per_sm", "#Active_blocks_per_SM", "Table 1",
        std::int64_t{r.active_blocks_per_sm}, "");
    row("active_warps_per_sm", "N", "(20)", std::int64_t{r.active_warps_per_sm}, "warps");
    row("mem_l_uncoal", "Mem_L_Uncoal", "(10)", r.mem_l_uncoal_cycles, "cycles");
    row("mem_l_coal", "Mem_L_Coal", "(11)", r.mem_l_coal_cycles, "cycles");
    row("weight_uncoal", "Weight_uncoal", "(13)", r.weight_uncoal, "");
    row("weight_coal", "Weight_coal", "(14)", r.weight_coal, "");
    row("mem_l", "Mem_L", "(12)", r.mem_l_cycles, "cycles");
    row("departure_delay", "Departure_delay", "(15)", r.departure_delay_cycles, "cycles");
    row("mwp_without_bw_full", "MWP_Without_BW_full", "(16)", optional_cell(r.mwp_without_bw_full),
        "warps");
    row("mwp_without_bw", "MWP_Without_BW", "(17)", optional_cell(r.mwp_without_bw), "warps");
    row("bw_per_warp", "BW_per_warp", "(7)", optional_cell(r.bw_per_warp_gbs), "GB/s");
    row("mwp_peak_bw", "MWP_peak_BW", "(6)", optional_cell(r.mwp_peak_bw), "warps");
    row("mwp", "MWP", "(5)", optional_cell(r.mwp), "warps");
    row("mwp_used", r.options.paper_rounding ? "MWP (rounded to 0.01)" : "MWP as used", "(22),(23)",
        optional_cell(r.mwp_used), "warps");
    row("comp_cycles", "Comp_cycles", "(19)", r.comp_cycles, "cycles");
    row("mem_cycles", "Mem_cycles", "(18)", r.mem_cycles, "cycles");
    row("cwp_full", "CWP_full", "(8)", r.cwp_full, "warps");
    row("cwp", "CWP", "(9)", r.cwp, "warps");
    row("rep", "#Rep", "(21)", r.rep, "");
    row("exec_cycles_app", "Exec_cycles_app", exec_equation.c_str(), r.exec_cycles_app, "cycles");
    row("mwp_in_synch", "MWP in Synch_cost", "(26)", r.mwp_in_synch, "warps");
    row("synch_cost", "Synch_cost", "(26)", r.synch_cost_cycles, "cycles");
    row("exec_cycles_with_synch", "Exec_cycles_with_synch", "(27)", r.exec_cycles_with_synch,
        "cycles");
    row("cpi", "CPI", "(25)", r.cpi, "cycles");
    row("time", "Exec_cycles_with_synch / Freq", "", r.time_seconds, "s");
    return t;
}

report::Table result_table(const MwpCwpResult& r) {
    report::Table t;
    t.key = "result";
    t.title = "Result";
    t.columns = {{"case_equation", "case", "", -1},
                 {"reason", "why", "", -1},
                 {"total_cycles", "total", "cycles", -1},
                 {"time_seconds", "time", "s", -1}};
    t.rows.push_back({fmt::format("({})", equation_number(r.execution_case)), r.case_reason,
                      r.exec_cycles_with_synch, r.time_seconds});
    return t;
}

} // namespace

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
    return doc;
}

} // namespace kerncast::models
