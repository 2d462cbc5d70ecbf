// The probe's benchmark kinds, one registry: for each kind (the "kind" of a RawBenchmark in
// raw.json) what it measures, the device plan that records it (which kernel, with which
// parameters: cuda/probe/ launched through probe_device.hpp) and the analysis that turns its
// raw series into ProbeValues. Each family of kinds lives in one file under
// src/probe/benchmarks/ (docs/architecture.md, "Adding a probe benchmark").
#pragma once

#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/raw_series.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kerncast::probe {

// What the analysis of one benchmark reads and writes: the record (device facts), the options,
// the result being built and the chase overheads (per memory, "" = common) that latencies
// subtract.
class AnalysisContext {
public:
    AnalysisContext(const ProbeRecord& probe_record, const AnalysisOptions& analysis_options,
                    ProbeAnalysis& analysis)
        : record(probe_record), options(analysis_options), result(analysis) {}

    // Appends a value after checking it against its physical bounds (statistics.hpp).
    void add(const RawBenchmark& b, std::string memory, std::string quantity, std::string unit,
             Estimate estimate, const PhysicalBounds& bounds, std::string detail);
    // A benchmark that gave no value, and why ("<benchmark>: <text>").
    void note(const RawBenchmark& b, const std::string& text);

    const ProbeRecord& record;
    const AnalysisOptions& options;
    ProbeAnalysis& result;
    std::map<std::string, double> overheads;
};

// When a kind is analysed: calibrations (clock, overheads) before the measurements that use
// them, derived values (departure delays, which need the DRAM latency) last.
enum class AnalysisPass { calibration, measurement, derived };

struct BenchmarkKind {
    std::string_view name;        // RawBenchmark::kind
    std::string_view measures;    // the quantities it yields
    std::string_view device_plan; // kernel and parameters that record it (cuda/probe/)
    AnalysisPass pass = AnalysisPass::measurement;
    void (*analyse)(const RawBenchmark& benchmark, AnalysisContext& context) = nullptr;
};

// Every kind, in the order the analysis runs them within a pass.
const std::vector<BenchmarkKind>& benchmark_kinds();

// The kind named `name`, nullptr when there is none.
const BenchmarkKind* find_benchmark_kind(std::string_view name);

// Input error naming the benchmark and its kind: `benchmark "NAME" (kind KIND): problem`.
[[noreturn]] void bad_benchmark(const RawBenchmark& b, const std::string& problem);

} // namespace kerncast::probe
