// Whether L1 caches global loads: .ca against .cg timings (thesis sec. 4.2.1).
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

void analyse_caching(const RawBenchmark& b, AnalysisContext& context) {
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
    const auto differs = infer_sharing(ca->values, cg->values, context.options.interference);
    Estimate e = summarize(std::vector<double>{differs.shared ? 1.0 : 0.0}, differs.p_value,
                           context.options.interference.alpha);
    if (!differs.shared) {
        e.p_value = -1;
        context.note(b, "L1 does not cache global loads (.ca no faster than .cg): the l1 size, "
                        "line and latency describe L2, not L1 (thesis sec. 4.2.1)");
    }
    context.add(b, b.memory, "caches_global_loads", "bool", e, {0, 1, "flag"},
                fmt::format(".ca {:.1f} vs .cg {:.1f} cycles", differs.reference_mean,
                            differs.interfered_mean));
}

} // namespace

// ---- device plans ----

// .ca against .cg over 4 KiB: does L1 cache global loads?
void record_caching(ProbeSession& session) {
    session.progress("l1: does L1 cache global loads (.ca vs .cg)?");
    auto& b = session.add_benchmark("l1.caching", "caching", "l1");
    b.chain = "sequential";
    for (auto [label, load] :
         {std::pair{"ca", ProbeLoad::global_ca}, std::pair{"cg", ProbeLoad::global_cg}}) {
        const auto r = session.fine_grained(load, {4 * KiB}, 128, 256, true, false, 0,
                                            ProbeSession::batch_region_bytes);
        RawSeries s;
        s.label = label;
        s.size_bytes = 4 * KiB;
        s.stride_bytes = 128;
        s.sm_clock_mhz = r[0].sm_clock_mhz;
        s.values = r[0].times;
        b.series.push_back(std::move(s));
    }
}

// ---- registration ----

std::vector<BenchmarkKind> caching_kinds() {
    return {
        {"caching", "caches_global_loads: 1 when .ca loads are faster than .cg",
         "fine_grained_chase<global_ca> and <global_cg> over 4 KiB, 128 B stride, 256 timed loads "
         "(series \"ca\", \"cg\")",
         AnalysisPass::measurement, analyse_caching},
    };
}

} // namespace kerncast::probe::benchmarks
