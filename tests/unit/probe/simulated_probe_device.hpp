// A ProbeDevice without a GPU: chases go through SimulatedCache models (L1 for global/texture/
// read-only loads, a constant L1), everything else returns fixed, plausible timings. Lets the
// host-side driving (probe_driver.cpp, probe_session.cpp, the benchmark plans) run in unit
// tests, and records every launch for the tests to inspect.
#pragma once

#include "kerncast/probe/probe_device.hpp"
#include "simulated_cache.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace kerncast::probe::testing {

class SimulatedProbeDevice : public ProbeDevice {
public:
    SimulatedProbeDevice() {
        info_.name = "Simulated GPU";
        info_.cc_major = 9;
        info_.sm_count = 4;
        info_.warp_size = 32;
        info_.l2_cache_bytes = 2 << 20;
        info_.max_threads_per_sm = 2048;
        info_.shared_memory_per_sm_bytes = 233472;
        info_.shared_memory_per_block_optin_bytes = 232448;
        l1.capacity_bytes = 24 * 1024;
        l1.sector_bytes = 32;
        l1.ways = 4;
        l1.hashed_sets = true;
        constant_l1.capacity_bytes = 2 * 1024;
        constant_l1.line_bytes = 64;
        constant_l1.hit_cycles = 40;
    }

    SimulatedCache l1;
    SimulatedCache constant_l1;
    // sm of each block of the next fine-grained launch (default: block index)
    std::vector<std::uint32_t> block_sms;
    int fine_launches = 0;
    int carveout_percent = -1;
    std::int64_t free_bytes = std::int64_t{8} << 30;
    // The block scheduler of empty_blocks_ms: blocks per SM cycle after a fixed launch time.
    double block_launches_per_cycle = 0.5;
    double launch_ms = 5e-3;

    const gpu::DeviceInfo& info() const override { return info_; }
    int attribute(ProbeAttribute attribute) const override {
        switch (attribute) {
        case ProbeAttribute::max_texture_1d_linear_elements:
            return 1 << 27;
        case ProbeAttribute::reserved_shared_bytes_per_block:
            return 1024;
        case ProbeAttribute::max_threads_per_block:
            return 64;
        }
        return 0;
    }
    std::int64_t free_memory_bytes() const override { return free_bytes; }
    void allocate(std::size_t elements, std::int64_t, std::uint32_t, std::uint32_t) override {
        elements_ = elements;
    }
    void set_carveout_percent(int percent) override { carveout_percent = percent; }
    std::int64_t chase_static_shared_bytes(ProbeLoad) const override { return 4; }
    void set_chase_max_dynamic_shared(ProbeLoad, std::int64_t) override {}

    void build_chain(std::uint32_t first_element, std::uint32_t count,
                     std::uint32_t stride_elements, std::uint64_t) override {
        if (first_element + std::uint64_t{count} * stride_elements > elements_)
            throw std::logic_error("chain beyond the probe buffer");
        chains_[first_element] = stride_elements;
    }
    void upload_constant_chain(const std::vector<std::uint32_t>& chain) override {
        constant_stride_elements_ = chain.at(0);
    }
    std::uint32_t constant_chain_elements() const override { return 62 * 1024 / 4; }

    std::vector<BlockTimes> fine_grained_chase(const FineChase& chase) override {
        ++fine_launches;
        std::vector<BlockTimes> blocks;
        for (std::size_t b = 0; b < chase.starts.size(); ++b) {
            BlockTimes t;
            if (chase.load == ProbeLoad::constant) {
                const int stride = static_cast<int>(constant_stride_elements_ * 4);
                t.times = constant_l1.chase(std::int64_t{chase.wrap_elements} * 4, stride,
                                            chase.measure_count);
            } else {
                const int stride = static_cast<int>(chains_.at(chase.starts[b]) * 4);
                t.times =
                    l1.chase(std::int64_t{chase.lengths[b]} * stride, stride, chase.measure_count);
            }
            t.sm_clock_mhz = 1755;
            t.sm = b < block_sms.size() ? block_sms[b] : static_cast<std::uint32_t>(b);
            blocks.push_back(std::move(t));
        }
        block_sms.clear();
        return blocks;
    }
    PlainTiming plain_chase(ProbeLoad load, std::uint32_t, std::uint32_t, std::uint32_t,
                            std::uint32_t, bool) override {
        return {load == ProbeLoad::global_cg ? 488.0 : 41.0, 1755};
    }
    double chase_overhead(std::uint32_t, std::uint32_t) override { return 8; }
    double shared_chase(std::uint32_t, std::uint32_t, std::uint32_t, std::size_t) override {
        return 30;
    }
    std::vector<double> interference(ProbeLoad, ProbeLoad, std::uint32_t, std::uint32_t,
                                     std::uint32_t, std::uint32_t, int other, int,
                                     std::uint32_t measure_count) override {
        // one cache: any disturbing thread slows thread 0 (count per SM 1)
        std::vector<double> times(measure_count);
        for (std::size_t k = 0; k < times.size(); ++k)
            times[k] = (other < 0 ? 33.0 : 220.0) + static_cast<double>(k % 3);
        return times;
    }
    double departure(bool coalesced, std::size_t, int threads) override {
        return 480 + (threads / 32 - 1) * (coalesced ? 4.0 : 320.0);
    }
    // An SM that issues 1 / issue_cycles warp instructions a cycle once 4 warps run, fewer below
    // (each warp one instruction every cycle), after 300 cycles of barrier and clock reads.
    double issue_cycles = 0.25;
    IssueTiming issue_rate(int threads, int iterations) override {
        const int instructions = 515;
        const double warps = threads / 32.0;
        const double per_instruction = std::max(issue_cycles, 1.0 / warps);
        return {300 + warps * iterations * instructions * per_instruction, instructions};
    }
    Spin spin(long long cycles) override {
        return {static_cast<double>(cycles), static_cast<double>(cycles) / 1755e3};
    }
    // Blocks started per cycle of the 1755 MHz clock spin() simulates, after a fixed launch_ms.
    double empty_blocks_ms(int blocks, int) override {
        return launch_ms + blocks / (block_launches_per_cycle * 1755e3);
    }
    void stream(const StreamLaunch& launch, int, int) override { check_stream(launch); }
    // Mixes: a DRAM of mix_gbs[store fraction] GB/s over the launch's bytes (1000 GB/s when
    // not set), or, where the slices fit in L2, an L2 of l2_mix_gbs[store fraction] (4000 when
    // not set), reached by 1024-thread blocks only.
    std::map<double, double> mix_gbs;
    std::map<double, double> l2_mix_gbs;
    std::vector<StreamLaunch> mix_launches;    // every mix_stream launch, timed or not
    std::vector<StreamLaunch> region_launches; // every other launch over the stream region
    double timed_stream_ms(const StreamLaunch& launch, int, int threads) override {
        check_stream(launch);
        if (launch.kernel != StreamKernel::mix_stream)
            return 1000.0 / threads;
        const int slices = launch.loads + launch.stores;
        const double fraction = static_cast<double>(launch.stores) / slices;
        const double slices_bytes = static_cast<double>(launch.count) * 16 * slices;
        const bool in_l2 = slices_bytes <= static_cast<double>(info_.l2_cache_bytes);
        const auto& table = in_l2 ? l2_mix_gbs : mix_gbs;
        const double gbs = table.count(fraction) ? table.at(fraction) : (in_l2 ? 4000.0 : 1000.0);
        const double bytes = slices_bytes * launch.passes;
        return bytes / (gbs * 1e9) * 1e3 * (threads == 1024 ? 1.0 : 1.25);
    }
    void synchronize() override {}
    std::int64_t stream_region_bytes = 0; // allocated now
    int stream_regions = 0;               // allocated over the run
    void allocate_stream_region(std::int64_t bytes) override {
        stream_region_bytes = bytes;
        ++stream_regions;
    }
    void release_stream_region() override { stream_region_bytes = 0; }
    // Latency under load: streams of B blocks move stream_peak_gbs x B / (B + 8) GB/s (80 % of
    // that with a store a load) and the chase takes 488 x (1 + 2 x that / peak) cycles a load
    // (the plain global_cg chase's 488 unloaded); it stops 2048 elements further on.
    double stream_peak_gbs = 1000;
    std::vector<LoadedChase> loaded_chases;
    LoadedChaseTiming loaded_chase(const LoadedChase& chase) override {
        if (chase.stores != 0 && chase.stores != 1)
            throw std::logic_error("loaded chase: 0 or 1 stores a load");
        if (static_cast<std::int64_t>(chase.slice_count) * 16 * 2 > stream_region_bytes)
            throw std::logic_error("loaded chase beyond its region");
        if (chase.slice_count <= 4 * static_cast<std::size_t>(chase.stream_blocks) *
                                     static_cast<std::size_t>(chase.stream_threads))
            throw std::logic_error("loaded chase: slices shorter than the streams' 4 steps");
        loaded_chases.push_back(chase);
        const double utilization = chase.stream_blocks / (chase.stream_blocks + 8.0);
        const double gbs = stream_peak_gbs * utilization * (chase.stores == 1 ? 0.8 : 1.0);
        LoadedChaseTiming t;
        t.cycles_per_load = 488 * (1 + 2 * utilization);
        t.sm_clock_mhz = 1755;
        t.chase_ms = chase.iterations * t.cycles_per_load / 1755e3;
        t.streamed_bytes = static_cast<std::int64_t>(gbs * 1e9 * t.chase_ms * 1e-3);
        // Hop by hop: 20 cycles of timing on top, +-(40 + 100 x utilization) in turn (a
        // standard deviation of that).
        for (std::uint32_t k = 0; k < chase.hop_iterations; ++k)
            t.hop_cycles.push_back(t.cycles_per_load + 20 +
                                   (k % 2 ? 1 : -1) * (40 + 100 * utilization));
        t.next_start = chase.start + chase.iterations + chase.hop_iterations;
        return t;
    }
    int loaded_chase_blocks_per_sm(int threads) override { return std::min(32, 2048 / threads); }
    void allocate_tlb_region(std::int64_t bytes) override { tlb_bytes_ = bytes; }
    void release_tlb_region() override { tlb_bytes_ = 0; }
    void build_tlb_chain(std::uint64_t count, std::uint64_t stride_bytes) override {
        if (static_cast<std::int64_t>(count * stride_bytes) > tlb_bytes_)
            throw std::logic_error("TLB chain beyond its region");
    }
    std::vector<std::vector<double>> tlb_chase(const std::vector<std::uint64_t>& counts,
                                               std::uint64_t, std::uint64_t,
                                               std::uint32_t measure_count,
                                               double& sm_clock_mhz) override {
        sm_clock_mhz = 1755;
        return std::vector<std::vector<double>>(counts.size(),
                                                std::vector<double>(measure_count, 300));
    }

private:
    void check_stream(const StreamLaunch& launch) {
        if (launch.in_stream_region) {
            region_launches.push_back(launch);
            if (static_cast<std::int64_t>(launch.count) * 16 > stream_region_bytes)
                throw std::logic_error("stream beyond its region");
        }
        if (launch.kernel != StreamKernel::mix_stream)
            return;
        mix_launches.push_back(launch);
        if (static_cast<std::int64_t>(launch.count) * 16 * (launch.loads + launch.stores) >
            stream_region_bytes)
            throw std::logic_error("mix stream beyond its region");
    }

    gpu::DeviceInfo info_;
    std::size_t elements_ = 0;
    std::map<std::uint32_t, std::uint32_t> chains_; // first element -> stride in elements
    std::uint32_t constant_stride_elements_ = 16;
    std::int64_t tlb_bytes_ = 0;
};

} // namespace kerncast::probe::testing
