// Line sizes from the spacing of misses in a 4-byte-stride chase (thesis sec. 4.3).
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/line_size.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_line(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> lines;
    double worst_agreement = 1;
    for (const auto& s : b.series) {
        if (s.stride_bytes <= 0)
            bad_benchmark(b, "line series need stride_bytes > 0");
        const auto found = line_size_from_misses(s.values, s.stride_bytes, context.options.alpha);
        if (!found)
            continue;
        lines.push_back(found->line_bytes);
        worst_agreement = std::min(worst_agreement, found->agreement);
    }
    if (lines.empty()) {
        context.note(b, "no hit/miss pattern in the times (array not beyond the cache?)");
        return;
    }
    Estimate e = summarize(lines);
    if (worst_agreement < context.options.min_line_agreement) {
        e.confidence = Confidence::low;
        e.note = fmt::format("only {:.0f} % of miss spacings agree", 100 * worst_agreement);
    }
    const int bytes = static_cast<int>(e.value);
    if (bytes > 0 && (bytes & (bytes - 1)) != 0) {
        e.confidence = Confidence::low;
        e.note = "not a power of two";
    }
    context.add(
        b, b.memory, "line_bytes", "B", e, line_size_bounds,
        fmt::format("most frequent miss spacing; {:.0f} % agreement", 100 * worst_agreement));
}

} // namespace

// ---- device plans ----

namespace {

// Two repetitions of a 4-byte-stride chase over `bytes`, one series each.
void record_line_series(ProbeSession& session, RawBenchmark& b, ProbeLoad load,
                        std::int64_t bytes) {
    for (int rep = 0; rep < 2; ++rep) {
        const auto r = session.fine_grained(load, {bytes}, 4, 2048, true, false, 0,
                                            ProbeSession::batch_region_bytes);
        RawSeries s;
        s.repetition = rep;
        s.size_bytes = bytes;
        s.stride_bytes = 4;
        s.sm_clock_mhz = r[0].sm_clock_mhz;
        s.values = r[0].times;
        b.series.push_back(std::move(s));
    }
}

} // namespace

// 4-byte stride over twice the capacity: round 2 misses once per line (sec. 4.3).
void record_line(ProbeSession& session, const std::string& memory, ProbeLoad load) {
    session.progress(memory + ": line size from miss spacing");
    auto& b = session.add_benchmark(memory + ".line", "line", memory);
    b.chain = "sequential";
    const std::int64_t bytes = std::min<std::int64_t>(2 * session.size_or(memory, 256 * KiB),
                                                      ProbeSession::batch_region_bytes);
    record_line_series(session, b, load, bytes);
}

void record_l2_line(ProbeSession& session) {
    session.progress("l2: line size from cold misses");
    auto& b = session.add_benchmark("l2.line", "line", "l2");
    b.chain = "sequential";
    b.note = "cold misses (no warm round): the granularity L2 fetches from DRAM";
    for (int rep = 0; rep < 2; ++rep) {
        const auto first = static_cast<std::uint32_t>(
            session.cold_first + (ProbeSession::cold_bytes / 2 + rep * MiB) / 4);
        const auto r = session.fine_grained(ProbeLoad::global_cg, {64 * KiB}, 4, 2048, false, false,
                                            first, 64 * KiB);
        RawSeries s;
        s.repetition = rep;
        s.size_bytes = 64 * KiB;
        s.stride_bytes = 4;
        s.sm_clock_mhz = r[0].sm_clock_mhz;
        s.values = r[0].times;
        b.series.push_back(std::move(s));
    }
}

// Line size of constant L1: a 4-byte chain over 4x its size.
void record_constant_line(ProbeSession& session) {
    session.progress("constant_l1: line size");
    upload_constant_chain(session, 4);
    auto& line = session.add_benchmark("constant_l1.line", "line", "constant_l1");
    line.chain = "sequential";
    const std::int64_t bytes =
        std::min<std::int64_t>(4 * session.size_or("constant_l1", 2 * KiB), 62 * KiB);
    record_line_series(session, line, ProbeLoad::constant, bytes);
    upload_constant_chain(session, 64);
}

// ---- registration ----

std::vector<BenchmarkKind> line_kinds() {
    return {
        {"line", "line_bytes: most frequent miss spacing",
         "fine_grained_chase with a 4 B stride over twice the cache, 2048 timed loads, 2 "
         "repetitions (l2: cold misses over 64 KiB never touched before; constant_l1: 4x its size)",
         AnalysisPass::measurement, analyse_line},
    };
}

} // namespace kerncast::probe::benchmarks
