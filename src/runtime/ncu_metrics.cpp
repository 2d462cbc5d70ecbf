// The per-architecture metric tables (docs/gpu-runtime.md, "Counters").
#include "kerncast/runtime/ncu_metrics.hpp"

#include "kerncast/error.hpp"

#include <regex>
#include <sstream>

namespace kerncast::runtime {
namespace {

// The metrics the models need. Volta through Hopper share the PerfWorks metric names used
// here as far as NVIDIA's documentation shows; the tables are separate so that a difference
// found with `ncu --query-metrics` on a device is a one-line change for that architecture.
std::vector<MetricSpec> common_metrics() {
    const std::string volumes = "Ernst et al. 2023: data volumes / limiter model";
    const std::string atomics = "Dong & Pai: shared-memory atomics, Table 1";
    return {
        {"dram__bytes_read.sum", "byte", "bytes read from DRAM", volumes},
        {"dram__bytes_write.sum", "byte", "bytes written to DRAM", volumes},
        {"lts__t_sectors_srcunit_tex_op_read.sum", "sector", "L2 sectors read by L1/TEX", volumes},
        {"lts__t_sectors_srcunit_tex_op_write.sum", "sector", "L2 sectors written by L1/TEX",
         volumes},
        {"l1tex__data_pipe_lsu_wavefronts.sum", "", "L1 data-pipe wavefronts (L1 cycles)", volumes},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector",
         "L1 sectors requested by global loads", volumes},
        {"sm__cycles_active.avg", "cycle", "cycles an SM had work, averaged over SMs (T)",
         volumes + "; " + atomics},
        {"sm__cycles_elapsed.avg", "cycle", "elapsed SM cycles, averaged over SMs", volumes},
        {"smsp__inst_executed.sum", "inst", "warp instructions executed", "instruction counts"},
        {"smsp__thread_inst_executed.sum", "inst", "thread instructions executed",
         "instruction counts"},
        {"smsp__inst_executed_op_global_ld.sum", "inst", "global load warp instructions",
         "instruction counts"},
        {"smsp__inst_executed_op_global_st.sum", "inst", "global store warp instructions",
         "instruction counts"},
        {"smsp__inst_executed_op_shared_ld.sum", "inst", "shared load warp instructions",
         "instruction counts"},
        {"smsp__inst_executed_op_shared_st.sum", "inst", "shared store warp instructions",
         "instruction counts"},
        // Dong & Pai, Table 1: N (nvprof shared_atom; N_f = N - N_c) and N_c (shared_atom_cas).
        {"smsp__inst_executed_op_shared_atom.sum", "inst",
         "shared-memory atomic warp instructions (N = N_f + N_c)", atomics},
        {"smsp__inst_executed_op_shared_atom_dot_cas.sum", "inst",
         "shared-memory CAS warp instructions (N_c)", atomics},
        {"smsp__inst_executed_op_shared_atom_dot_alu.sum", "inst",
         "shared-memory ALU-type atomic warp instructions", atomics},
        // Candidates for O: thread-level operand bytes, and the wavefronts (serialised passes)
        // that `kerncast atomics` reads (docs/atomics.md, "Counters").
        {"sm__sass_data_bytes_mem_shared_op_atom.sum", "byte",
         "bytes of shared-memory atomic operands (O x operand size)", atomics},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "",
         "shared-memory atomic wavefronts (bank-conflict serialisation)", atomics},
        // Dong & Pai, Table 1: o, achieved occupancy (nvprof achieved_occupancy).
        {"sm__warps_active.avg.pct_of_peak_sustained_active", "%", "achieved occupancy (o)",
         atomics},
    };
}

std::vector<ArchitectureMetrics> build_tables() {
    const std::vector<std::pair<std::pair<int, int>, const char*>> architectures = {
        {{7, 0}, "Volta (GV100)"},  {{7, 5}, "Turing (TU10x)"},       {{8, 0}, "Ampere (GA100)"},
        {{8, 6}, "Ampere (GA10x)"}, {{8, 9}, "Ada Lovelace (AD10x)"}, {{9, 0}, "Hopper (GH100)"},
    };
    std::vector<ArchitectureMetrics> tables;
    for (const auto& [cc, name] : architectures)
        tables.push_back({cc.first, cc.second, name, common_metrics(), false});
    return tables;
}

} // namespace

const std::vector<ArchitectureMetrics>& metric_tables() {
    static const std::vector<ArchitectureMetrics> tables = build_tables();
    return tables;
}

MetricTableChoice metric_table_for(int cc_major, int cc_minor) {
    const int wanted = cc_major * 10 + cc_minor;
    MetricTableChoice choice;
    for (const auto& table : metric_tables()) {
        const int cc = table.cc_major * 10 + table.cc_minor;
        if (cc == wanted)
            return {&table, true};
        if (cc < wanted)
            choice.table = &table;
    }
    if (!choice.table)
        throw Error(ErrorKind::unavailable,
                    "no Nsight Compute metric table for compute capability " +
                        std::to_string(cc_major) + "." + std::to_string(cc_minor) +
                        " (kerncast has tables for 7.0 and newer)");
    return choice;
}

std::set<std::string> parse_query_metrics(const std::string& ncu_output) {
    static const std::regex metric_name(R"([a-z0-9_]+__[a-z0-9_]+(\.[a-z0-9_]+)*)");
    std::set<std::string> names;
    std::istringstream lines(ncu_output);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first;
        if (words >> first && std::regex_match(first, metric_name))
            names.insert(first);
    }
    return names;
}

std::vector<std::string> missing_metrics(const ArchitectureMetrics& table,
                                         const std::set<std::string>& available) {
    std::vector<std::string> missing;
    for (const auto& metric : table.metrics) {
        const std::string base = metric.name.substr(0, metric.name.find('.'));
        if (!available.count(metric.name) && !available.count(base))
            missing.push_back(metric.name);
    }
    return missing;
}

} // namespace kerncast::runtime
