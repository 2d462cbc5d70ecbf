// MWP-CWP departure delays (Hong & Kim 2009 sec. 3.3.1, 5.1) and Mem_LD.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/error.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_departure(const RawBenchmark& b, AnalysisContext& context) {
    // Hong & Kim 2009 sec. 3.3.1 / 5.1: W warps issue their loads back to back; the last
    // one completes after Mem_LD + (W - 1) * delay, so the slope over W is the delay per
    // warp. An uncoalesced warp issues one transaction per thread, and eq. (15) charges
    // Departure_del_uncoal per transaction. Departure_delay is the *minimum* distance between
    // two requests (sec. 3.3.1), and one load per warp makes a launch's span hostage to a
    // DRAM refresh or a row miss: each warp count contributes its fastest launch.
    if (b.direction != "coalesced" && b.direction != "uncoalesced")
        bad_benchmark(b, "direction must be \"coalesced\" or \"uncoalesced\"");
    std::vector<double> warps;
    std::vector<double> cycles;
    std::size_t launches = 0;
    for (const auto& s : b.series) {
        if (s.threads <= 0 || s.threads % context.record.device.warp_size != 0)
            bad_benchmark(b, "departure series need threads = a multiple of the warp size");
        if (s.values.empty())
            bad_benchmark(b, "a departure series has no launches");
        warps.push_back(static_cast<double>(s.threads / context.record.device.warp_size));
        cycles.push_back(*std::min_element(s.values.begin(), s.values.end()));
        launches = launches == 0 ? s.values.size() : std::min(launches, s.values.size());
    }
    if (warps.size() < 3)
        bad_benchmark(b, "needs at least three warp counts");
    const LinearFit fit = fit_line(warps, cycles);
    const double per_slope =
        b.direction == "uncoalesced" ? 1.0 / context.record.device.warp_size : 1.0;
    const Estimate e = slope_estimate(fit, warps.size(), per_slope);
    context.add(b, "",
                "departure_del_" + std::string(b.direction == "coalesced" ? "coal" : "uncoal") +
                    "_cycles",
                "cycles", e, delay_bounds,
                fmt::format("slope {:.2f} +- {:.2f} cycles/warp over {} warp counts ({}), r^2 = "
                            "{:.3f}",
                            fit.slope, fit.slope_standard_error, warps.size(),
                            launches == 1 ? std::string("one launch each")
                                          : fmt::format("fastest of {} launches each", launches),
                            fit.r_squared));
}

} // namespace

// ---- device plans ----

// W warps load lines never touched before (Hong & Kim sec. 5.1), 12 warp counts from 1 to
// 32, 15 launches each (the analysis keeps each count's fastest).
void record_departures(ProbeSession& session) {
    session.progress("mwp: departure delays (Hong & Kim sec. 5.1)");
    std::size_t next_element = session.cold_first;
    for (bool coalesced : {true, false}) {
        auto& b = session.add_benchmark(std::string("dram.departure.") +
                                            (coalesced ? "coalesced" : "uncoalesced"),
                                        "departure", "dram");
        b.direction = coalesced ? "coalesced" : "uncoalesced";
        b.note = "loads to lines never touched before (DRAM), ld.global.cg";
        for (int warps : {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28, 32}) {
            RawSeries s;
            s.blocks = 1;
            s.threads = 32 * warps;
            for (int rep = 0; rep < 15; ++rep) {
                s.values.push_back(session.device.departure(coalesced, next_element, 32 * warps));
                // Fresh lines every launch, one DRAM page apart from the last ones.
                next_element += static_cast<std::size_t>(32 * warps) * (coalesced ? 1 : 32) + 2048;
                KERNCAST_CHECK(next_element < session.cold_first + ProbeSession::cold_bytes / 8,
                               "cold region exhausted");
            }
            b.series.push_back(std::move(s));
        }
    }
}

// ---- registration ----

std::vector<BenchmarkKind> departure_kinds() {
    return {
        {"departure", "departure_del_coal_cycles, departure_del_uncoal_cycles",
         "departure<coalesced><<<1, 32 W>>> over lines never touched before (ld.global.cg), 12 "
         "warp counts W from 1 to 32, 15 launches each; the slope of each count's fastest launch",
         AnalysisPass::derived, analyse_departure},
    };
}

} // namespace kerncast::probe::benchmarks
