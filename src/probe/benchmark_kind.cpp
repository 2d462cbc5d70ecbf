#include "kerncast/probe/benchmark_kind.hpp"

#include "benchmarks/benchmark_support.hpp"
#include "kerncast/error.hpp"

#include <algorithm>

namespace kerncast::probe {

void AnalysisContext::add(const RawBenchmark& b, std::string memory, std::string quantity,
                          std::string unit, Estimate estimate, const PhysicalBounds& bounds,
                          std::string detail) {
    check_bounds(estimate, bounds);
    result.values.push_back({std::move(memory), std::move(quantity), std::move(unit),
                             std::move(estimate), b.name, std::move(detail)});
}

void AnalysisContext::note(const RawBenchmark& b, const std::string& text) {
    result.notes.push_back(b.name + ": " + text);
}

void bad_benchmark(const RawBenchmark& b, const std::string& problem) {
    throw_input_error("benchmark \"" + b.name + "\" (kind " + b.kind + "): " + problem);
}

const std::vector<BenchmarkKind>& benchmark_kinds() {
    static const std::vector<BenchmarkKind> kinds = [] {
        std::vector<BenchmarkKind> all;
        for (auto family :
             {benchmarks::clock_kinds, benchmarks::size_kinds, benchmarks::line_kinds,
              benchmarks::tag_line_kinds, benchmarks::latency_kinds, benchmarks::caching_kinds,
              benchmarks::sharing_kinds, benchmarks::bandwidth_kinds,
              benchmarks::loaded_latency_kinds, benchmarks::l2_partition_kinds,
              benchmarks::tlb_kinds, benchmarks::departure_kinds, benchmarks::issue_rate_kinds,
              benchmarks::block_launch_kinds}) {
            const auto registered = family();
            all.insert(all.end(), registered.begin(), registered.end());
        }
        return all;
    }();
    return kinds;
}

const BenchmarkKind* find_benchmark_kind(std::string_view name) {
    const auto& kinds = benchmark_kinds();
    const auto it = std::find_if(kinds.begin(), kinds.end(),
                                 [&](const BenchmarkKind& k) { return k.name == name; });
    return it == kinds.end() ? nullptr : &*it;
}

namespace benchmarks {

std::map<int, std::vector<const RawSeries*>> by_repetition(const RawBenchmark& b) {
    std::map<int, std::vector<const RawSeries*>> groups;
    for (const auto& s : b.series)
        groups[s.repetition].push_back(&s);
    return groups;
}

std::vector<const RawSeries*> all_series(const RawBenchmark& b) {
    std::vector<const RawSeries*> all;
    for (const auto& s : b.series)
        all.push_back(&s);
    return all;
}

const RawSeries* labelled(const std::vector<const RawSeries*>& series, const std::string& label) {
    for (const auto* s : series)
        if (s->label == label)
            return s;
    return nullptr;
}

std::vector<double> medians(const std::vector<const RawSeries*>& series) {
    std::vector<double> result;
    for (const auto* s : series)
        result.push_back(median(s->values));
    return result;
}

ChaseOverhead chase_overhead_of(const std::string& memory, const AnalysisContext& context) {
    if (auto it = context.overheads.find(memory); it != context.overheads.end())
        return {it->second, "\"" + memory + "\" overhead"};
    if (auto common = context.overheads.find(""); common != context.overheads.end())
        return {common->second, "common overhead"};
    return {};
}

} // namespace benchmarks
} // namespace kerncast::probe
