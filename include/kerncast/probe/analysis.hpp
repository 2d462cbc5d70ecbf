// The analysis of a probe record: raw series -> values with spread and confidence ->
// MachineModel (provenance "measured", run = the record) and a report. Runs on any machine:
// it is what `kerncast probe` does after measuring and what `kerncast probe --replay` does
// with a recorded run.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/probe/change_point.hpp"
#include "kerncast/probe/raw_series.hpp"
#include "kerncast/probe/sharing.hpp"
#include "kerncast/probe/staircase.hpp"
#include "kerncast/probe/statistics.hpp"
#include "kerncast/report/document.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::probe {

// One probed quantity. memory is empty for device-wide values (clock, MWP-CWP delays).
struct ProbeValue {
    std::string memory;   // l1, texture, readonly, constant_l1, constant_l15, shared, l2, dram
    std::string quantity; // size_bytes, line_bytes, latency_cycles, load_bandwidth_gbs, ...
    std::string unit;     // "B", "cycles", "GB/s", "MHz", "" (counts), "bool"
    Estimate estimate;
    std::string benchmark; // the raw benchmark it came from
    std::string detail;    // how it was decided: bracket, test, best launch, ...
    // Sizes searched at a forced shared-memory carve-out: the shared memory (KiB) the
    // kernel claimed per block, so the carve-out was at least that. -1 otherwise.
    int carveout_shared_kib = -1;
    // mixed_bandwidth_gbs, loaded_latency_cycles: the mix's store bytes over all its bytes.
    // -1 otherwise.
    double store_fraction = -1;
    // loaded_latency_cycles: the bandwidth the streams reached meanwhile (GB/s). -1 otherwise.
    double bandwidth_gbs = -1;
    // in_flight_bandwidth_gbs: the load bytes each SM's threads kept in flight. -1 otherwise.
    double loads_in_flight_bytes_per_sm = -1;
};

// The latency-versus-footprint curve of one repetition of a size search, for the report's
// chart: the median timing of each footprint and the located change point, if verified.
struct LatencyCurve {
    std::string benchmark;
    std::string memory;
    int repetition = 0;
    std::vector<double> footprint_bytes;
    std::vector<double> median_latency;       // in `unit`
    std::string unit;                         // the benchmark's unit ("cycles")
    std::optional<double> change_point_bytes; // SizeLocation::size_bytes
};

struct ProbeAnalysis {
    gpu::DeviceInfo device;
    double sm_clock_measured_mhz = 0;
    int carveout_percent = -1;
    std::int64_t l1_shared_bytes_per_sm = 0;
    std::string date;
    std::string command;
    std::string tool_version;
    std::vector<ProbeValue> values;
    std::vector<std::string> notes;           // benchmarks without a value, and why
    std::vector<LatencyCurve> latency_curves; // every size search, by repetition

    const ProbeValue* find(const std::string& memory, const std::string& quantity) const;
};

struct AnalysisOptions {
    ChangePointOptions change_point{};  // size sweeps
    InterferenceOptions interference{}; // sharing, count per SM, L1 caching of global loads
    double alpha = 0.01;                // line-size and partition splits
    double min_line_agreement = 0.8;    // below: line size confidence low
    double min_partition_gap = 0.10;    // far/near latency ratio - 1 that counts as two partitions
    StaircaseOptions staircase{};       // TLB steps in latency-versus-footprint curves
    double page_size_tolerance = 0.25;  // reach within this of E * max(stride, page) agrees
};

// Analyses every benchmark of the record. Benchmarks whose series are inconsistent with
// their kind (missing labels, too few points) are input errors naming the benchmark.
ProbeAnalysis analyse_probe_record(const ProbeRecord& record, const AnalysisOptions& options = {});

// The machine model of the probed GPU: device-query facts plus every in-bounds probed value;
// each value's source records its estimate (median, spread, repetitions, confidence) and
// run. Out-of-bounds values are left out (they stay visible in probe_view).
MachineModel machine_from_probe(const ProbeAnalysis& analysis, const std::string& run);

// The report (schema "kerncast.probe/1"): device and settings, every value with spread,
// repetitions, p-value, confidence and bounds flag, and the notes.
report::Document probe_view(const ProbeAnalysis& analysis);

} // namespace kerncast::probe
