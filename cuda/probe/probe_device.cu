// The probe's device side (probe_device.hpp): each method is one launch of a kernel of
// chase_kernels.cuh / bandwidth_kernels.cuh (or one allocation) with its copies. The driving
// (which sizes, in which order, what is recorded) is host code in src/probe/.
#include "../cuda_raii.hpp"
#include "bandwidth_kernels.cuh"
#include "chase_kernels.cuh"
#include "issue_rate_kernel.cuh"
#include "kerncast/error.hpp"
#include "kerncast/probe/probe_device.hpp"
#include "kerncast/probe/runner.hpp"
#include "loaded_chase_kernel.cuh"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kerncast::probe {

bool probe_built_with_cuda() {
    return true;
}

ProbeRecord run_probe(const ProbeOptions& options) {
    const auto device = open_cuda_probe_device(options.device);
    return run_probe_on(*device, options);
}

namespace {

using device::BlockClock;
using device::LoadKind;
using gpu::DeviceBuffer;
using gpu::Event;

// Calls launch(std::integral_constant<LoadKind, kind>{}): turns the run-time load kind into the
// template argument of the chase kernels, one switch for all of them.
template <class Launch> void with_load_kind(ProbeLoad load, Launch&& launch) {
    switch (load) {
    case ProbeLoad::global_ca:
        return launch(std::integral_constant<LoadKind, LoadKind::global_ca>{});
    case ProbeLoad::global_cg:
        return launch(std::integral_constant<LoadKind, LoadKind::global_cg>{});
    case ProbeLoad::global_nc:
        return launch(std::integral_constant<LoadKind, LoadKind::global_nc>{});
    case ProbeLoad::texture:
        return launch(std::integral_constant<LoadKind, LoadKind::texture>{});
    case ProbeLoad::constant:
        return launch(std::integral_constant<LoadKind, LoadKind::constant>{});
    }
}

const void* fine_grained_kernel(ProbeLoad load) {
    const void* kernel = nullptr;
    with_load_kind(load, [&](auto kind) {
        kernel = reinterpret_cast<const void*>(&device::fine_grained_chase<decltype(kind)::value>);
    });
    return kernel;
}

double mhz_of(const BlockClock& c) {
    return c.nanoseconds > 0
               ? static_cast<double>(c.cycles) / static_cast<double>(c.nanoseconds) * 1e3
               : 0.0;
}

std::vector<double> as_doubles(const std::vector<std::uint32_t>& values, std::size_t first,
                               std::size_t count) {
    return {values.begin() + static_cast<long>(first),
            values.begin() + static_cast<long>(first + count)};
}

class CudaProbeDevice final : public ProbeDevice {
public:
    explicit CudaProbeDevice(int ordinal) : ordinal_(ordinal) {
        const auto devices = gpu::query_devices(); // throws unavailable without GPU/driver
        if (ordinal < 0 || ordinal >= static_cast<int>(devices.size()))
            throw Error(ErrorKind::usage, "--device " + std::to_string(ordinal) +
                                              " does not exist (" + std::to_string(devices.size()) +
                                              " GPU(s) visible)");
        info_ = devices[static_cast<std::size_t>(ordinal)];
        KERNCAST_CUDA(cudaSetDevice(ordinal));
    }

    const gpu::DeviceInfo& info() const override { return info_; }

    int attribute(ProbeAttribute attribute) const override {
        const cudaDeviceAttr which = attribute == ProbeAttribute::max_texture_1d_linear_elements
                                         ? cudaDevAttrMaxTexture1DLinearWidth
                                     : attribute == ProbeAttribute::reserved_shared_bytes_per_block
                                         ? cudaDevAttrReservedSharedMemoryPerBlock
                                         : cudaDevAttrMaxThreadsPerBlock;
        int value = 0;
        KERNCAST_CUDA(cudaDeviceGetAttribute(&value, which, ordinal_));
        return value;
    }

    std::int64_t free_memory_bytes() const override {
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        KERNCAST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
        return static_cast<std::int64_t>(free_bytes);
    }

    void allocate(std::size_t elements, std::int64_t texture_elements, std::uint32_t max_blocks,
                  std::uint32_t max_measure) override {
        buffer_ = DeviceBuffer<std::uint32_t>(elements);
        sink_ = DeviceBuffer<std::uint32_t>(4096);
        scratch_starts_ = DeviceBuffer<std::uint32_t>(max_blocks);
        scratch_lengths_ = DeviceBuffer<std::uint32_t>(max_blocks);
        scratch_times_ =
            DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(max_blocks) * max_measure);
        scratch_clocks_ = DeviceBuffer<BlockClock>(max_blocks);
        texture_ =
            gpu::LinearTexture(buffer_.get(), static_cast<std::size_t>(texture_elements) * 4);
    }

    // The L1/shared split is a preference per kernel: set on every chase kernel.
    void set_carveout_percent(int percent) override {
        const auto set = [&](const void* kernel) {
            KERNCAST_CUDA(cudaFuncSetAttribute(
                kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
        };
        for (ProbeLoad load : {ProbeLoad::global_ca, ProbeLoad::global_cg, ProbeLoad::global_nc,
                               ProbeLoad::texture, ProbeLoad::constant})
            set(fine_grained_kernel(load));
        set(reinterpret_cast<const void*>(&device::plain_chase<LoadKind::global_ca>));
        set(reinterpret_cast<const void*>(&device::plain_chase<LoadKind::global_nc>));
        set(reinterpret_cast<const void*>(&device::plain_chase<LoadKind::texture>));
        set(reinterpret_cast<const void*>(
            &device::interference<LoadKind::global_ca, LoadKind::texture>));
        set(reinterpret_cast<const void*>(
            &device::interference<LoadKind::global_ca, LoadKind::global_nc>));
        set(reinterpret_cast<const void*>(
            &device::interference<LoadKind::texture, LoadKind::global_nc>));
        set(reinterpret_cast<const void*>(
            &device::interference<LoadKind::texture, LoadKind::texture>));
        set(reinterpret_cast<const void*>(&device::read_slices));
        set(reinterpret_cast<const void*>(&device::write_slices));
    }

    std::int64_t chase_static_shared_bytes(ProbeLoad load) const override {
        cudaFuncAttributes attributes{};
        KERNCAST_CUDA(cudaFuncGetAttributes(&attributes, fine_grained_kernel(load)));
        return static_cast<std::int64_t>(attributes.sharedSizeBytes);
    }

    void set_chase_max_dynamic_shared(ProbeLoad load, std::int64_t bytes) override {
        KERNCAST_CUDA(cudaFuncSetAttribute(fine_grained_kernel(load),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));
    }

    void build_chain(std::uint32_t first_element, std::uint32_t count,
                     std::uint32_t stride_elements, std::uint64_t multiplier) override {
        const unsigned threads = 256;
        const unsigned blocks = (count + threads - 1) / threads;
        device::build_chain<<<blocks, threads>>>(buffer_.get(), first_element, count,
                                                 stride_elements, multiplier);
        KERNCAST_CUDA_LAUNCHED("build_chain");
    }

    void upload_constant_chain(const std::vector<std::uint32_t>& chain) override {
        KERNCAST_CUDA(cudaMemcpyToSymbol(device::constant_chain, chain.data(),
                                         chain.size() * sizeof(std::uint32_t)));
    }

    std::uint32_t constant_chain_elements() const override {
        return device::constant_chain_elements;
    }

    std::vector<BlockTimes> fine_grained_chase(const FineChase& chase) override;

    PlainTiming plain_chase(ProbeLoad load, std::uint32_t start, std::uint32_t length,
                            std::uint32_t wrap, std::uint32_t iterations, bool warm) override {
        DeviceBuffer<double> cycles(1);
        DeviceBuffer<BlockClock> clocks(1);
        auto* buffer = buffer_.get();
        auto* sink = sink_.get();
        const cudaTextureObject_t texture = texture_.get();
        const int w = warm ? 1 : 0;
        with_load_kind(load, [&](auto kind) {
            device::plain_chase<decltype(kind)::value><<<1, 32>>>(buffer, texture, start, length,
                                                                  wrap, iterations, w, cycles.get(),
                                                                  sink, clocks.get());
        });
        KERNCAST_CUDA_LAUNCHED("plain_chase");
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const double mhz = mhz_of(clocks.download_first());
        return {cycles.download_first(), mhz};
    }

    double chase_overhead(std::uint32_t start, std::uint32_t iterations) override {
        DeviceBuffer<double> out(1);
        device::chase_overhead<<<1, 32>>>(buffer_.get(), start, iterations, out.get(), sink_.get());
        KERNCAST_CUDA_LAUNCHED("chase_overhead");
        return out.download_first();
    }

    double shared_chase(std::uint32_t elements, std::uint32_t stride_elements,
                        std::uint32_t iterations, std::size_t shared_bytes) override {
        DeviceBuffer<double> cycles(1);
        device::shared_chase<<<1, 32, shared_bytes>>>(elements, stride_elements, iterations,
                                                      cycles.get(), sink_.get());
        KERNCAST_CUDA_LAUNCHED("shared_chase");
        return cycles.download_first();
    }

    std::vector<double> interference(ProbeLoad a, ProbeLoad b, std::uint32_t a_first,
                                     std::uint32_t a_length, std::uint32_t b_first,
                                     std::uint32_t b_length, int other, int threads,
                                     std::uint32_t measure_count) override;

    double departure(bool coalesced, std::size_t first_element, int threads) override {
        DeviceBuffer<unsigned long long> span(1);
        if (coalesced)
            device::departure<true>
                <<<1, threads>>>(buffer_.get(), first_element, span.get(), sink_.get());
        else
            device::departure<false>
                <<<1, threads>>>(buffer_.get(), first_element, span.get(), sink_.get());
        KERNCAST_CUDA_LAUNCHED("departure");
        return static_cast<double>(span.download_first());
    }

    IssueTiming issue_rate(int threads, int iterations) override {
        DeviceBuffer<unsigned long long> cycles(1);
        // Multiplier and addend keep the FP32 chains bounded and normal; the mask and the step
        // are odd bit patterns.
        device::issue_rate<<<1, threads>>>(iterations, 0.999f, 0.001f, 0x5bd1e995u, 0x9e3779b9u,
                                           cycles.get(), sink_.get());
        KERNCAST_CUDA_LAUNCHED("issue_rate");
        return {static_cast<double>(cycles.download_first()),
                device::issue_rate_instructions_per_iteration};
    }

    Spin spin(long long cycles) override {
        DeviceBuffer<unsigned long long> elapsed(1);
        Event start;
        Event stop;
        start.record();
        device::spin<<<1, 1>>>(cycles, elapsed.get());
        KERNCAST_CUDA_LAUNCHED("spin");
        stop.record();
        const double ms = stop.milliseconds_since(start);
        return {static_cast<double>(elapsed.download_first()), ms};
    }

    double empty_blocks_ms(int blocks, int threads) override {
        device::empty_block<<<blocks, threads>>>(0, sink_.get()); // warm-up
        KERNCAST_CUDA_LAUNCHED("empty_block");
        Event start;
        Event stop;
        start.record();
        device::empty_block<<<blocks, threads>>>(0, sink_.get());
        KERNCAST_CUDA_LAUNCHED("empty_block");
        stop.record();
        return stop.milliseconds_since(start);
    }

    void stream(const StreamLaunch& launch, int blocks, int threads) override;

    double timed_stream_ms(const StreamLaunch& launch, int blocks, int threads) override {
        Event start;
        Event stop;
        start.record();
        stream(launch, blocks, threads);
        stop.record();
        return stop.milliseconds_since(start);
    }

    void synchronize() override { KERNCAST_CUDA(cudaDeviceSynchronize()); }

    void allocate_tlb_region(std::int64_t bytes) override {
        tlb_region_ = DeviceBuffer<unsigned char>(static_cast<std::size_t>(bytes));
    }
    void release_tlb_region() override { tlb_region_ = DeviceBuffer<unsigned char>(); }
    void allocate_stream_region(std::int64_t bytes) override {
        stream_region_ = DeviceBuffer<unsigned char>(static_cast<std::size_t>(bytes));
    }
    void release_stream_region() override { stream_region_ = DeviceBuffer<unsigned char>(); }

    LoadedChaseTiming loaded_chase(const LoadedChase& chase) override {
        KERNCAST_CHECK(chase.stores == 0 || chase.stores == 1,
                       "loaded chase: 0 or 1 stores a load");
        KERNCAST_CHECK(chase.stream_threads > 0 && chase.stream_threads % 32 == 0,
                       "loaded chase: stream blocks of whole warps");
        KERNCAST_CHECK(chase.slice_count * 16 * 2 <= stream_region_.size(),
                       "loaded chase: two slices beyond the stream region");
        KERNCAST_CHECK(chase.slice_count > 4 * static_cast<std::size_t>(chase.stream_blocks) *
                                               static_cast<std::size_t>(chase.stream_threads),
                       "loaded chase: slices shorter than the streams' 4 steps");
        DeviceBuffer<device::LoadedChaseControl> control(1);
        DeviceBuffer<std::uint32_t> hop_cycles(chase.hop_iterations);
        KERNCAST_CUDA(cudaMemset(control.get(), 0, sizeof(device::LoadedChaseControl)));
        auto* region = reinterpret_cast<uint4*>(stream_region_.get());
        const auto run = [&](auto kernel) {
            kernel<<<1 + chase.stream_blocks, chase.stream_threads>>>(
                buffer_.get(), chase.start, chase.iterations, chase.hop_iterations,
                hop_cycles.get(), region, chase.slice_count, control.get(), sink_.get());
        };
        if (chase.stores == 1)
            run(device::loaded_chase<1, 1>);
        else
            run(device::loaded_chase<1, 0>);
        KERNCAST_CUDA_LAUNCHED("loaded_chase");
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const device::LoadedChaseControl result = control.download_first();
        LoadedChaseTiming timing;
        timing.cycles_per_load =
            static_cast<double>(result.chase_cycles) / std::max(chase.iterations, 1u);
        timing.sm_clock_mhz = mhz_of({result.chase_cycles, result.plain_nanoseconds, result.sm});
        timing.chase_ms = static_cast<double>(result.chase_nanoseconds) * 1e-6;
        timing.streamed_bytes = static_cast<std::int64_t>(result.streamed_bytes);
        const std::vector<std::uint32_t> hops = hop_cycles.download(chase.hop_iterations);
        timing.hop_cycles.assign(hops.begin(), hops.end());
        timing.next_start = sink_.download_first();
        return timing;
    }

    int loaded_chase_blocks_per_sm(int threads) override {
        int blocks = 0;
        KERNCAST_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, device::loaded_chase<1, 1>, threads, 0));
        int blocks_loads = 0;
        KERNCAST_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks_loads, device::loaded_chase<1, 0>, threads, 0));
        return std::min(blocks, blocks_loads);
    }

    void build_tlb_chain(std::uint64_t count, std::uint64_t stride_bytes) override {
        const unsigned threads = 256;
        device::
            build_tlb_chain<<<static_cast<unsigned>((count + threads - 1) / threads), threads>>>(
                tlb_region_.get(), count, stride_bytes);
        KERNCAST_CUDA_LAUNCHED("build_tlb_chain");
    }

    std::vector<std::vector<double>> tlb_chase(const std::vector<std::uint64_t>& counts,
                                               std::uint64_t built, std::uint64_t stride_bytes,
                                               std::uint32_t measure_count,
                                               double& sm_clock_mhz) override;

private:
    int ordinal_ = 0;
    gpu::DeviceInfo info_;
    DeviceBuffer<std::uint32_t> buffer_;
    DeviceBuffer<std::uint32_t> sink_;
    // Scratch for launches (allocated once): per-block chain starts/lengths, times, clocks.
    DeviceBuffer<std::uint32_t> scratch_starts_;
    DeviceBuffer<std::uint32_t> scratch_lengths_;
    DeviceBuffer<std::uint32_t> scratch_times_;
    DeviceBuffer<BlockClock> scratch_clocks_;
    gpu::LinearTexture texture_;
    DeviceBuffer<unsigned char> tlb_region_;
    DeviceBuffer<unsigned char> stream_region_;

    void mix_stream(const StreamLaunch& launch, int blocks, int threads);
};

// Launches beyond the scratch arrays (one block per SM on large GPUs) get their own arrays.
std::vector<BlockTimes> CudaProbeDevice::fine_grained_chase(const FineChase& chase) {
    const auto blocks = static_cast<unsigned>(chase.starts.size());
    const std::size_t timings = static_cast<std::size_t>(blocks) * chase.measure_count;
    const bool fits = blocks <= scratch_starts_.size() && timings <= scratch_times_.size();
    std::optional<DeviceBuffer<std::uint32_t>> own_starts, own_lengths, own_times;
    std::optional<DeviceBuffer<BlockClock>> own_clocks;
    if (!fits) {
        own_starts.emplace(blocks);
        own_lengths.emplace(blocks);
        own_times.emplace(timings);
        own_clocks.emplace(blocks);
    }
    DeviceBuffer<std::uint32_t>& starts = fits ? scratch_starts_ : *own_starts;
    DeviceBuffer<std::uint32_t>& lengths = fits ? scratch_lengths_ : *own_lengths;
    DeviceBuffer<std::uint32_t>& times = fits ? scratch_times_ : *own_times;
    DeviceBuffer<BlockClock>& clocks = fits ? scratch_clocks_ : *own_clocks;
    starts.upload(chase.starts);
    lengths.upload(chase.lengths);
    auto* buffer = buffer_.get();
    auto* sink = sink_.get();
    const cudaTextureObject_t texture = texture_.get();
    with_load_kind(chase.load, [&](auto kind) {
        device::fine_grained_chase<decltype(kind)::value>
            <<<blocks, 32, chase.dynamic_shared_bytes>>>(
                buffer, texture, starts.get(), lengths.get(), chase.wrap_elements,
                chase.measure_count, chase.warm ? 1 : 0, times.get(), sink, clocks.get());
    });
    KERNCAST_CUDA_LAUNCHED("fine_grained_chase");
    KERNCAST_CUDA(cudaDeviceSynchronize());
    const auto host_times = times.download(timings);
    const auto host_clocks = clocks.download(blocks);
    std::vector<BlockTimes> result;
    for (unsigned b = 0; b < blocks; ++b)
        result.push_back(
            {as_doubles(host_times, std::size_t{b} * chase.measure_count, chase.measure_count),
             mhz_of(host_clocks[b]), static_cast<std::uint32_t>(host_clocks[b].sm)});
    return result;
}

std::vector<double> CudaProbeDevice::interference(ProbeLoad a, ProbeLoad b, std::uint32_t a_first,
                                                  std::uint32_t a_length, std::uint32_t b_first,
                                                  std::uint32_t b_length, int other, int threads,
                                                  std::uint32_t measure_count) {
    const auto launch = [&](auto kernel) {
        kernel<<<1, threads, measure_count * sizeof(std::uint32_t)>>>(
            buffer_.get(), texture_.get(), a_first, a_length, b_first, b_length, other,
            measure_count, scratch_times_.get(), sink_.get());
    };
    if (a == ProbeLoad::global_ca && b == ProbeLoad::texture)
        launch(device::interference<LoadKind::global_ca, LoadKind::texture>);
    else if (a == ProbeLoad::global_ca && b == ProbeLoad::global_nc)
        launch(device::interference<LoadKind::global_ca, LoadKind::global_nc>);
    else if (a == ProbeLoad::texture && b == ProbeLoad::global_nc)
        launch(device::interference<LoadKind::texture, LoadKind::global_nc>);
    else
        launch(device::interference<LoadKind::texture, LoadKind::texture>);
    KERNCAST_CUDA_LAUNCHED("interference");
    KERNCAST_CUDA(cudaDeviceSynchronize());
    return as_doubles(scratch_times_.download(measure_count), 0, measure_count);
}

void CudaProbeDevice::stream(const StreamLaunch& launch, int blocks, int threads) {
    if (launch.in_stream_region)
        KERNCAST_CHECK(static_cast<std::int64_t>(launch.count) * 16 <=
                           static_cast<std::int64_t>(stream_region_.size()),
                       "stream beyond its region");
    auto* data =
        reinterpret_cast<uint4*>(launch.in_stream_region ? static_cast<void*>(stream_region_.get())
                                                         : static_cast<void*>(buffer_.get()));
    auto* sink = sink_.get();
    const std::size_t shared = launch.count * 16;
    switch (launch.kernel) {
    case StreamKernel::read_stream:
        device::read_stream<false><<<blocks, threads>>>(data, launch.count, launch.passes, sink);
        break;
    case StreamKernel::read_stream_l2:
        device::read_stream<true><<<blocks, threads>>>(data, launch.count, launch.passes, sink);
        break;
    case StreamKernel::write_stream:
        device::write_stream<<<blocks, threads>>>(data, launch.count, launch.passes);
        break;
    case StreamKernel::read_slices:
        device::read_slices<<<blocks, threads>>>(data, launch.count, launch.passes, sink);
        break;
    case StreamKernel::write_slices:
        device::write_slices<<<blocks, threads>>>(data, launch.count, launch.passes);
        break;
    case StreamKernel::read_shared:
        device::read_shared<<<blocks, threads, shared>>>(launch.count, launch.passes, sink);
        break;
    case StreamKernel::write_shared:
        device::write_shared<<<blocks, threads, shared>>>(launch.count, launch.passes, sink);
        break;
    case StreamKernel::mix_stream:
        mix_stream(launch, blocks, threads);
        break;
    }
    KERNCAST_CUDA_LAUNCHED("bandwidth kernel");
}

// The kernel of one of mix_stream_mixes over the stream region, launch.passes times.
void CudaProbeDevice::mix_stream(const StreamLaunch& launch, int blocks, int threads) {
    const std::int64_t slices = launch.loads + launch.stores;
    KERNCAST_CHECK(static_cast<std::int64_t>(launch.count) * 16 * slices <=
                       static_cast<std::int64_t>(stream_region_.size()),
                   "mix stream beyond its region");
    auto* region = reinterpret_cast<uint4*>(stream_region_.get());
    auto* sink = sink_.get();
    const auto run = [&](auto kernel) {
        kernel<<<blocks, threads>>>(region, launch.count, launch.passes, sink);
    };
    switch (launch.loads * 10 + launch.stores) {
    case 10:
        return run(device::mix_stream<1, 0>);
    case 41:
        return run(device::mix_stream<4, 1>);
    case 31:
        return run(device::mix_stream<3, 1>);
    case 21:
        return run(device::mix_stream<2, 1>);
    case 32:
        return run(device::mix_stream<3, 2>);
    case 11:
        return run(device::mix_stream<1, 1>);
    case 12:
        return run(device::mix_stream<1, 2>);
    case 1:
        return run(device::mix_stream<0, 1>);
    }
    throw std::logic_error("no mix_stream kernel for " + std::to_string(launch.loads) +
                           " loads and " + std::to_string(launch.stores) + " stores a point");
}

std::vector<std::vector<double>>
CudaProbeDevice::tlb_chase(const std::vector<std::uint64_t>& counts, std::uint64_t built,
                           std::uint64_t stride_bytes, std::uint32_t measure_count,
                           double& sm_clock_mhz) {
    DeviceBuffer<std::uint64_t> d_counts(counts.size());
    d_counts.upload(counts);
    DeviceBuffer<std::uint32_t> d_times(counts.size() * measure_count);
    DeviceBuffer<std::uint64_t> d_sink(1);
    DeviceBuffer<BlockClock> d_clock(1);
    device::tlb_chase<<<1, 32, measure_count * sizeof(std::uint32_t)>>>(
        tlb_region_.get(), d_counts.get(), static_cast<std::uint32_t>(counts.size()), built,
        stride_bytes, measure_count, d_times.get(), d_sink.get(), d_clock.get());
    KERNCAST_CUDA_LAUNCHED("tlb_chase");
    KERNCAST_CUDA(cudaDeviceSynchronize());
    const auto times = d_times.download(counts.size() * measure_count);
    sm_clock_mhz = mhz_of(d_clock.download_first());
    std::vector<std::vector<double>> result;
    for (std::size_t f = 0; f < counts.size(); ++f)
        result.push_back(as_doubles(times, f * measure_count, measure_count));
    return result;
}

} // namespace

std::unique_ptr<ProbeDevice> open_cuda_probe_device(int ordinal) {
    return std::make_unique<CudaProbeDevice>(ordinal);
}

} // namespace kerncast::probe
