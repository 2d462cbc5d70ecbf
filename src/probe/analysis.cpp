#include "kerncast/probe/analysis.hpp"

#include "kerncast/error.hpp"
#include "kerncast/probe/kolmogorov_smirnov.hpp"
#include "kerncast/probe/line_size.hpp"
#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/tlb.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace kerncast::probe {

const ProbeValue* ProbeAnalysis::find(const std::string& memory,
                                      const std::string& quantity) const {
    for (const auto& v : values)
        if (v.memory == memory && v.quantity == quantity)
            return &v;
    return nullptr;
}

namespace {

[[noreturn]] void bad_benchmark(const RawBenchmark& b, const std::string& problem) {
    throw_input_error("benchmark \"" + b.name + "\" (kind " + b.kind + "): " + problem);
}

std::map<int, std::vector<const RawSeries*>> by_repetition(const RawBenchmark& b) {
    std::map<int, std::vector<const RawSeries*>> groups;
    for (const auto& s : b.series)
        groups[s.repetition].push_back(&s);
    return groups;
}

const RawSeries* labelled(const std::vector<const RawSeries*>& series, const std::string& label) {
    for (const auto* s : series)
        if (s->label == label)
            return s;
    return nullptr;
}

class Analyser {
public:
    Analyser(const ProbeRecord& record, const AnalysisOptions& options)
        : record_(record), options_(options) {}

    ProbeAnalysis run() {
        result_.device = record_.device;
        result_.sm_clock_measured_mhz = record_.sm_clock_measured_mhz;
        result_.carveout_percent = record_.carveout_percent;
        result_.l1_shared_bytes_per_sm = record_.l1_shared_bytes_per_sm;
        result_.date = record_.date;
        result_.command = record_.command;
        result_.tool_version = record_.tool_version;
        // Clock and overheads first: latencies subtract the overheads.
        for (const auto& b : record_.benchmarks)
            if (b.kind == "clock")
                clock(b);
            else if (b.kind == "overhead")
                overhead(b);
        for (const auto& b : record_.benchmarks) {
            if (b.kind == "size")
                size(b);
            else if (b.kind == "line")
                line(b);
            else if (b.kind == "latency")
                latency(b);
            else if (b.kind == "caching")
                caching(b);
            else if (b.kind == "sharing")
                sharing(b);
            else if (b.kind == "count_per_sm")
                count_per_sm(b);
            else if (b.kind == "bandwidth")
                bandwidth(b);
            else if (b.kind == "l2_partition")
                l2_partition(b);
            else if (b.kind == "tlb")
                tlb(b);
        }
        // Departure delays after latencies: Mem_LD is the DRAM latency (Hong & Kim sec. 3.3.1).
        for (const auto& b : record_.benchmarks)
            if (b.kind == "departure")
                departure(b);
        if (const auto* dram = result_.find("dram", "latency_cycles")) {
            ProbeValue mem_ld = *dram;
            mem_ld.memory = "";
            mem_ld.quantity = "mem_ld_cycles";
            mem_ld.detail = "Hong & Kim 2009 Mem_LD: DRAM round-trip latency (= dram latency)";
            result_.values.push_back(mem_ld);
        }
        return std::move(result_);
    }

private:
    void add(const RawBenchmark& b, std::string memory, std::string quantity, std::string unit,
             Estimate estimate, const PhysicalBounds& bounds, std::string detail) {
        check_bounds(estimate, bounds);
        result_.values.push_back({std::move(memory), std::move(quantity), std::move(unit),
                                  std::move(estimate), b.name, std::move(detail)});
    }
    void note(const RawBenchmark& b, const std::string& text) {
        result_.notes.push_back(b.name + ": " + text);
    }
    static std::vector<double> medians(const std::vector<const RawSeries*>& series) {
        std::vector<double> result;
        for (const auto* s : series)
            result.push_back(median(s->values));
        return result;
    }

    void clock(const RawBenchmark& b) {
        std::vector<double> mhz;
        for (const auto& s : b.series) {
            if (s.values.size() != 2 || s.values[1] <= 0)
                bad_benchmark(b, "each clock series holds [cycles, milliseconds]");
            mhz.push_back(s.values[0] / (s.values[1] * 1e3));
        }
        if (mhz.empty())
            bad_benchmark(b, "no series");
        add(b, "", "sm_clock_mhz", "MHz", summarize(mhz), clock_bounds,
            "clock64 cycles over cudaEvent time of the same kernel");
    }

    void overhead(const RawBenchmark& b) {
        if (b.series.empty())
            bad_benchmark(b, "no series");
        std::vector<const RawSeries*> all;
        for (const auto& s : b.series)
            all.push_back(&s);
        Estimate e = summarize(medians(all));
        overheads_[b.memory] = e.value;
        add(b, b.memory, "overhead_cycles", "cycles", e, delay_bounds,
            "timer read + address arithmetic of one chase step, no load (thesis sec. 4.4)");
    }

    void size(const RawBenchmark& b) {
        std::vector<double> sizes;
        double worst_p = 0;
        std::int64_t lower = 0;
        std::int64_t upper = 0;
        std::int64_t largest_measured = 0;
        for (auto& [repetition, series] : by_repetition(b)) {
            std::vector<SizePoint> points;
            for (const auto* s : series) {
                if (s->size_bytes <= 0)
                    bad_benchmark(b, "every size series needs size_bytes > 0");
                points.push_back({s->size_bytes, s->values});
            }
            std::sort(points.begin(), points.end(),
                      [](const auto& x, const auto& y) { return x.size_bytes < y.size_bytes; });
            largest_measured = std::max(largest_measured, points.back().size_bytes);
            const auto location = locate_size(points, options_.change_point);
            LatencyCurve& curve = result_.latency_curves.emplace_back();
            curve.benchmark = b.name;
            curve.memory = b.memory;
            curve.repetition = repetition;
            curve.unit = b.unit;
            for (const auto& point : points) {
                curve.footprint_bytes.push_back(static_cast<double>(point.size_bytes));
                curve.median_latency.push_back(point.timings.empty() ? 0.0 : median(point.timings));
            }
            if (!location)
                continue;
            curve.change_point_bytes = static_cast<double>(location->size_bytes);
            sizes.push_back(static_cast<double>(location->size_bytes));
            worst_p = std::max(worst_p, location->change.test.p_value);
            lower = location->size_bytes;
            upper = location->next_size_bytes;
        }
        if (sizes.empty()) {
            note(b, fmt::format("no verified change point up to {} B: the {} is at least that "
                                "large (thesis sec. 3.4)",
                                largest_measured, b.memory));
            return;
        }
        // A search at a forced carve-out: one value per carve-out, named by the shared
        // memory the kernel claimed (the carve-out held at least that much).
        const bool at_carveout = b.carveout_percent >= 0;
        const int shared_kib =
            at_carveout ? static_cast<int>((b.shared_bytes_per_block + 1023) / 1024) : -1;
        // The p-value enters with the level the CPD used (Bonferroni-corrected per split).
        Estimate e = summarize(sizes);
        e.p_value = worst_p;
        const auto reps = by_repetition(b).size();
        if (sizes.size() < reps) {
            e.confidence = Confidence::low;
            e.note = fmt::format("change verified in {} of {} repetitions", sizes.size(), reps);
        }
        if (at_carveout) {
            add(b, b.memory, fmt::format("size_bytes:shared_{}KiB", shared_kib), "B", e,
                cache_size_bounds,
                fmt::format("size in ({}, {}] B at carve-out preference {} % with {} B shared "
                            "memory per block",
                            lower, upper, b.carveout_percent, b.shared_bytes_per_block));
            result_.values.back().carveout_shared_kib = shared_kib;
            return;
        }
        add(b, b.memory, "size_bytes", "B", e, cache_size_bounds,
            fmt::format("size in ({}, {}] B: onset of the verified change point", lower, upper));
    }

    void line(const RawBenchmark& b) {
        std::vector<double> lines;
        double worst_agreement = 1;
        for (const auto& s : b.series) {
            if (s.stride_bytes <= 0)
                bad_benchmark(b, "line series need stride_bytes > 0");
            const auto found = line_size_from_misses(s.values, s.stride_bytes, options_.alpha);
            if (!found)
                continue;
            lines.push_back(found->line_bytes);
            worst_agreement = std::min(worst_agreement, found->agreement);
        }
        if (lines.empty()) {
            note(b, "no hit/miss pattern in the times (array not beyond the cache?)");
            return;
        }
        Estimate e = summarize(lines);
        if (worst_agreement < options_.min_line_agreement) {
            e.confidence = Confidence::low;
            e.note = fmt::format("only {:.0f} % of miss spacings agree", 100 * worst_agreement);
        }
        const int bytes = static_cast<int>(e.value);
        if (bytes > 0 && (bytes & (bytes - 1)) != 0) {
            e.confidence = Confidence::low;
            e.note = "not a power of two";
        }
        add(b, b.memory, "line_bytes", "B", e, line_size_bounds,
            fmt::format("most frequent miss spacing; {:.0f} % agreement", 100 * worst_agreement));
    }

    void latency(const RawBenchmark& b) {
        if (b.series.empty())
            bad_benchmark(b, "no series");
        std::vector<const RawSeries*> all;
        for (const auto& s : b.series)
            all.push_back(&s);
        std::vector<double> cycles = medians(all);
        double overhead_cycles = 0;
        std::string source = "none recorded";
        if (auto it = overheads_.find(b.memory); it != overheads_.end()) {
            overhead_cycles = it->second;
            source = "\"" + b.memory + "\" overhead";
        } else if (auto common = overheads_.find(""); common != overheads_.end()) {
            overhead_cycles = common->second;
            source = "common overhead";
        }
        for (auto& c : cycles)
            c -= overhead_cycles;
        add(b, b.memory, "latency_cycles", "cycles", summarize(cycles), latency_bounds,
            fmt::format("plain chase, {} chain; minus {:g} cycles overhead ({})",
                        b.chain.empty() ? "sequential" : b.chain, overhead_cycles, source));
    }

    void caching(const RawBenchmark& b) {
        const std::vector<const RawSeries*> all = [&] {
            std::vector<const RawSeries*> v;
            for (const auto& s : b.series)
                v.push_back(&s);
            return v;
        }();
        const auto* ca = labelled(all, "ca");
        const auto* cg = labelled(all, "cg");
        if (!ca || !cg)
            bad_benchmark(b, "needs series labelled \"ca\" and \"cg\"");
        // .cg bypasses L1; when .ca is not clearly faster, L1 does not cache global loads
        // (thesis sec. 4.2.1).
        const auto differs = infer_sharing(ca->values, cg->values, options_.interference);
        Estimate e = summarize(std::vector<double>{differs.shared ? 1.0 : 0.0}, differs.p_value,
                               options_.interference.alpha);
        if (!differs.shared) {
            e.p_value = -1;
            note(b, "L1 does not cache global loads (.ca no faster than .cg): the l1 size, "
                    "line and latency describe L2, not L1 (thesis sec. 4.2.1)");
        }
        add(b, b.memory, "caches_global_loads", "bool", e, {0, 1, "flag"},
            fmt::format(".ca {:.1f} vs .cg {:.1f} cycles", differs.reference_mean,
                        differs.interfered_mean));
    }

    void sharing(const RawBenchmark& b) {
        if (b.other_memory.empty())
            bad_benchmark(b, "needs other_memory");
        std::vector<double> votes;
        double p = 0;
        double increase = 0;
        for (auto& [repetition, series] : by_repetition(b)) {
            const auto* reference = labelled(series, "reference");
            const auto* interfered = labelled(series, "interfered");
            if (!reference || !interfered)
                bad_benchmark(b, fmt::format("repetition {} needs series labelled \"reference\" "
                                             "and \"interfered\"",
                                             repetition));
            const auto r =
                infer_sharing(reference->values, interfered->values, options_.interference);
            votes.push_back(r.shared ? 1.0 : 0.0);
            p = std::max(p, r.p_value);
            increase = std::max(increase, r.relative_increase);
        }
        Estimate e = summarize(votes);
        const bool unanimous =
            std::all_of(votes.begin(), votes.end(), [&](double v) { return v == votes.front(); });
        if (!unanimous) {
            e.confidence = Confidence::low;
            e.note = fmt::format("repetitions disagree ({} of {} say shared)",
                                 std::count(votes.begin(), votes.end(), 1.0), votes.size());
        }
        add(b, b.memory, "same_cache_as:" + b.other_memory, "bool", e, {0, 1, "flag"},
            fmt::format("{} load time +{:.0f} % after {} filled (thesis sec. 4.5)", b.memory,
                        100 * increase, b.other_memory));
    }

    void count_per_sm(const RawBenchmark& b) {
        std::vector<const RawSeries*> all;
        for (const auto& s : b.series)
            all.push_back(&s);
        const auto* reference = labelled(all, "reference");
        if (!reference)
            bad_benchmark(b, "needs a series labelled \"reference\"");
        std::map<int, double> disturbance_by_thread;
        for (const auto* s : all) {
            if (s->label.rfind("thread ", 0) != 0)
                continue;
            disturbance_by_thread[std::stoi(s->label.substr(7))] = mean(s->values);
        }
        if (disturbance_by_thread.empty())
            bad_benchmark(b, "needs series labelled \"thread T\" (T = 1, 2, ...)");
        std::vector<double> disturbance;
        int expected = 1;
        for (const auto& [thread, value] : disturbance_by_thread) {
            if (thread != expected++)
                bad_benchmark(b, "thread series must be numbered 1, 2, ... without gaps");
            disturbance.push_back(value);
        }
        const auto r =
            infer_count_per_sm(disturbance, mean(reference->values), options_.interference);
        Estimate e = summarize(std::vector<double>{static_cast<double>(r.count)});
        if (r.agreement < 0.95) {
            e.confidence = Confidence::low;
            e.note = fmt::format("only {:.0f} % of threads follow their warp", 100 * r.agreement);
        }
        add(b, b.memory, "count_per_sm", "", e, count_bounds,
            fmt::format("{} of {} threads share thread 0's instance (thesis sec. 4.6)",
                        r.disturbed_threads + 1, disturbance.size() + 1));
    }

    void bandwidth(const RawBenchmark& b) {
        if (b.direction != "load" && b.direction != "store")
            bad_benchmark(b, "direction must be \"load\" or \"store\"");
        if (b.unit != "ms")
            bad_benchmark(b, "bandwidth series are in milliseconds (unit \"ms\")");
        const RawSeries* best = nullptr;
        double best_gbs = 0;
        for (const auto& s : b.series) {
            if (s.bytes <= 0)
                bad_benchmark(b, "bandwidth series need bytes > 0");
            const double gbs = static_cast<double>(s.bytes) / (median(s.values) * 1e-3) / 1e9;
            if (gbs > best_gbs) {
                best_gbs = gbs;
                best = &s;
            }
        }
        if (!best)
            bad_benchmark(b, "no series");
        std::vector<double> per_launch;
        for (double ms : best->values)
            per_launch.push_back(static_cast<double>(best->bytes) / (ms * 1e-3) / 1e9);
        add(b, b.memory, b.direction + "_bandwidth_gbs", "GB/s", summarize(per_launch),
            bandwidth_bounds,
            fmt::format("best of {} launch shapes: {} blocks x {} threads, {} B", b.series.size(),
                        best->blocks, best->threads, best->bytes));
    }

    void departure(const RawBenchmark& b) {
        // Hong & Kim 2009 sec. 3.3.1 / 5.1: W warps issue their loads back to back; the last
        // one completes after Mem_LD + (W - 1) * delay, so the slope over W is the delay per
        // warp. An uncoalesced warp issues one transaction per thread, and eq. (15) charges
        // Departure_del_uncoal per transaction.
        if (b.direction != "coalesced" && b.direction != "uncoalesced")
            bad_benchmark(b, "direction must be \"coalesced\" or \"uncoalesced\"");
        std::vector<double> warps;
        std::vector<double> cycles;
        for (const auto& s : b.series) {
            if (s.threads <= 0 || s.threads % record_.device.warp_size != 0)
                bad_benchmark(b, "departure series need threads = a multiple of the warp size");
            warps.push_back(static_cast<double>(s.threads / record_.device.warp_size));
            cycles.push_back(median(s.values));
        }
        if (warps.size() < 3)
            bad_benchmark(b, "needs at least three warp counts");
        const LinearFit fit = fit_line(warps, cycles);
        const double per_transaction =
            b.direction == "uncoalesced" ? fit.slope / record_.device.warp_size : fit.slope;
        Estimate e = summarize(std::vector<double>{per_transaction});
        if (fit.r_squared < 0.9) {
            e.confidence = Confidence::low;
            e.note = fmt::format("time is not linear in warps (r^2 = {:.2f})", fit.r_squared);
        }
        add(b, "",
            "departure_del_" + std::string(b.direction == "coalesced" ? "coal" : "uncoal") +
                "_cycles",
            "cycles", e, delay_bounds,
            fmt::format("slope {:.2f} cycles/warp over {} warp counts, r^2 = {:.3f}", fit.slope,
                        warps.size(), fit.r_squared));
    }

    void l2_partition(const RawBenchmark& b) {
        std::vector<double> pooled;
        for (const auto& s : b.series)
            pooled.insert(pooled.end(), s.values.begin(), s.values.end());
        if (pooled.size() < 8)
            bad_benchmark(b, "needs at least 8 L2 hit times");
        std::sort(pooled.begin(), pooled.end());
        ChangePointOptions split;
        split.cost = SegmentCost::absolute_deviation;
        split.min_segment_length = std::max<std::size_t>(2, pooled.size() / 20);
        split.correct_for_selection = false;
        const auto change = opt_single_change_point(pooled, split);
        const std::span<const double> all(pooled);
        const double near = change ? median(all.subspan(0, change->index)) : median(all);
        const double far = change ? median(all.subspan(change->index)) : near;
        const bool two = change && far > near * (1 + options_.min_partition_gap);
        add(b, b.memory, "partitions", "", summarize(std::vector<double>{two ? 2.0 : 1.0}),
            count_bounds,
            two ? fmt::format("L2 hits split into near {:.0f} and far {:.0f} cycles", near, far)
                : fmt::format("one latency cluster ({:.0f} cycles)", near));
        if (two) {
            add(b, b.memory, "near_latency_cycles", "cycles",
                summarize(all.subspan(0, change->index)), latency_bounds, "L2 hit, near partition");
            add(b, b.memory, "far_latency_cycles", "cycles", summarize(all.subspan(change->index)),
                latency_bounds, "L2 hit, far partition");
        }
    }

    // TLB levels from the latency-versus-footprint curves of a stride sweep (tlb.hpp):
    // steps per (stride, repetition), the page size from how the first level's reach moves
    // with the stride, and each level's reach and miss latency at the page-size stride.
    void tlb(const RawBenchmark& b) {
        std::map<std::int64_t, std::map<int, std::vector<SizePoint>>> curves;
        std::int64_t largest = 0;
        for (const auto& s : b.series) {
            if (s.stride_bytes <= 0 || s.size_bytes <= 0)
                bad_benchmark(b, "tlb series need stride_bytes > 0 and size_bytes (the "
                                 "footprint) > 0");
            curves[s.stride_bytes][s.repetition].push_back({s.size_bytes, s.values});
            largest = std::max(largest, s.size_bytes);
        }
        if (curves.empty())
            bad_benchmark(b, "no series");
        // steps[stride][repetition]
        std::map<std::int64_t, std::vector<std::vector<TlbStep>>> steps;
        std::vector<StrideReach> first_level;
        for (auto& [stride, repetitions] : curves) {
            std::vector<double> reaches;
            for (auto& [repetition, points] : repetitions) {
                std::sort(points.begin(), points.end(),
                          [](const auto& x, const auto& y) { return x.size_bytes < y.size_bytes; });
                for (std::size_t k = 1; k < points.size(); ++k)
                    if (points[k].size_bytes == points[k - 1].size_bytes)
                        bad_benchmark(b, fmt::format("footprint {} B appears twice at stride {} B, "
                                                     "repetition {}",
                                                     points[k].size_bytes, stride, repetition));
                steps[stride].push_back(tlb_steps(points, options_.staircase));
                if (!steps[stride].back().empty())
                    reaches.push_back(
                        static_cast<double>(steps[stride].back().front().reach_bytes));
            }
            if (!reaches.empty())
                first_level.push_back({stride, median(reaches)});
        }
        const auto page = infer_page_size(first_level, options_.page_size_tolerance);
        if (!page) {
            note(b, fmt::format("no TLB step up to a footprint of {} B at any stride: every TLB "
                                "level reaches at least that far",
                                largest));
            return;
        }
        if (page->at_least && page->strides > 1)
            note(b, fmt::format("the first TLB level's reach does not grow up to the largest "
                                "stride, {} B: pages are at least that large and miss latencies "
                                "at that stride may be diluted",
                                page->page_bytes));
        if (page->at_most && page->strides > 1)
            note(b, fmt::format("the first TLB level's reach grows from the smallest stride on: "
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
        for (std::size_t level = 0; level < levels; ++level) {
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
            Estimate reach = summarize(reaches, worst_p, options_.staircase.change_point.alpha);
            Estimate miss = summarize(misses);
            for (Estimate* e : {&reach, &miss}) {
                if (!repetitions_agree) {
                    e->confidence = Confidence::low;
                    e->note = fmt::format("repetitions at stride {} B disagree on the number of "
                                          "TLB levels",
                                          page->page_bytes);
                } else if (page->at_most && page->strides > 1) {
                    e->confidence = Confidence::low;
                    e->note = "page size not bracketed by the stride sweep (at most)";
                }
            }
            add(b, memory, "reach_bytes", "B", reach, tlb_reach_bounds,
                fmt::format("reach in ({}, {}] B at stride {} B ({:.0f} entries of the page size)",
                            lower, upper, page->page_bytes,
                            reach.value / static_cast<double>(page->page_bytes)));
            add(b, memory, "miss_latency_cycles", "cycles", miss, latency_bounds,
                fmt::format("step height of the latency curve at stride {} B: extra cycles per "
                            "load when level {} misses",
                            page->page_bytes, level + 1));
            if (!page->at_least && !page->at_most) {
                Estimate p = summarize(std::vector<double>{static_cast<double>(page->page_bytes)});
                p.repetitions = page->strides;
                const double agreement = static_cast<double>(page->agreeing_strides) /
                                         static_cast<double>(page->strides);
                p.confidence = page->strides >= 3 && agreement >= 0.8   ? Confidence::high
                               : page->strides >= 3 && agreement >= 0.6 ? Confidence::medium
                                                                        : Confidence::low;
                if (p.confidence == Confidence::low)
                    p.note = fmt::format("only {} of {} strides follow reach = E x max(stride, "
                                         "page)",
                                         page->agreeing_strides, page->strides);
                add(b, memory, "page_bytes", "B", p, page_size_bounds,
                    fmt::format("stride where the first level's reach stops being constant: {} of "
                                "{} strides agree with reach = {:.1f} entries x max(stride, page)",
                                page->agreeing_strides, page->strides, page->entries));
            }
        }
    }

    const ProbeRecord& record_;
    const AnalysisOptions& options_;
    ProbeAnalysis result_;
    std::map<std::string, double> overheads_;
};

} // namespace

ProbeAnalysis analyse_probe_record(const ProbeRecord& record, const AnalysisOptions& options) {
    return Analyser(record, options).run();
}

} // namespace kerncast::probe
