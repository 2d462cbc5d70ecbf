// The probe's device side as plain C++: what the host-side driving (probe_session.hpp and the
// benchmark plans of src/probe/benchmarks/) asks of a GPU. cuda/probe/probe_device.cu
// implements it with the kernels of chase_kernels.cuh and bandwidth_kernels.cuh, each method
// one launch (or one allocation) and its copies; no formatting, no decisions. Element indices
// and counts are in 4-byte elements of the probe buffer unless the name says bytes.
#pragma once

#include "kerncast/gpu/devices.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace kerncast::probe {

// The load a chase issues (mirrors device::LoadKind of cuda/probe/chase_kernels.cuh).
enum class ProbeLoad : int { global_ca, global_cg, global_nc, texture, constant };

// Per-block result of a fine-grained chase: measure_count load times (cycles), the SM clock
// over the block (MHz, 0 when the globaltimer did not advance) and the SM it ran on.
struct BlockTimes {
    std::vector<double> times;
    double sm_clock_mhz = 0;
    std::uint32_t sm = 0;
};

// One launch of a fine-grained chase: block b walks from starts[b] (lengths[b] loads in the
// warm round), then times measure_count loads.
struct FineChase {
    ProbeLoad load = ProbeLoad::global_ca;
    std::vector<std::uint32_t> starts;
    std::vector<std::uint32_t> lengths;
    std::uint32_t wrap_elements = 0xffffffffu; // constant chases: index >= wrap reads 0
    std::uint32_t measure_count = 512;
    bool warm = true;
    std::size_t dynamic_shared_bytes = 0; // at least measure_count * 4
};

// A plain chase's mean cycles per load and the SM clock of the launch.
struct PlainTiming {
    double cycles_per_load = 0;
    double sm_clock_mhz = 0;
};

// The streaming kernels of bandwidth_kernels.cuh.
enum class StreamKernel {
    read_stream,
    read_stream_l2, // read_stream with ld.global.cg: cached in L2 only, so re-reads are L2 hits
    write_stream,
    read_slices,
    write_slices,
    read_shared,
    write_shared,
    // `loads` loads and `stores` stores a point from and to slices of `count` elements each in
    // the stream region (allocate_stream_region), `passes` times: a DRAM stream of one
    // load/store mix (slices far larger than L2, one pass), or an L2 stream (slices in a quarter
    // of L2, many passes).
    mix_stream
};

// The load/store mixes mix_stream has a kernel for, as {loads, stores} a point: loads alone,
// 4, 3, 2 and 1.5 loads a store, 1:1, 1:2 and stores alone (store fractions 0, 0.2, 0.25,
// 0.33, 0.4, 0.5, 0.67 and 1), the mixes a stencil's DRAM and L2 traffic has.
inline constexpr int mix_stream_mixes[][2] = {{1, 0}, {4, 1}, {3, 1}, {2, 1},
                                              {3, 2}, {1, 1}, {1, 2}, {0, 1}};
// The grid-stride steps whose loads a mix_stream (and read_stream) thread issues before it uses
// one, each load 16 B: a thread of a mix with L loads a point keeps 16 x L x this many bytes of
// loads in flight (the DRAM's bandwidth by loads in flight, docs/probe.md).
inline constexpr int mix_stream_steps_in_flight = 4;
inline constexpr int mix_stream_load_bytes = 16;
// The most slices of one mix: loads then stores, each `count` elements, back to back.
inline constexpr int mix_stream_max_slices = 5;

// A streaming kernel and its arguments: `count` 16-byte elements (per block for slices and
// shared), `passes` over them; shared kernels claim count * 16 bytes of shared memory.
struct StreamLaunch {
    StreamKernel kernel = StreamKernel::read_stream;
    std::size_t count = 0;
    int passes = 1;
    int loads = 0; // mix_stream: one of mix_stream_mixes
    int stores = 0;
    // read_stream, write_stream: over the stream region instead of the probe buffer (the
    // DRAM streams, whose launches are then long enough for their fixed time not to count).
    bool in_stream_region = false;
};

// One launch of the loaded chase (cuda/probe/loaded_chase_kernel.cuh): thread 0 of block 0
// chases `iterations` loads (ld.global.cg) of the probe buffer's chain from `start`, timed as
// a whole after the streams have run for a ramp, then hop_iterations more, each timed alone;
// blocks 1..stream_blocks of stream_threads threads (a multiple of 32) stream loads (stores
// 0) or loads and stores (stores 1) over slices of slice_count 16-byte elements of the stream
// region until the chase is done.
struct LoadedChase {
    std::uint32_t start = 0;
    std::uint32_t iterations = 2048;
    std::uint32_t hop_iterations = 1024;
    int stream_blocks = 0;
    int stream_threads = 64;
    int stores = 0; // a store a load (1) or none (0)
    std::size_t slice_count = 0;
};

// The whole-chase cycles per load and the SM clock, the time both chases took together, the
// bytes (loads plus stores) the streams moved meanwhile, each timed hop's cycles (which include
// the timing itself), and the element the chase stopped at (where the next chase starts, on
// lines no chase has loaded).
struct LoadedChaseTiming {
    double cycles_per_load = 0;
    double sm_clock_mhz = 0;
    double chase_ms = 0;
    std::int64_t streamed_bytes = 0;
    std::vector<double> hop_cycles;
    std::uint32_t next_start = 0;
};

// Device attributes the plans read.
enum class ProbeAttribute {
    max_texture_1d_linear_elements,
    reserved_shared_bytes_per_block,
    max_threads_per_block
};

class ProbeDevice {
public:
    virtual ~ProbeDevice() = default;

    // ---- the device and its memory --------------------------------------------------------
    virtual const gpu::DeviceInfo& info() const = 0;
    virtual int attribute(ProbeAttribute attribute) const = 0;
    virtual std::int64_t free_memory_bytes() const = 0;
    // The probe buffer (elements of 4 bytes, one allocation for the run), its scratch
    // arrays (max_blocks blocks of max_measure timings) and a texture over its first
    // texture_elements.
    virtual void allocate(std::size_t elements, std::int64_t texture_elements,
                          std::uint32_t max_blocks, std::uint32_t max_measure) = 0;
    // Sets the preferred shared-memory carve-out (percent) of every chase kernel.
    virtual void set_carveout_percent(int percent) = 0;
    // Static shared memory of the fine-grained chase of `load`; and its dynamic limit.
    virtual std::int64_t chase_static_shared_bytes(ProbeLoad load) const = 0;
    virtual void set_chase_max_dynamic_shared(ProbeLoad load, std::int64_t bytes) = 0;

    // ---- chains ---------------------------------------------------------------------------
    // count pointers from first_element on, stride_elements apart, visited in the order
    // k * multiplier mod count (multiplier 1: sequential).
    virtual void build_chain(std::uint32_t first_element, std::uint32_t count,
                             std::uint32_t stride_elements, std::uint64_t multiplier) = 0;
    // The __constant__ chain (device::constant_chain_elements elements).
    virtual void upload_constant_chain(const std::vector<std::uint32_t>& chain) = 0;
    virtual std::uint32_t constant_chain_elements() const = 0;

    // ---- timed kernels --------------------------------------------------------------------
    virtual std::vector<BlockTimes> fine_grained_chase(const FineChase& chase) = 0;
    virtual PlainTiming plain_chase(ProbeLoad load, std::uint32_t start, std::uint32_t length,
                                    std::uint32_t wrap, std::uint32_t iterations, bool warm) = 0;
    // Cycles per step of the chase loop without its load.
    virtual double chase_overhead(std::uint32_t start, std::uint32_t iterations) = 0;
    // Cycles per load of a chase through shared memory.
    virtual double shared_chase(std::uint32_t elements, std::uint32_t stride_elements,
                                std::uint32_t iterations, std::size_t shared_bytes) = 0;
    // Thread 0 chases chain A; thread `other` (-1: none) chases chain B between its rounds.
    virtual std::vector<double> interference(ProbeLoad a, ProbeLoad b, std::uint32_t a_first,
                                             std::uint32_t a_length, std::uint32_t b_first,
                                             std::uint32_t b_length, int other, int threads,
                                             std::uint32_t measure_count) = 0;
    // Cycles from the first load issued to the last completed, `threads` threads loading
    // fresh lines from first_element on (one line per thread when not coalesced).
    virtual double departure(bool coalesced, std::size_t first_element, int threads) = 0;
    // SM cycles of one block of `threads` threads each running `iterations` iterations of the
    // issue-rate loop (docs/probe.md, "Issue cycles"), and the instructions one iteration
    // executes in each thread.
    struct IssueTiming {
        double cycles = 0;
        int instructions_per_iteration = 0;
    };
    virtual IssueTiming issue_rate(int threads, int iterations) = 0;
    // clock64 cycles and cudaEvent milliseconds of one thread spinning `cycles` cycles.
    struct Spin {
        double cycles = 0;
        double milliseconds = 0;
    };
    virtual Spin spin(long long cycles) = 0;
    // cudaEvent milliseconds of one launch of `blocks` empty blocks of `threads` threads (no
    // memory traffic), after an untimed warm-up launch of the same shape.
    virtual double empty_blocks_ms(int blocks, int threads) = 0;
    // A streaming kernel over the probe buffer (mix_stream, and the others with
    // in_stream_region: over the stream region), not waited for; and the same between two
    // events, in milliseconds.
    virtual void stream(const StreamLaunch& launch, int blocks, int threads) = 0;
    virtual double timed_stream_ms(const StreamLaunch& launch, int blocks, int threads) = 0;
    virtual void synchronize() = 0;
    // The stream region of the DRAM and L2 mix streams: a separate allocation of `bytes`,
    // released after.
    virtual void allocate_stream_region(std::int64_t bytes) = 0;
    virtual void release_stream_region() = 0;
    // One loaded chase (the stream region allocated for two slices), waited for; and how many
    // blocks of `threads` threads of its kernel one SM holds at once.
    virtual LoadedChaseTiming loaded_chase(const LoadedChase& chase) = 0;
    virtual int loaded_chase_blocks_per_sm(int threads) = 0;

    // ---- TLB ------------------------------------------------------------------------------
    // A separate region of `bytes`; a chain of 8-byte pointers one stride apart; and one
    // launch timing measure_count loads per footprint (chain cut after counts[f] pointers).
    virtual void allocate_tlb_region(std::int64_t bytes) = 0;
    virtual void release_tlb_region() = 0;
    virtual void build_tlb_chain(std::uint64_t count, std::uint64_t stride_bytes) = 0;
    virtual std::vector<std::vector<double>>
    tlb_chase(const std::vector<std::uint64_t>& counts, std::uint64_t built,
              std::uint64_t stride_bytes, std::uint32_t measure_count, double& sm_clock_mhz) = 0;
};

// The CUDA device `ordinal` (cuda/probe/probe_device.cu; CUDA builds only). Throws
// Error(usage) for an ordinal that does not exist, Error(unavailable) without a GPU.
std::unique_ptr<ProbeDevice> open_cuda_probe_device(int ordinal);

} // namespace kerncast::probe
