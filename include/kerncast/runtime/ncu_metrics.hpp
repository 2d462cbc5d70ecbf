// The Nsight Compute metrics kerncast collects, per GPU architecture, and the check of such a
// table against what `ncu --query-metrics` says a GPU offers.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace kerncast::runtime {

struct MetricSpec {
    std::string name;     // full ncu name with roll-up: "dram__bytes_read.sum"
    std::string unit;     // base unit ncu reports it in: "byte", "sector", "cycle", "inst", "%"
    std::string quantity; // what kerncast uses it for
    std::string source;   // where the choice comes from: the model / paper it feeds
};

struct ArchitectureMetrics {
    int cc_major = 0;
    int cc_minor = 0;
    std::string architecture; // "Volta (GV100)"
    std::vector<MetricSpec> metrics;
    // False until someone ran `ncu --query-metrics` on such a GPU and confirmed every name
    // (docs/gpu-runtime.md lists the state).
    bool checked_on_device = false;
};

// Tables for CC 7.0, 7.5, 8.0, 8.6, 8.9, 9.0, in that order.
const std::vector<ArchitectureMetrics>& metric_tables();

struct MetricTableChoice {
    const ArchitectureMetrics* table = nullptr;
    bool exact = false; // false: the GPU is newer than every table; the newest older one is used
};

// The table for a compute capability: the exact one, else the newest older one (exact =
// false). A GPU older than every table is an unavailable Error (ncu does not support it).
MetricTableChoice metric_table_for(int cc_major, int cc_minor);

// The metric names `ncu --query-metrics` printed (base names like "dram__bytes_read", or full
// names with --query-metrics-mode suffix): the first word of every line that looks like a
// metric name ("unit__counter"). Headers and descriptions are skipped.
std::set<std::string> parse_query_metrics(const std::string& ncu_output);

// The table's metrics that `available` (from parse_query_metrics) lacks. A metric is present
// when its full name or its base name (before the first '.') is listed.
std::vector<std::string> missing_metrics(const ArchitectureMetrics& table,
                                         const std::set<std::string>& available);

} // namespace kerncast::runtime
