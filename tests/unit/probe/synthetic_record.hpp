// A probe record with known answers, generated from simulated caches: what a GPU with
// L1 = 200 KiB (128 B lines of 32 B sectors, 33 cycles), texture/read-only sharing L1, constant L1
// 2 KiB, L2 near/far 200/280 cycles, DRAM 480 cycles, ... would have recorded. Used by the analysis
// tests and (written to data/synthetic-gpu/raw.json) by the CLI replay tests.
#pragma once

#include "kerncast/probe/raw_series.hpp"
#include "kerncast/probe/tlb.hpp"
#include "simulated_cache.hpp"
#include "simulated_tlb.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <random>
#include <string>
#include <tuple>

namespace kerncast::probe::testing {

struct SyntheticTruth {
    std::int64_t l1_bytes = 200 * 1024;
    int l1_line_bytes = 128;  // what a tag covers
    int l1_sector_bytes = 32; // what a miss fetches
    double l1_hit_cycles = 33;
    std::int64_t constant_l1_bytes = 2 * 1024;
    int constant_l1_line_bytes = 64;
    double overhead_cycles = 8;
    double dram_cycles = 480;
    double l2_near_cycles = 200;
    double l2_far_cycles = 280;
    int texture_per_sm = 1;
    double sm_clock_mhz = 1755;
    double dram_load_gbs = 3000;
    double departure_coal = 4;
    double departure_uncoal = 10;
    double issue_cycles = 0.25; // SM cycles per warp instruction, from 4 warps on
    // Stores, carve-outs, TLB (docs/probe.md).
    double l1_store_gbs = 9000;
    double shared_store_gbs = 16000;
    std::int64_t l1_bytes_at_largest_carveout = 28 * 1024;
    std::int64_t tlb_page_bytes = 2 << 20;
    std::int64_t l1_tlb_entries = 16;
    double l1_tlb_miss_cycles = 60;
    std::int64_t l2_tlb_entries = 512;
    double l2_tlb_miss_cycles = 240;
    // DRAM bandwidth by load/store mix ("LOADS:STORES" a point), GB/s.
    std::vector<std::pair<std::string, double>> dram_mix_gbs = {
        {"1:0", 3030}, {"4:1", 2990}, {"3:1", 2960}, {"2:1", 2860},
        {"3:2", 2855}, {"1:1", 2820}, {"1:2", 2765}, {"0:1", 3115}};
    // L2 bandwidth by load/store mix: a few stores among loads move more bytes than loads
    // alone, stores alone the fewest.
    std::vector<std::pair<std::string, double>> l2_mix_gbs = {
        {"1:0", 6400}, {"4:1", 7200}, {"3:1", 7300}, {"2:1", 6900},
        {"3:2", 6000}, {"1:1", 5200}, {"1:2", 4200}, {"0:1", 3600}};
    // DRAM latency under load: {mix, streaming blocks, streamed GB/s, chase cycles a load
    // including the overhead, standard deviation of the timed hops}.
    std::vector<std::tuple<std::string, int, double, double, double>> dram_loaded = {
        {"1:0", 0, 0, 488, 30}, {"1:0", 132, 1500, 620, 90},  {"1:0", 528, 2900, 1050, 300},
        {"1:1", 0, 0, 490, 32}, {"1:1", 132, 1400, 650, 100}, {"1:1", 528, 2700, 1200, 350}};
};

inline ProbeRecord synthetic_record(const SyntheticTruth& truth = {}) {
    ProbeRecord record;
    auto& d = record.device;
    d.name = "Synthetic GPU";
    d.pci_bus_id = "0000:00:00.0";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.warp_size = 32;
    d.sm_clock_peak_mhz = 1980;
    d.memory_clock_peak_mhz = 2619;
    d.memory_bus_width_bits = 5120;
    d.global_memory_bytes = 85520809984;
    d.l2_cache_bytes = 52428800;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.registers_per_sm = 65536;
    d.shared_memory_per_sm_bytes = 233472;
    d.shared_memory_per_block_optin_bytes = 232448;
    d.driver_version = 13000;
    d.runtime_version = 13000;
    record.sm_clock_measured_mhz = truth.sm_clock_mhz;
    record.carveout_percent = 0;
    record.l1_shared_bytes_per_sm = 262144;
    record.date = "2026-11-21T12:00:00Z";
    record.command = "synthetic_record() in tests/unit/probe/synthetic_record.hpp";
    record.tool_version = "test";
    record.host = "simulation";

    std::mt19937 rng(42);
    std::normal_distribution<double> noise(0.0, 1.0);
    const auto jitter = [&](double value, double sigma) {
        return std::round(value + sigma * noise(rng));
    };

    SimulatedCache l1;
    l1.capacity_bytes = truth.l1_bytes;
    l1.line_bytes = truth.l1_line_bytes;
    l1.sector_bytes = truth.l1_sector_bytes;
    l1.ways = 4;
    l1.hashed_sets = true;
    l1.hit_cycles = truth.l1_hit_cycles + truth.overhead_cycles;
    l1.miss_cycles = truth.l2_near_cycles + truth.overhead_cycles;
    l1.noise_cycles = 1;

    // Size sweep (three repetitions, as the batched runner records them).
    RawBenchmark size{"l1.size", "size", "l1", "", "", "sequential", "cycles", "", {}};
    for (int rep = 0; rep < 3; ++rep) {
        SimulatedCache c = l1;
        c.seed = static_cast<std::uint32_t>(rep + 1);
        std::vector<std::int64_t> sizes;
        for (std::int64_t s = 1024; s <= 128 * 1024; s *= 2)
            sizes.push_back(s);
        for (std::int64_t s = 196 * 1024; s <= 204 * 1024; s += 512)
            sizes.push_back(s);
        sizes.push_back(256 * 1024);
        for (std::int64_t s : sizes)
            size.series.push_back(
                {"", rep, s, 128, 0, 0, 0, truth.sm_clock_mhz, c.chase(s, 128, 256)});
    }
    record.benchmarks.push_back(size);

    // Line size: 4-byte stride, array 4x the capacity.
    RawBenchmark line{"l1.line", "line", "l1", "", "", "sequential", "cycles", "", {}};
    for (int rep = 0; rep < 2; ++rep) {
        SimulatedCache c = l1;
        c.seed = static_cast<std::uint32_t>(10 + rep);
        line.series.push_back({"", rep, 4 * truth.l1_bytes, 4, 0, 0, 0, truth.sm_clock_mhz,
                               c.chase(4 * truth.l1_bytes, 4, 2048)});
    }
    record.benchmarks.push_back(line);

    // Tag line: doubling strides over 1.25x the capacity, after a reference chase that fits.
    RawBenchmark tag_line{"l1.tag_line", "tag_line", "l1", "", "", "sequential", "cycles", "", {}};
    const std::int64_t beyond = truth.l1_bytes * 5 / 4;
    for (int rep = 0; rep < 2; ++rep) {
        SimulatedCache c = l1;
        c.seed = static_cast<std::uint32_t>(20 + rep);
        tag_line.series.push_back({"hits", rep, truth.l1_bytes / 2, 32, 0, 0, 0, truth.sm_clock_mhz,
                                   c.chase(truth.l1_bytes / 2, 32, 2048)});
        for (int stride = 32; stride <= 1024; stride *= 2)
            tag_line.series.push_back({"", rep, beyond, stride, 0, 0, 0, truth.sm_clock_mhz,
                                       c.chase(beyond, stride, 2048)});
    }
    record.benchmarks.push_back(tag_line);

    // Constant L1: a small cache, searched with a fine step.
    SimulatedCache constant;
    constant.capacity_bytes = truth.constant_l1_bytes;
    constant.line_bytes = truth.constant_l1_line_bytes;
    constant.hit_cycles = 30;
    constant.miss_cycles = 90;
    RawBenchmark constant_size{
        "constant_l1.size", "size", "constant_l1", "", "", "sequential", "cycles", "", {}};
    for (std::int64_t s = 256; s <= 4096; s += 128)
        constant_size.series.push_back(
            {"", 0, s, 64, 0, 0, 0, truth.sm_clock_mhz, constant.chase(s, 64, 128)});
    record.benchmarks.push_back(constant_size);

    // Overhead and latencies: cycles per load of a plain chase (5 repetitions each).
    RawBenchmark overhead{"overhead", "overhead", "", "", "", "", "cycles", "", {}};
    for (int rep = 0; rep < 5; ++rep)
        overhead.series.push_back({"",
                                   rep,
                                   0,
                                   0,
                                   0,
                                   0,
                                   0,
                                   truth.sm_clock_mhz,
                                   {truth.overhead_cycles, truth.overhead_cycles}});
    record.benchmarks.push_back(overhead);
    const auto latency = [&](const std::string& memory, double cycles, const std::string& chain) {
        RawBenchmark b{memory + ".latency", "latency", memory, "", "", chain, "cycles", "", {}};
        for (int rep = 0; rep < 5; ++rep)
            b.series.push_back({"",
                                rep,
                                0,
                                0,
                                0,
                                0,
                                0,
                                truth.sm_clock_mhz,
                                {cycles + truth.overhead_cycles + 0.1 * rep}});
        record.benchmarks.push_back(b);
    };
    latency("l1", truth.l1_hit_cycles, "sequential");
    latency("l2", truth.l2_near_cycles + 20, "random");
    latency("dram", truth.dram_cycles, "random");

    // L1 caches global loads: .ca hits (33) vs .cg goes to L2.
    RawBenchmark caching{"l1.caching", "caching", "l1", "", "", "sequential", "cycles", "", {}};
    caching.series.push_back(
        {"ca", 0, 4096, 128, 0, 0, 0, truth.sm_clock_mhz, l1.chase(4096, 128, 64)});
    SimulatedCache bypass = l1;
    bypass.hit_cycles = truth.l2_near_cycles;
    caching.series.push_back(
        {"cg", 0, 4096, 128, 0, 0, 0, truth.sm_clock_mhz, bypass.chase(4096, 128, 64)});
    record.benchmarks.push_back(caching);

    // Texture shares L1: after the texture chase, L1's array misses.
    RawBenchmark sharing{"sharing.l1.texture", "sharing", "l1", "texture", "",
                         "sequential",         "cycles",  "",   {}};
    sharing.series.push_back({"reference", 0, truth.l1_bytes * 3 / 4, 128, 0, 0, 0,
                              truth.sm_clock_mhz, l1.chase(truth.l1_bytes * 3 / 4, 128, 512)});
    sharing.series.push_back({"interfered", 0, truth.l1_bytes * 3 / 4, 128, 0, 0, 0,
                              truth.sm_clock_mhz, l1.chase(truth.l1_bytes * 3 / 2, 128, 512)});
    record.benchmarks.push_back(sharing);

    // Count per SM: with one texture instance every thread disturbs thread 0.
    RawBenchmark count{"texture.count_per_sm", "count_per_sm", "texture", "", "",
                       "sequential",           "cycles",       "",        {}};
    count.series.push_back({"reference", 0, 0, 128, 0, 0, 0, truth.sm_clock_mhz,
                            std::vector<double>(64, truth.l1_hit_cycles)});
    for (int t = 1; t < 128; ++t) {
        const bool shares = ((t / 32) % 4) / (4 / truth.texture_per_sm) == 0;
        const double cycles = shares ? 3 * truth.l1_hit_cycles : truth.l1_hit_cycles;
        count.series.push_back({"thread " + std::to_string(t), 0, 0, 128, 0, 0, 0,
                                truth.sm_clock_mhz, std::vector<double>(16, jitter(cycles, 0.3))});
    }
    record.benchmarks.push_back(count);

    // DRAM load bandwidth: three launch shapes, the largest reaches the peak.
    RawBenchmark dram_bw{"dram.load_bandwidth", "bandwidth", "dram", "", "load", "", "ms", "", {}};
    const std::int64_t bytes = 2LL << 30;
    for (auto [blocks, threads, fraction] :
         {std::tuple{132, 256, 0.55}, std::tuple{264, 512, 0.85}, std::tuple{528, 1024, 1.0}}) {
        std::vector<double> ms;
        for (int rep = 0; rep < 5; ++rep)
            ms.push_back(static_cast<double>(bytes) / (truth.dram_load_gbs * fraction * 1e9) * 1e3 *
                         (1.0 + 0.002 * rep));
        dram_bw.series.push_back({"", 0, 0, 0, blocks, threads, bytes, truth.sm_clock_mhz, ms});
    }
    record.benchmarks.push_back(dram_bw);

    // DRAM (L2) bandwidth by load/store mix: three launch shapes a mix, 2 x 1024-thread blocks
    // an SM reach it, one 256-thread block an SM (the DRAM's in-flight point: 16 KiB of loads a
    // load a point) 0.7 of it; DRAM launches move 1 GiB a slice, L2 launches 100 passes over
    // 512 KiB slices.
    for (const auto& [memory, table] : {std::pair{std::string("dram"), truth.dram_mix_gbs},
                                        std::pair{std::string("l2"), truth.l2_mix_gbs}}) {
        RawBenchmark mixes{
            memory + ".mixed_bandwidth", "mixed_bandwidth", memory, "", "", "", "ms", "", {}};
        for (const auto& [label, gbs] : table) {
            const std::int64_t slices = std::stoll(label.substr(0, label.find(':'))) +
                                        std::stoll(label.substr(label.find(':') + 1));
            const std::int64_t moved = memory == "dram" ? slices << 30 : (std::int64_t{100} << 19);
            for (auto [blocks, threads, fraction] :
                 {std::tuple{132, 256, 0.7}, std::tuple{264, 512, 0.9},
                  std::tuple{264, 1024, 1.0}}) {
                std::vector<double> ms;
                for (int rep = 0; rep < 5; ++rep)
                    ms.push_back(static_cast<double>(moved) / (gbs * fraction * 1e9) * 1e3 *
                                 (1.0 + 0.002 * rep));
                mixes.series.push_back(
                    {label, 0, 0, 0, blocks, threads, moved, truth.sm_clock_mhz, ms});
            }
        }
        record.benchmarks.push_back(mixes);
    }

    // DRAM latency under load: three repetitions a point, cycles +0, +2, -2; each with 16
    // timed hops 25 cycles over the chase's, +-(stddev + 0, +1, -1) in turn.
    RawBenchmark loaded{
        "dram.loaded_latency", "loaded_latency", "dram", "", "", "random", "cycles", "", {}};
    for (const auto& [label, blocks, gbs, cycles, stddev] : truth.dram_loaded)
        for (int rep = 0; rep < 3; ++rep) {
            const double step = rep == 0 ? 0 : rep == 1 ? 2 : -2;
            const double cycles_per_load = cycles + step;
            const double ms = 3072 * cycles_per_load / (truth.sm_clock_mhz * 1e3);
            loaded.series.push_back({label, rep, std::int64_t{4} * 52428800, 128, blocks,
                                     blocks > 0 ? 64 : 0,
                                     static_cast<std::int64_t>(std::llround(gbs * 1e6 * ms)),
                                     truth.sm_clock_mhz, std::vector<double>{cycles_per_load, ms}});
            std::vector<double> hops;
            for (int k = 0; k < 16; ++k)
                hops.push_back(cycles_per_load + 25 + (k % 2 ? 1 : -1) * (stddev + step / 2));
            loaded.series.push_back({label + " hops", rep, std::int64_t{4} * 52428800, 128, blocks,
                                     blocks > 0 ? 64 : 0, 0, truth.sm_clock_mhz, hops});
        }
    record.benchmarks.push_back(loaded);

    // Departure delays: W warps, last load returns after Mem_LD + (W-1) * delay.
    for (const std::string direction : {"coalesced", "uncoalesced"}) {
        RawBenchmark b{"dram.departure." + direction,
                       "departure",
                       "dram",
                       "",
                       direction,
                       "random",
                       "cycles",
                       "",
                       {}};
        const double per_warp =
            direction == "coalesced" ? truth.departure_coal : 32 * truth.departure_uncoal;
        for (int warps = 1; warps <= 16; warps *= 2)
            b.series.push_back({"",
                                0,
                                0,
                                0,
                                1,
                                32 * warps,
                                0,
                                truth.sm_clock_mhz,
                                {truth.dram_cycles + (warps - 1) * per_warp}});
        record.benchmarks.push_back(b);
    }

    // Issue rate: W warps, 515 instructions an iteration; below 4 warps each warp issues one
    // instruction a cycle; 300 cycles of barriers and clock reads.
    RawBenchmark issue{"sm.issue_rate", "issue_rate", "", "", "", "", "cycles", "", {}};
    for (int warps = 1; warps <= 32; warps *= 2)
        for (int iterations : {32, 128, 512}) {
            const double per_instruction = std::max(truth.issue_cycles, 1.0 / warps);
            const double cycles = 300 + warps * iterations * 515 * per_instruction;
            issue.series.push_back({fmt::format("iterations {} x 515 instructions", iterations), 0,
                                    0, 0, 1, 32 * warps, 0, truth.sm_clock_mhz,
                                    std::vector<double>{cycles, cycles + 2, cycles - 2}});
        }
    record.benchmarks.push_back(issue);

    // L2 partitions: per-SM L2 hit times, half the lines near, half far.
    RawBenchmark partition{"l2.partition", "l2_partition", "l2", "", "",
                           "random",       "cycles",       "",   {}};
    for (int sm = 0; sm < 8; ++sm) {
        std::vector<double> times;
        for (int k = 0; k < 64; ++k)
            times.push_back(jitter(k % 2 == 0 ? truth.l2_near_cycles : truth.l2_far_cycles, 3));
        partition.series.push_back(
            {"sm " + std::to_string(sm), 0, 0, 0, 0, 0, 0, truth.sm_clock_mhz, times});
    }
    record.benchmarks.push_back(partition);

    // Store bandwidths of L1 and shared memory: per-block slices, bytes scale with blocks.
    for (auto [memory, gbs] : {std::pair{std::string("l1"), truth.l1_store_gbs},
                               std::pair{std::string("shared"), truth.shared_store_gbs}}) {
        RawBenchmark b{
            memory + ".store_bandwidth", "bandwidth", memory, "", "store", "", "ms", "", {}};
        for (auto [factor, fraction] : {std::pair{1, 0.7}, std::pair{2, 1.0}}) {
            const std::int64_t blocks = 132 * factor;
            const std::int64_t moved = blocks * 16 * 1024 * 100;
            std::vector<double> ms;
            for (int rep = 0; rep < 5; ++rep)
                ms.push_back(static_cast<double>(moved) / (gbs * fraction * 1e9) * 1e3 *
                             (1.0 + 0.001 * rep));
            b.series.push_back({"", 0, 0, 0, blocks, 1024, moved, truth.sm_clock_mhz, ms});
        }
        record.benchmarks.push_back(b);
    }

    // L1 size at the largest carve-out (the kernel claimed 228 KiB of shared memory per
    // block): a smaller L1, same lines and latencies.
    RawBenchmark carveout{"l1.size.carveout_100", "size",   "l1", "", "",
                          "sequential",           "cycles", "",   {}};
    carveout.carveout_percent = 100;
    carveout.shared_bytes_per_block = 228 * 1024;
    {
        SimulatedCache small = l1;
        small.capacity_bytes = truth.l1_bytes_at_largest_carveout;
        for (int rep = 0; rep < 3; ++rep) {
            small.seed = static_cast<std::uint32_t>(20 + rep);
            std::vector<std::int64_t> sizes{1024, 2048, 4096, 8192, 16384};
            for (std::int64_t s = 24 * 1024; s <= 32 * 1024; s += 512)
                sizes.push_back(s);
            sizes.push_back(64 * 1024);
            for (std::int64_t s : sizes)
                carveout.series.push_back(
                    {"", rep, s, 128, 0, 0, 0, truth.sm_clock_mhz, small.chase(s, 128, 256)});
        }
    }
    record.benchmarks.push_back(carveout);

    // TLB: a stride sweep of the simulated two-level TLB, measured with the runner's plan
    // (coarse footprints, then refinement around every step).
    RawBenchmark tlb_bench{"tlb", "tlb", "tlb", "", "", "sequential", "cycles", "", {}};
    tlb_bench.note = "synthetic: two TLB levels, 2 MiB pages";
    {
        SimulatedTlb tlb;
        tlb.page_bytes = truth.tlb_page_bytes;
        tlb.levels = {{truth.l1_tlb_entries, truth.l1_tlb_miss_cycles, 0},
                      {truth.l2_tlb_entries, truth.l2_tlb_miss_cycles, 0}};
        tlb.noise_cycles = 3;
        for (std::int64_t stride : {512 * 1024, 1 << 20, 2 << 20, 4 << 20, 8 << 20}) {
            TlbCurveOptions plan;
            plan.points_per_octave = 4;
            const TlbCurve curve = measure_tlb_curve(
                [&](const std::vector<std::int64_t>& footprints) {
                    std::vector<std::vector<double>> timings;
                    for (std::int64_t f : footprints)
                        timings.push_back(tlb.chase(stride, f, 32));
                    return timings;
                },
                stride, std::min<std::int64_t>(4LL << 30, stride * 4096), plan);
            for (const auto& p : curve.points)
                tlb_bench.series.push_back({"", 0, p.size_bytes, static_cast<int>(stride), 0, 0, 0,
                                            truth.sm_clock_mhz, p.timings});
        }
    }
    record.benchmarks.push_back(tlb_bench);

    // Clock: cycles over event time.
    RawBenchmark clock{"clock", "clock", "", "", "", "", "cycles", "", {}};
    for (int rep = 0; rep < 3; ++rep)
        clock.series.push_back({"",
                                rep,
                                0,
                                0,
                                0,
                                0,
                                0,
                                0,
                                {truth.sm_clock_mhz * 1e3 * 10.0 * (1 + 0.001 * rep), 10.0}});
    record.benchmarks.push_back(clock);
    return record;
}

} // namespace kerncast::probe::testing
