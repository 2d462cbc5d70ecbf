// Cache sharing between memories and cache instances per SM (thesis sec. 4.5, 4.6).
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/sharing.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_sharing(const RawBenchmark& b, AnalysisContext& context) {
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
            infer_sharing(reference->values, interfered->values, context.options.interference);
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
    context.add(b, b.memory, "same_cache_as:" + b.other_memory, "bool", e, {0, 1, "flag"},
                fmt::format("{} load time +{:.0f} % after {} filled (thesis sec. 4.5)", b.memory,
                            100 * increase, b.other_memory));
}

void analyse_count_per_sm(const RawBenchmark& b, AnalysisContext& context) {
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
        infer_count_per_sm(disturbance, mean(reference->values), context.options.interference);
    Estimate e = summarize(std::vector<double>{static_cast<double>(r.count)});
    if (r.agreement < 0.95) {
        e.confidence = Confidence::low;
        e.note = fmt::format("only {:.0f} % of threads follow their warp", 100 * r.agreement);
    }
    context.add(b, b.memory, "count_per_sm", "", e, count_bounds,
                fmt::format("{} of {} threads share thread 0's instance (thesis sec. 4.6)",
                            r.disturbed_threads + 1, disturbance.size() + 1));
}

} // namespace

// ---- device plans ----

// Each array 3/4 of its cache: both fit when the caches are separate (sec. 4.5).
void record_sharing(ProbeSession& session, const std::string& a, ProbeLoad a_load,
                    const std::string& b, ProbeLoad b_load) {
    session.progress(fmt::format("sharing: {} and {}", a, b));
    auto& bench = session.add_benchmark("sharing." + a + "." + b, "sharing", a);
    bench.other_memory = b;
    bench.chain = "sequential";
    const std::int64_t a_bytes = session.size_or(a, 16 * KiB) * 3 / 4 / 128 * 128;
    const std::int64_t b_bytes = session.size_or(b, 16 * KiB) * 3 / 4 / 128 * 128;
    const std::uint32_t a_first = 0;
    const auto b_first = static_cast<std::uint32_t>(ProbeSession::batch_region_bytes / 4);
    session.build_chain(a_first, a_bytes, 128, false);
    session.build_chain(b_first, b_bytes, 128, false);
    for (int rep = 0; rep < std::max(1, session.options.repetitions); ++rep) {
        for (auto [label, other] : {std::pair{"reference", -1}, std::pair{"interfered", 1}}) {
            RawSeries s;
            s.label = label;
            s.repetition = rep;
            s.size_bytes = a_bytes;
            s.stride_bytes = 128;
            s.values = session.device.interference(
                a_load, b_load, a_first, static_cast<std::uint32_t>(a_bytes / 128), b_first,
                static_cast<std::uint32_t>(b_bytes / 128), other, 32, 256);
            bench.series.push_back(std::move(s));
        }
    }
}

// Thread T of the largest block disturbs thread 0: the texture caches per SM (sec. 4.6).
void record_count_per_sm(ProbeSession& session) {
    const int threads = session.device.attribute(ProbeAttribute::max_threads_per_block);
    session.progress(fmt::format("texture: caches per SM ({} thread pairs)", threads - 1));
    auto& bench = session.add_benchmark("texture.count_per_sm", "count_per_sm", "texture");
    bench.chain = "sequential";
    const std::int64_t bytes = session.size_or("texture", 16 * KiB) * 3 / 4 / 128 * 128;
    const auto length = static_cast<std::uint32_t>(bytes / 128);
    const std::uint32_t a_first = 0;
    const auto b_first = static_cast<std::uint32_t>(ProbeSession::batch_region_bytes / 4);
    session.build_chain(a_first, bytes, 128, false);
    session.build_chain(b_first, bytes, 128, false);
    for (int t = 0; t < threads; ++t) {
        RawSeries s;
        s.label = t == 0 ? "reference" : "thread " + std::to_string(t);
        s.size_bytes = bytes;
        s.stride_bytes = 128;
        s.values =
            session.device.interference(ProbeLoad::texture, ProbeLoad::texture, a_first, length,
                                        b_first, length, t == 0 ? -1 : t, threads, 128);
        bench.series.push_back(std::move(s));
    }
}

// ---- registration ----

std::vector<BenchmarkKind> sharing_kinds() {
    return {
        {"sharing", "same_cache_as:<other>: 1 when filling the other cache slows this one",
         "interference<A, B><<<1, 32>>>: A chased over 3/4 of its size before (\"reference\") and "
         "after (\"interfered\") B filled 3/4 of its own, 256 timed loads",
         AnalysisPass::measurement, analyse_sharing},
        {"count_per_sm", "count_per_sm: cache instances per SM",
         "interference<texture, texture> with the largest block: thread T (series \"thread T\") "
         "disturbs thread 0, 128 timed loads",
         AnalysisPass::measurement, analyse_count_per_sm},
    };
}

} // namespace kerncast::probe::benchmarks
