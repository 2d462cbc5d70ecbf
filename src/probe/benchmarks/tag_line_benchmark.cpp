// The line a cache tag covers, from the capacity chases at doubling strides see
// (tag_line.hpp): over 1.25 x the L1's size, strides up to the line miss, twice it hits.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/error.hpp"
#include "kerncast/probe/tag_line.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace kerncast::probe::benchmarks {

namespace {

constexpr const char* hits_label = "hits"; // the reference chase that fits the cache

// One repetition's line, or nullopt with the reason noted.
std::optional<TagLineResult> analyse_repetition(const RawBenchmark& b,
                                                const std::vector<const RawSeries*>& series,
                                                AnalysisContext& context) {
    std::vector<double> hits;
    std::vector<StrideTimings> over_capacity;
    for (const RawSeries* s : series) {
        if (s->label == hits_label)
            hits.insert(hits.end(), s->values.begin(), s->values.end());
        else
            over_capacity.push_back({s->stride_bytes, s->values});
    }
    if (over_capacity.empty())
        bad_benchmark(b, "a repetition without chases beyond the capacity");
    TagLineResult found;
    try {
        found = tag_line_from_strides(over_capacity, hits, context.options.alpha);
    } catch (const Error& e) {
        bad_benchmark(b, e.message());
    }
    if (found.line_bytes == 0) {
        context.note(b, found.problem);
        return std::nullopt;
    }
    return found;
}

std::string miss_fractions(const TagLineResult& found) {
    std::string text;
    for (const StrideMisses& s : found.strides)
        text +=
            fmt::format("{}{} B {:.2f}", text.empty() ? "" : ", ", s.stride_bytes, s.miss_fraction);
    return text;
}

void analyse_tag_line(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> lines;
    bool clean = true;
    std::string fractions;
    for (const auto& [repetition, series] : by_repetition(b)) {
        const auto found = analyse_repetition(b, series, context);
        if (!found)
            continue;
        lines.push_back(found->line_bytes);
        clean = clean && found->clean;
        if (fractions.empty())
            fractions = miss_fractions(*found);
    }
    if (lines.empty())
        return;
    Estimate e = summarize(lines);
    if (!clean) {
        e.confidence = Confidence::low;
        e.note = "a stride neither missed nor hit in 90 % of its loads";
    }
    context.add(b, b.memory, "tag_line_bytes", "B", e, line_size_bounds,
                "largest doubling stride that missed over 1.25x the size; miss fraction by "
                "stride: " +
                    fractions);
}

} // namespace

// ---- device plan ----

// Strides 32 B .. 1 KiB over 1.25x the L1's size (the size search's, else 256 KiB), two
// repetitions, each after a reference chase over half the size that fits (all hits).
void record_tag_line(ProbeSession& session, const std::string& memory, ProbeLoad load) {
    session.progress(memory + ": tag line from the capacity seen at doubling strides");
    auto& b = session.add_benchmark(memory + ".tag_line", "tag_line", memory);
    b.chain = "sequential";
    const std::int64_t size = session.size_or(memory, 256 * KiB);
    const std::int64_t beyond = std::min<std::int64_t>((size * 5 / 4 + 1023) / 1024 * 1024,
                                                       ProbeSession::batch_region_bytes);
    const auto chase = [&](int repetition, std::int64_t bytes, int stride, const char* label) {
        const auto r = session.fine_grained(load, {bytes}, stride, 2048, true, false, 0,
                                            ProbeSession::batch_region_bytes);
        RawSeries s;
        s.label = label;
        s.repetition = repetition;
        s.size_bytes = bytes;
        s.stride_bytes = stride;
        s.sm_clock_mhz = r[0].sm_clock_mhz;
        s.values = r[0].times;
        b.series.push_back(std::move(s));
    };
    for (int rep = 0; rep < 2; ++rep) {
        chase(rep, size / 2, tag_line_min_stride_bytes, hits_label);
        for (int stride = tag_line_min_stride_bytes; stride <= tag_line_max_stride_bytes;
             stride *= 2)
            chase(rep, beyond, stride, "");
    }
}

// ---- registration ----

std::vector<BenchmarkKind> tag_line_kinds() {
    return {
        {"tag_line", "tag_line_bytes: the line a tag covers (largest stride whose chase missed)",
         "fine_grained_chase, sequential, strides 32 B .. 1 KiB doubling over 1.25x the size "
         "found (else 256 KiB), 2048 timed loads, after a reference chase over half the size "
         "(label \"hits\"); 2 repetitions",
         AnalysisPass::measurement, analyse_tag_line},
    };
}

} // namespace kerncast::probe::benchmarks
