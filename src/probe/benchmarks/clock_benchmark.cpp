// Calibration kinds: the SM clock (clock64 against cudaEvent) and the chase overhead that
// latencies subtract (thesis sec. 4.4).
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_clock(const RawBenchmark& b, AnalysisContext& context) {
    std::vector<double> mhz;
    for (const auto& s : b.series) {
        if (s.values.size() != 2 || s.values[1] <= 0)
            bad_benchmark(b, "each clock series holds [cycles, milliseconds]");
        mhz.push_back(s.values[0] / (s.values[1] * 1e3));
    }
    if (mhz.empty())
        bad_benchmark(b, "no series");
    context.add(b, "", "sm_clock_mhz", "MHz", summarize(mhz), clock_bounds,
                "clock64 cycles over cudaEvent time of the same kernel");
}

void analyse_overhead(const RawBenchmark& b, AnalysisContext& context) {
    if (b.series.empty())
        bad_benchmark(b, "no series");
    std::vector<const RawSeries*> all;
    for (const auto& s : b.series)
        all.push_back(&s);
    Estimate e = summarize(medians(all));
    context.overheads[b.memory] = e.value;
    context.add(b, b.memory, "overhead_cycles", "cycles", e, delay_bounds,
                "timer read + address arithmetic of one chase step, no load (thesis sec. 4.4)");
}

} // namespace

// ---- device plans ----

// clock64 against cudaEvent: every other timing is interpreted with the clock.
void record_clock(ProbeSession& session) {
    session.progress("clock: clock64 against cudaEvent");
    auto& b = session.add_benchmark("clock", "clock", "");
    for (int rep = 0; rep < 3; ++rep) {
        const auto spin = session.device.spin(40'000'000); // ~20 ms at 2 GHz
        RawSeries s;
        s.repetition = rep;
        s.values = {spin.cycles, spin.milliseconds};
        b.series.push_back(std::move(s));
        session.record.sm_clock_measured_mhz = spin.cycles / (spin.milliseconds * 1e3);
    }
}

// The chase loop without its load. The shared chase has no address multiply (32-bit shared
// addresses): its overhead is the same loop's, recorded as the "shared" overhead.
void record_overhead(ProbeSession& session, const std::string& name, const std::string& memory,
                     int repetitions) {
    auto& b = session.add_benchmark(name, "overhead", memory);
    for (int rep = 0; rep < repetitions; ++rep) {
        RawSeries s;
        s.repetition = rep;
        s.values = {session.device.chase_overhead(0, 4096)};
        b.series.push_back(std::move(s));
    }
}

// ---- registration ----

std::vector<BenchmarkKind> clock_kinds() {
    return {
        {"clock", "sm_clock_mhz: clock64 cycles over cudaEvent time",
         "spin<<<1, 1>>>(40e6 cycles) between two cudaEvents, 3 repetitions; each series is "
         "[cycles, milliseconds]",
         AnalysisPass::calibration, analyse_clock},
        {"overhead", "overhead_cycles: timer read + address arithmetic of one chase step, no load",
         "chase_overhead<<<1, 32>>>, 4096 steps; 5 repetitions (3 for shared.overhead)",
         AnalysisPass::calibration, analyse_overhead},
    };
}

} // namespace kerncast::probe::benchmarks
