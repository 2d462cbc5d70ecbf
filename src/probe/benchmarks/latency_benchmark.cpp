// Load latencies: the median chase step minus the chase overhead (thesis sec. 4.4).
#include "benchmark_plans.hpp"
#include "benchmark_support.hpp"
#include "kerncast/probe/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <span>

namespace kerncast::probe::benchmarks {

namespace {

void analyse_latency(const RawBenchmark& b, AnalysisContext& context) {
    if (b.series.empty())
        bad_benchmark(b, "no series");
    std::vector<const RawSeries*> all;
    for (const auto& s : b.series)
        all.push_back(&s);
    std::vector<double> cycles = medians(all);
    const ChaseOverhead overhead = chase_overhead_of(b.memory, context);
    for (auto& c : cycles)
        c -= overhead.cycles;
    context.add(b, b.memory, "latency_cycles", "cycles", summarize(cycles), latency_bounds,
                fmt::format("plain chase, {} chain; minus {:g} cycles overhead ({})",
                            b.chain.empty() ? "sequential" : b.chain, overhead.cycles,
                            overhead.source));
}

} // namespace

// ---- device plans ----

void upload_constant_chain(ProbeSession& session, int stride_bytes) {
    const auto stride = static_cast<std::uint32_t>(stride_bytes / 4);
    const std::uint32_t elements = session.device.constant_chain_elements();
    std::vector<std::uint32_t> chain(elements, 0);
    for (std::uint32_t k = 0; k < elements; k += stride)
        chain[k] = k + stride; // past the end reads as >= wrap: back to 0
    session.device.upload_constant_chain(chain);
}

namespace {

// One plain-chase series per repetition (at least 3).
void record_plain_series(ProbeSession& session, RawBenchmark& b, ProbeLoad load,
                         std::uint32_t first, std::uint32_t length, std::uint32_t wrap,
                         std::uint32_t iterations, bool warm, std::int64_t bytes,
                         int stride_bytes) {
    for (int rep = 0; rep < std::max(3, session.options.repetitions); ++rep) {
        const PlainTiming t =
            session.device.plain_chase(load, first, length, wrap, iterations, warm);
        RawSeries s;
        s.repetition = rep;
        s.size_bytes = bytes;
        s.stride_bytes = stride_bytes;
        s.sm_clock_mhz = t.sm_clock_mhz;
        s.values = {t.cycles_per_load};
        b.series.push_back(std::move(s));
    }
}

} // namespace

void record_latency(ProbeSession& session, const std::string& memory, ProbeLoad load,
                    std::int64_t bytes, int stride_bytes, bool random, bool warm) {
    session.progress(memory + ": latency");
    auto& b = session.add_benchmark(memory + ".latency", "latency", memory);
    b.chain = random ? "random" : "sequential";
    const std::uint32_t first = bytes > ProbeSession::batch_region_bytes ? session.sweep_first : 0u;
    session.build_chain(first, bytes, stride_bytes, random);
    record_plain_series(session, b, load, first, static_cast<std::uint32_t>(bytes / stride_bytes),
                        0xffffffffu, 4096, warm, bytes, stride_bytes);
}

// Constant L1 on 1 KiB; L1.5 on 16 KiB, which evicts L1 but stays in L1.5 (sec. 4.4).
void record_constant_latency(ProbeSession& session, const std::string& memory,
                             std::int64_t wrap_bytes) {
    session.progress(memory + ": latency");
    auto& b = session.add_benchmark(memory + ".latency", "latency", memory);
    b.chain = "sequential";
    record_plain_series(session, b, ProbeLoad::constant, 0,
                        static_cast<std::uint32_t>(wrap_bytes / 64),
                        static_cast<std::uint32_t>(wrap_bytes / 4), 4096, true, wrap_bytes, 64);
}

void record_shared_latency(ProbeSession& session) {
    session.progress("shared: latency");
    auto& b = session.add_benchmark("shared.latency", "latency", "shared");
    b.chain = "sequential";
    for (int rep = 0; rep < std::max(3, session.options.repetitions); ++rep) {
        RawSeries s;
        s.repetition = rep;
        s.size_bytes = 4 * KiB;
        s.stride_bytes = 4;
        s.values = {session.device.shared_chase(1024, 1, 4096, 4 * KiB)};
        b.series.push_back(std::move(s));
    }
}

// A random chain over 4x L2, evicted from L2 before every repetition.
void record_dram_latency(ProbeSession& session) {
    session.progress("dram: latency");
    auto& b = session.add_benchmark("dram.latency", "latency", "dram");
    b.chain = "random";
    b.note = "random chain over 4x L2 after evicting L2; includes TLB misses of the pages";
    const std::int64_t bytes = std::min<std::int64_t>(4 * session.l2_bytes, session.sweep_bytes);
    session.build_chain(session.sweep_first, bytes, 128, true);
    // Evict the chain from L2: stream over the batch regions (> 2x L2 on current GPUs).
    StreamLaunch evict;
    evict.kernel = StreamKernel::write_stream;
    evict.count =
        static_cast<std::size_t>(ProbeSession::batch_region_bytes * ProbeSession::max_batch / 16);
    evict.passes = 1;
    for (int rep = 0; rep < std::max(3, session.options.repetitions); ++rep) {
        session.device.stream(evict, session.sm_count * 4, 512);
        const PlainTiming t = session.device.plain_chase(ProbeLoad::global_cg, session.sweep_first,
                                                         static_cast<std::uint32_t>(bytes / 128),
                                                         0xffffffffu, 2048, false);
        RawSeries s;
        s.repetition = rep;
        s.size_bytes = bytes;
        s.stride_bytes = 128;
        s.sm_clock_mhz = t.sm_clock_mhz;
        s.values = {t.cycles_per_load};
        b.series.push_back(std::move(s));
    }
}

// ---- registration ----

std::vector<BenchmarkKind> latency_kinds() {
    return {
        {"latency", "latency_cycles: plain chase step minus the overhead",
         "plain_chase<<<1, 32>>>, 4096 steps of 128 B (l2: 4 MiB random chain; dram: random over "
         "4x L2 after evicting it with write_stream; constant: wrap at 1 / 16 KiB, 64 B stride); "
         "shared_chase<<<1, 32>>> for shared",
         AnalysisPass::measurement, analyse_latency},
    };
}

} // namespace kerncast::probe::benchmarks
