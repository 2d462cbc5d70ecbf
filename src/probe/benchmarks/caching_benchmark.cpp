// Whether L1 caches global loads: .ca against .cg timings (thesis sec. 4.2.1).
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

std::vector<BenchmarkKind> caching_kinds() {
    return {
        {"caching", "caches_global_loads: 1 when .ca loads are faster than .cg",
         "fine_grained_chase<global_ca> and <global_cg> over 4 KiB, 128 B stride, 256 timed loads "
         "(series \"ca\", \"cg\")",
         AnalysisPass::measurement, analyse_caching},
    };
}

} // namespace kerncast::probe::benchmarks
