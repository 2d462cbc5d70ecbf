// The analysis of a probe record: each benchmark goes to its kind's analysis (benchmark_kind.hpp),
// calibrations first, derived values last.
#include "kerncast/probe/analysis.hpp"

#include "kerncast/probe/benchmark_kind.hpp"

namespace kerncast::probe {

const ProbeValue* ProbeAnalysis::find(const std::string& memory,
                                      const std::string& quantity) const {
    for (const auto& v : values)
        if (v.memory == memory && v.quantity == quantity)
            return &v;
    return nullptr;
}

namespace {

// Runs the kinds of one pass over the record's benchmarks, in record order. Kinds the
// registry does not know are left alone (parse_probe_record rejects them on reading).
void analyse_pass(AnalysisPass pass, const ProbeRecord& record, AnalysisContext& context) {
    for (const auto& b : record.benchmarks) {
        const BenchmarkKind* kind = find_benchmark_kind(b.kind);
        if (kind && kind->pass == pass)
            kind->analyse(b, context);
    }
}

} // namespace

ProbeAnalysis analyse_probe_record(const ProbeRecord& record, const AnalysisOptions& options) {
    ProbeAnalysis result;
    result.device = record.device;
    result.sm_clock_measured_mhz = record.sm_clock_measured_mhz;
    result.carveout_percent = record.carveout_percent;
    result.l1_shared_bytes_per_sm = record.l1_shared_bytes_per_sm;
    result.date = record.date;
    result.command = record.command;
    result.tool_version = record.tool_version;
    AnalysisContext context(record, options, result);
    // Clock and overheads first: latencies subtract the overheads. Departure delays after
    // latencies: Mem_LD is the DRAM latency (Hong & Kim sec. 3.3.1).
    for (AnalysisPass pass :
         {AnalysisPass::calibration, AnalysisPass::measurement, AnalysisPass::derived})
        analyse_pass(pass, record, context);
    if (const auto* dram = result.find("dram", "latency_cycles")) {
        ProbeValue mem_ld = *dram;
        mem_ld.memory = "";
        mem_ld.quantity = "mem_ld_cycles";
        mem_ld.detail = "Hong & Kim 2009 Mem_LD: DRAM round-trip latency (= dram latency)";
        result.values.push_back(mem_ld);
    }
    return result;
}

} // namespace kerncast::probe
