// MWP-CWP's Issue_cycles (Hong & Kim 2009, Table 1, eq. (19)): the SM cycles one warp
// instruction takes to issue, from one block's cycles over the iterations of a loop that no
// execution pipe limits (docs/probe.md, "Issue cycles").
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <iterator>
#include <map>
#include <string>

namespace kerncast::probe::benchmarks {

namespace {

inline constexpr PhysicalBounds issue_bounds{0.01, 64.0, "issue cycles per warp instruction"};

struct IssueLabel {
    int iterations = 0;
    int instructions = 0; // per iteration, in each thread
};

IssueLabel parse_issue_label(const RawBenchmark& b, const RawSeries& s) {
    IssueLabel label;
    char tail = 0;
    if (std::sscanf(s.label.c_str(), "iterations %d x %d instructions%c", &label.iterations,
                    &label.instructions, &tail) != 2 ||
        label.iterations <= 0 || label.instructions <= 0)
        bad_benchmark(b, "an issue_rate series is labelled \"iterations N x I instructions\" "
                         "(positive N and I), not \"" +
                             s.label + "\"");
    return label;
}

// The cycles of W warps grow by W x I x Issue_cycles an iteration once the warps keep the
// issue busy: a line over the iteration counts per warp count W (the barrier and clock reads
// are its intercept), its slope over W x I. Fewer warps than the SM has schedulers leave issue
// slots empty and read slower, so the value is that of the warp count with the fewest cycles
// per instruction; every count's figure is in the detail.
void analyse_issue_rate(const RawBenchmark& b, AnalysisContext& context) {
    const int warp_size = context.record.device.warp_size;
    struct Points {
        std::vector<double> iterations;
        std::vector<double> cycles;
        int instructions = 0;
    };
    std::map<std::int64_t, Points> by_warps;
    for (const auto& s : b.series) {
        if (s.threads <= 0 || warp_size <= 0 || s.threads % warp_size != 0)
            bad_benchmark(b, "issue_rate series need threads = a multiple of the warp size");
        const IssueLabel label = parse_issue_label(b, s);
        Points& p = by_warps[s.threads / warp_size];
        if (p.instructions != 0 && p.instructions != label.instructions)
            bad_benchmark(b, "the series of one warp count disagree on the instructions an "
                             "iteration");
        p.instructions = label.instructions;
        for (double v : s.values) {
            p.iterations.push_back(label.iterations);
            p.cycles.push_back(v);
        }
    }
    std::string detail;
    Estimate best;
    std::int64_t best_warps = 0;
    std::map<std::int64_t, double> figures;
    for (const auto& [warps, p] : by_warps) {
        if (std::adjacent_find(p.iterations.begin(), p.iterations.end(), std::not_equal_to<>()) ==
                p.iterations.end() ||
            p.iterations.size() < 3)
            bad_benchmark(b, fmt::format("{} warps: needs at least three timings over at least "
                                         "two iteration counts",
                                         warps));
        const LinearFit fit = fit_line(p.iterations, p.cycles);
        const double per_instruction = 1.0 / (static_cast<double>(warps) * p.instructions);
        const Estimate e = slope_estimate(fit, p.iterations.size(), per_instruction);
        detail += fmt::format("{}{} warps {:.4f}", detail.empty() ? "" : ", ", warps, e.value);
        figures[warps] = e.value;
        if (best_warps == 0 || e.value < best.value) {
            best = e;
            best_warps = warps;
        }
    }
    if (best_warps == 0)
        bad_benchmark(b, "no series");
    // Saturated: the most warps measured issue no faster than the next fewer count (within
    // 5 %). Otherwise more warps might have issued faster still.
    if (const auto fewer = figures.lower_bound(best_warps);
        best.value > 0 && best_warps == figures.rbegin()->first && fewer != figures.begin() &&
        std::prev(fewer)->second > 1.05 * best.value) {
        best.confidence = Confidence::low;
        best.note = fmt::format("not saturated: {} warps issued {:.0f} % faster than {}; more "
                                "warps a block may issue faster still",
                                best_warps, 100 * (std::prev(fewer)->second / best.value - 1),
                                std::prev(fewer)->first);
    }
    context.add(b, "", "issue_cycles", "cycles", best, issue_bounds,
                fmt::format("SM cycles per warp instruction, the least over the warp counts "
                            "(slope of cycles over iterations / warps / {} instructions): {}",
                            by_warps.begin()->second.instructions, detail));
}

} // namespace

// ---- device plans ----

// One block of W = 1, 2, 4, 8, 16, 32 warps at three iteration counts, five launches each.
void record_issue_rate(ProbeSession& session) {
    session.progress("mwp: issue cycles (Hong & Kim Table 1)");
    auto& b = session.add_benchmark("sm.issue_rate", "issue_rate", "");
    b.note = "one block; per thread 64 steps of 4 FP32 fma and 2 x (xor, add) an iteration; "
             "clock64 from the first barrier to the last";
    const int max_threads = session.device.attribute(ProbeAttribute::max_threads_per_block);
    for (int warps : {1, 2, 4, 8, 16, 32}) {
        if (32 * warps > max_threads)
            break;
        for (int iterations : {32, 128, 512}) {
            RawSeries s;
            s.blocks = 1;
            s.threads = 32 * warps;
            int instructions = 0;
            for (int rep = 0; rep < 5; ++rep) {
                const auto timing = session.device.issue_rate(32 * warps, iterations);
                s.values.push_back(timing.cycles);
                instructions = timing.instructions_per_iteration;
            }
            s.label = fmt::format("iterations {} x {} instructions", iterations, instructions);
            b.series.push_back(std::move(s));
        }
    }
}

// ---- registration ----

std::vector<BenchmarkKind> issue_rate_kinds() {
    return {
        {"issue_rate", "issue_cycles",
         "issue_rate<<<1, 32 W>>>, W = 1 to 32 warps, 32/128/512 iterations of 512 independent "
         "FP32 and integer instructions, 5 launches each; the slope over iterations / W / "
         "instructions, least over W",
         AnalysisPass::measurement, analyse_issue_rate},
    };
}

} // namespace kerncast::probe::benchmarks
