// Cache size searches (thesis sec. 3.4): the onset of the verified change point of the
// latency-versus-footprint curve of each repetition.
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_size(const RawBenchmark& b, AnalysisContext& context) {
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
        const auto location = locate_size(points, context.options.change_point);
        LatencyCurve& curve = context.result.latency_curves.emplace_back();
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
        context.note(b, fmt::format("no verified change point up to {} B: the {} is at least that "
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
        context.add(b, b.memory, fmt::format("size_bytes:shared_{}KiB", shared_kib), "B", e,
                    cache_size_bounds,
                    fmt::format("size in ({}, {}] B at carve-out preference {} % with {} B shared "
                                "memory per block",
                                lower, upper, b.carveout_percent, b.shared_bytes_per_block));
        context.result.values.back().carveout_shared_kib = shared_kib;
        return;
    }
    context.add(
        b, b.memory, "size_bytes", "B", e, cache_size_bounds,
        fmt::format("size in ({}, {}] B: onset of the verified change point", lower, upper));
}

} // namespace

// ---- device plans ----

void record_size_search(ProbeSession& session, const std::string& memory, ProbeLoad load) {
    const SweepPlan plan = session.plan_for(memory);
    auto& b = session.add_benchmark(memory + ".size", "size", memory);
    b.chain = load == ProbeLoad::global_cg ? "random" : "sequential";
    std::vector<double> found;
    for (int rep = 0; rep < plan.repetitions; ++rep) {
        session.progress(
            fmt::format("{}: size search, repetition {}/{}", memory, rep + 1, plan.repetitions));
        const auto result = search_cache_size(
            MeasureSizes([&](const std::vector<std::int64_t>& sizes) {
                return session.measure_batch(load, sizes, plan.stride_bytes, plan.measure_count, b,
                                             rep, plan.per_sm);
            }),
            plan.search);
        if (result.size_bytes > 0)
            found.push_back(static_cast<double>(result.size_bytes));
        session.progress(fmt::format("{}: {} after {} sizes in {} launches", memory,
                                     result.size_bytes > 0 ? fmt::format("{} B", result.size_bytes)
                                                           : std::string("no verified change"),
                                     result.measurements, result.rounds));
    }
    if (!found.empty()) {
        std::sort(found.begin(), found.end());
        session.sizes[memory] = static_cast<std::int64_t>(found[found.size() / 2]);
    }
}

// Constant L1 (a few bytes to 8 KiB, sec. 4.2.4) and L1.5 (beyond L1 up to the 62 KiB the
// module can use): one size per launch (one constant bank for the module).
void record_constant_size_search(ProbeSession& session, const std::string& memory,
                                 const SizeSearchOptions& search) {
    auto& b = session.add_benchmark(memory + ".size", "size", memory);
    b.chain = "sequential";
    for (int rep = 0; rep < std::max(1, session.options.repetitions); ++rep) {
        session.progress(fmt::format("{}: size search, repetition {}/{}", memory, rep + 1,
                                     session.options.repetitions));
        const auto result = search_cache_size(MeasureSize([&](std::int64_t size) {
                                                  const auto r = session.fine_grained(
                                                      ProbeLoad::constant, {size}, 64, 512, true,
                                                      false, 0, ProbeSession::batch_region_bytes);
                                                  RawSeries s;
                                                  s.repetition = rep;
                                                  s.size_bytes = size;
                                                  s.stride_bytes = 64;
                                                  s.sm_clock_mhz = r[0].sm_clock_mhz;
                                                  s.values = r[0].times;
                                                  b.series.push_back(s);
                                                  return r[0].times;
                                              }),
                                              search);
        if (result.size_bytes > 0)
            session.sizes[memory] = result.size_bytes;
    }
}

namespace {

struct CarveoutMemory {
    const char* name;
    ProbeLoad load;
};

// The searches of one memory at the distinct carve-outs its claims pin.
void record_carveout_searches_of(ProbeSession& session, const CarveoutMemory& memory, int reserved,
                                 std::int64_t per_sm, std::int64_t optin) {
    const SweepPlan plan = session.plan_for("l1");
    const std::int64_t times_bytes = plan.measure_count * sizeof(std::uint32_t);
    const std::int64_t static_shared = session.device.chase_static_shared_bytes(memory.load);
    const std::int64_t fixed = static_shared + reserved;
    std::set<int> done;
    for (const std::int64_t target : {std::int64_t{0}, per_sm / 2, optin + reserved}) {
        const std::int64_t dynamic =
            std::clamp<std::int64_t>(target - fixed, times_bytes, optin - static_shared);
        const std::int64_t claimed = dynamic + fixed;
        const int percent =
            static_cast<int>(std::min<std::int64_t>(100, (100 * claimed + per_sm - 1) / per_sm));
        if (!done.insert(percent).second)
            continue;
        session.device.set_chase_max_dynamic_shared(memory.load, dynamic);
        session.device.set_carveout_percent(percent);
        session.forced_dynamic_shared = static_cast<std::size_t>(dynamic);
        auto& b = session.add_benchmark(std::string(memory.name) + ".size.carveout_" +
                                            std::to_string(percent),
                                        "size", memory.name);
        b.chain = "sequential";
        b.carveout_percent = percent;
        b.shared_bytes_per_block = claimed;
        for (int rep = 0; rep < plan.repetitions; ++rep) {
            session.progress(fmt::format("{}: size search at carve-out {} % ({} B shared per "
                                         "block), repetition {}/{}",
                                         memory.name, percent, claimed, rep + 1, plan.repetitions));
            search_cache_size(MeasureSizes([&](const std::vector<std::int64_t>& sizes) {
                                  return session.measure_batch(memory.load, sizes,
                                                               plan.stride_bytes,
                                                               plan.measure_count, b, rep, true);
                              }),
                              plan.search);
        }
    }
}

} // namespace

// L1 / texture / read-only sizes at forced carve-outs (docs/probe.md, "Carve-outs"). The
// carve-out preference is only a hint; what pins the carve-out from below is the shared
// memory a block claims: the driver must pick a carve-out that holds it. Each search sets
// the preference to the claim (in percent of the largest carve-out) and allocates that much
// dynamic shared memory, so the carve-out is the smallest supported one holding the claim:
// the smallest (what the chase needs anyway), about half, and the largest a block can claim.
void record_carveout_size_searches(ProbeSession& session) {
    const auto& d = session.record.device;
    const int reserved = session.device.attribute(ProbeAttribute::reserved_shared_bytes_per_block);
    const std::int64_t per_sm = d.shared_memory_per_sm_bytes;
    const std::int64_t optin = d.shared_memory_per_block_optin_bytes;
    if (per_sm <= 0 || optin <= 0) {
        session.progress("carveout: the device reports no shared-memory limits; skipped");
        return;
    }
    for (const CarveoutMemory& memory :
         {CarveoutMemory{"l1", ProbeLoad::global_ca}, CarveoutMemory{"texture", ProbeLoad::texture},
          CarveoutMemory{"readonly", ProbeLoad::global_nc}})
        record_carveout_searches_of(session, memory, reserved, per_sm, optin);
    session.forced_dynamic_shared = 0;
    session.set_carveout();
}

// ---- registration ----

std::vector<BenchmarkKind> size_kinds() {
    return {
        {"size", "size_bytes (size_bytes:shared_<K>KiB at a forced carve-out)",
         "fine_grained_chase<load kind>, one footprint per block (per-SM caches: batched over SMs, "
         "1 KiB to 1 MiB in 512 B steps; l2: random chain, one launch per footprint; constant: 64 "
         "B stride, one per launch), footprints chosen by search_cache_size (size_search.hpp)",
         AnalysisPass::measurement, analyse_size},
    };
}

} // namespace kerncast::probe::benchmarks
