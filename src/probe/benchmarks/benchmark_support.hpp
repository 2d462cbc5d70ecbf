// Shared by the benchmark kinds of this directory: grouping and picking a benchmark's series,
// and each family's registration (benchmark_kind.cpp collects them into the registry).
#pragma once

#include "kerncast/probe/benchmark_kind.hpp"
#include "kerncast/probe/statistics.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast::probe::benchmarks {

// The series of each repetition, in record order.
std::map<int, std::vector<const RawSeries*>> by_repetition(const RawBenchmark& b);

// Every series of the benchmark, in record order.
std::vector<const RawSeries*> all_series(const RawBenchmark& b);

// The first series labelled `label`, nullptr when none is.
const RawSeries* labelled(const std::vector<const RawSeries*>& series, const std::string& label);

// The median of each series' values.
std::vector<double> medians(const std::vector<const RawSeries*>& series);

// The chase overhead to subtract from a chase of `memory` (thesis sec. 4.4): the overhead
// measured for that memory, else the common one, else none; and where it came from, in words.
struct ChaseOverhead {
    double cycles = 0;
    std::string source = "none recorded";
};
ChaseOverhead chase_overhead_of(const std::string& memory, const AnalysisContext& context);

// Each family's kinds (one file each).
std::vector<BenchmarkKind> clock_kinds();          // clock, overhead
std::vector<BenchmarkKind> size_kinds();           // size
std::vector<BenchmarkKind> line_kinds();           // line
std::vector<BenchmarkKind> tag_line_kinds();       // tag_line
std::vector<BenchmarkKind> latency_kinds();        // latency
std::vector<BenchmarkKind> caching_kinds();        // caching
std::vector<BenchmarkKind> sharing_kinds();        // sharing, count_per_sm
std::vector<BenchmarkKind> bandwidth_kinds();      // bandwidth
std::vector<BenchmarkKind> loaded_latency_kinds(); // loaded_latency
std::vector<BenchmarkKind> departure_kinds();      // departure
std::vector<BenchmarkKind> issue_rate_kinds();     // issue_rate
std::vector<BenchmarkKind> l2_partition_kinds();   // l2_partition
std::vector<BenchmarkKind> tlb_kinds();            // tlb
std::vector<BenchmarkKind> block_launch_kinds();   // block_launch

} // namespace kerncast::probe::benchmarks
