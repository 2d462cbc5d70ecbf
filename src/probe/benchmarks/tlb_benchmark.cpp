// TLB levels, page size and miss latencies from a stride sweep (tlb.hpp).
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/statistics.hpp"
#include "kerncast/probe/tlb.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

// The latency-versus-footprint curves of the record: curves[stride][repetition], each sorted
// by footprint.
using TlbCurves = std::map<std::int64_t, std::map<int, std::vector<SizePoint>>>;
// The steps found in each curve: steps[stride][repetition].
using TlbStepsByStride = std::map<std::int64_t, std::vector<std::vector<TlbStep>>>;

TlbCurves tlb_curves(const RawBenchmark& b) {
    TlbCurves curves;
    for (const auto& s : b.series) {
        if (s.stride_bytes <= 0 || s.size_bytes <= 0)
            bad_benchmark(b, "tlb series need stride_bytes > 0 and size_bytes (the "
                             "footprint) > 0");
        curves[s.stride_bytes][s.repetition].push_back({s.size_bytes, s.values});
    }
    if (curves.empty())
        bad_benchmark(b, "no series");
    for (auto& [stride, repetitions] : curves)
        for (auto& [repetition, points] : repetitions) {
            std::sort(points.begin(), points.end(),
                      [](const auto& x, const auto& y) { return x.size_bytes < y.size_bytes; });
            for (std::size_t k = 1; k < points.size(); ++k)
                if (points[k].size_bytes == points[k - 1].size_bytes)
                    bad_benchmark(b, fmt::format("footprint {} B appears twice at stride {} B, "
                                                 "repetition {}",
                                                 points[k].size_bytes, stride, repetition));
        }
    return curves;
}

// Steps per (stride, repetition), and the first level's median reach per stride (the input
// of infer_page_size).
TlbStepsByStride tlb_steps_by_stride(const TlbCurves& curves, const StaircaseOptions& options,
                                     std::vector<StrideReach>& first_level) {
    TlbStepsByStride steps;
    for (const auto& [stride, repetitions] : curves) {
        std::vector<double> reaches;
        for (const auto& [repetition, points] : repetitions) {
            steps[stride].push_back(tlb_steps(points, options));
            if (!steps[stride].back().empty())
                reaches.push_back(static_cast<double>(steps[stride].back().front().reach_bytes));
        }
        if (!reaches.empty())
            first_level.push_back({stride, median(reaches)});
    }
    return steps;
}

// Level `level` (0 = first) at the page-size stride: reach and miss latency over the
// repetitions that found `levels` levels, and the page size (when bracketed) per level.
void add_tlb_level(const RawBenchmark& b, AnalysisContext& context, const PageSizeInference& page,
                   const std::vector<std::vector<TlbStep>>& at_page, std::size_t levels,
                   bool repetitions_agree, std::size_t level) {
    std::vector<double> reaches;
    std::vector<double> misses;
    double worst_p = 0;
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    for (const auto& repetition : at_page) {
        if (repetition.size() != levels)
            continue;
        const TlbStep& step = repetition[level];
        reaches.push_back(static_cast<double>(step.reach_bytes));
        misses.push_back(step.miss_cycles);
        worst_p = std::max(worst_p, step.p_value);
        lower = step.reach_bytes;
        upper = step.next_bytes;
    }
    const std::string memory = fmt::format("l{}_tlb", level + 1);
    Estimate reach = summarize(reaches, worst_p, context.options.staircase.change_point.alpha);
    Estimate miss = summarize(misses);
    for (Estimate* e : {&reach, &miss}) {
        if (!repetitions_agree) {
            e->confidence = Confidence::low;
            e->note = fmt::format("repetitions at stride {} B disagree on the number of "
                                  "TLB levels",
                                  page.page_bytes);
        } else if (page.at_most && page.strides > 1) {
            e->confidence = Confidence::low;
            e->note = "page size not bracketed by the stride sweep (at most)";
        }
    }
    context.add(b, memory, "reach_bytes", "B", reach, tlb_reach_bounds,
                fmt::format("reach in ({}, {}] B at stride {} B ({:.0f} entries of the page size)",
                            lower, upper, page.page_bytes,
                            reach.value / static_cast<double>(page.page_bytes)));
    context.add(b, memory, "miss_latency_cycles", "cycles", miss, latency_bounds,
                fmt::format("step height of the latency curve at stride {} B: extra cycles per "
                            "load when level {} misses",
                            page.page_bytes, level + 1));
    if (!page.at_least && !page.at_most) {
        Estimate p = summarize(std::vector<double>{static_cast<double>(page.page_bytes)});
        p.repetitions = page.strides;
        const double agreement =
            static_cast<double>(page.agreeing_strides) / static_cast<double>(page.strides);
        p.confidence = page.strides >= 3 && agreement >= 0.8   ? Confidence::high
                       : page.strides >= 3 && agreement >= 0.6 ? Confidence::medium
                                                               : Confidence::low;
        if (p.confidence == Confidence::low)
            p.note = fmt::format("only {} of {} strides follow reach = E x max(stride, "
                                 "page)",
                                 page.agreeing_strides, page.strides);
        context.add(b, memory, "page_bytes", "B", p, page_size_bounds,
                    fmt::format("stride where the first level's reach stops being constant: {} of "
                                "{} strides agree with reach = {:.1f} entries x max(stride, page)",
                                page.agreeing_strides, page.strides, page.entries));
    }
}

void analyse_tlb(const RawBenchmark& b, AnalysisContext& context) {
    const TlbCurves curves = tlb_curves(b);
    std::int64_t largest = 0;
    for (const auto& [stride, repetitions] : curves)
        for (const auto& [repetition, points] : repetitions)
            largest = std::max(largest, points.back().size_bytes);
    std::vector<StrideReach> first_level;
    const TlbStepsByStride steps =
        tlb_steps_by_stride(curves, context.options.staircase, first_level);
    const auto page = infer_page_size(first_level, context.options.page_size_tolerance);
    if (!page) {
        context.note(b,
                     fmt::format("no TLB step up to a footprint of {} B at any stride: every TLB "
                                 "level reaches at least that far",
                                 largest));
        return;
    }
    if (page->at_least && page->strides > 1)
        context.note(b,
                     fmt::format("the first TLB level's reach does not grow up to the largest "
                                 "stride, {} B: pages are at least that large and miss latencies "
                                 "at that stride may be diluted",
                                 page->page_bytes));
    if (page->at_most && page->strides > 1)
        context.note(b,
                     fmt::format("the first TLB level's reach grows from the smallest stride on: "
                                 "pages are at most {} B, so reaches are upper bounds",
                                 page->page_bytes));

    // The levels at the page-size stride: one load per page, full step heights.
    const auto& at_page = steps.at(page->page_bytes);
    std::map<std::size_t, int> level_counts;
    for (const auto& repetition : at_page)
        ++level_counts[repetition.size()];
    const std::size_t levels =
        std::max_element(level_counts.begin(), level_counts.end(), [](auto& x, auto& y) {
            return x.second < y.second || (x.second == y.second && x.first < y.first);
        })->first;
    const bool repetitions_agree = level_counts.size() == 1;
    for (std::size_t level = 0; level < levels; ++level)
        add_tlb_level(b, context, *page, at_page, levels, repetitions_agree, level);
}

} // namespace

// ---- device plans ----

namespace {

// The chain length at `stride`: at most max_pages pointers, and the chain within `bytes`.
std::int64_t tlb_chain_count(std::int64_t max_pages, std::int64_t bytes, std::int64_t stride) {
    std::int64_t built = std::min<std::int64_t>(max_pages, bytes / stride);
    while (built > 0 && chain::tlb_chain_bytes(static_cast<std::uint64_t>(built),
                                               static_cast<std::uint64_t>(stride)) >
                            static_cast<std::uint64_t>(bytes))
        --built;
    return built;
}

// Per repetition a coarse curve of footprints in one launch, then refinement launches around
// each step (tlb.hpp, measure_tlb_curve); one series per footprint.
void record_tlb_stride(ProbeSession& session, RawBenchmark& b, std::int64_t stride,
                       std::int64_t built) {
    const std::uint32_t measure_count = 256;
    TlbCurveOptions curve_options;
    for (int rep = 0; rep < std::max(1, session.options.repetitions); ++rep) {
        session.progress(fmt::format("tlb: stride {} KiB, footprints up to {} MiB, repetition "
                                     "{}/{}",
                                     stride / KiB, built * stride / MiB, rep + 1,
                                     session.options.repetitions));
        double mhz = 0;
        const TlbCurve curve = measure_tlb_curve(
            [&](const std::vector<std::int64_t>& footprints) {
                std::vector<std::uint64_t> counts;
                for (std::int64_t f : footprints)
                    counts.push_back(static_cast<std::uint64_t>(std::min(built, f / stride)));
                return session.device.tlb_chase(counts, static_cast<std::uint64_t>(built),
                                                static_cast<std::uint64_t>(stride), measure_count,
                                                mhz);
            },
            stride, built * stride, curve_options);
        for (const auto& point : curve.points) {
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = point.size_bytes;
            s.stride_bytes = static_cast<int>(stride);
            s.sm_clock_mhz = mhz;
            s.values = point.timings;
            b.series.push_back(std::move(s));
        }
    }
}

} // namespace

// TLB reach, page size, miss latency (docs/probe.md, "TLB"). Its own allocation, as large as
// free memory allows (reaches beyond it are reported as "at least"); per stride one chain of
// 8-byte pointers, one per stride slot, built on the device.
void record_tlb(ProbeSession& session) {
    const std::int64_t free_bytes = session.device.free_memory_bytes();
    const std::int64_t bytes =
        (static_cast<std::int64_t>(0.8 * static_cast<double>(free_bytes)) - 256 * MiB) /
        (32 * MiB) * (32 * MiB);
    if (bytes < 64 * MiB) {
        session.progress("tlb: less than 64 MiB of device memory free; skipped");
        return;
    }
    session.device.allocate_tlb_region(bytes);
    session.progress(fmt::format("tlb: {} MiB allocated (80 % of {} MiB free): TLB levels "
                                 "reaching beyond that are reported as at least that large",
                                 bytes / MiB, free_bytes / MiB));
    // One 128-byte line per page touched: the data must stay in L2 (a quarter of it), so
    // only translations miss.
    const std::int64_t max_pages = std::min<std::int64_t>(65536, session.l2_bytes / (4 * 128));
    auto& b = session.add_benchmark("tlb", "tlb", "tlb");
    b.chain = "sequential";
    b.note = "one ld.global.cg per stride, pointer chain cut at each footprint";
    for (std::int64_t stride = 32 * KiB; stride <= 32 * MiB; stride *= 2) {
        const std::int64_t built = tlb_chain_count(max_pages, bytes, stride);
        if (built < 4)
            break;
        session.device.build_tlb_chain(static_cast<std::uint64_t>(built),
                                       static_cast<std::uint64_t>(stride));
        record_tlb_stride(session, b, stride, built);
    }
    session.device.release_tlb_region();
}

// ---- registration ----

std::vector<BenchmarkKind> tlb_kinds() {
    return {
        {"tlb", "<level>_tlb reach_bytes, miss_latency_cycles, page_bytes",
         "build_tlb_chain + tlb_chase<<<1, 32>>>: one 8 B pointer per stride (32 KiB to 32 MiB), "
         "footprints from measure_tlb_curve, 256 timed loads",
         AnalysisPass::measurement, analyse_tlb},
    };
}

} // namespace kerncast::probe::benchmarks
