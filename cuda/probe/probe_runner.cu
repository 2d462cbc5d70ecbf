// The probe on a GPU: allocates once, builds chains on the device, runs the microbenchmarks
// of chase_kernels.cuh / bandwidth_kernels.cuh driven by the host-side search
// (size_search.hpp) and records every measured vector as a raw series. The analysis of the
// record is the same function the replay uses (analysis.hpp).
#include "../cuda_check.cuh"
#include "bandwidth_kernels.cuh"
#include "chase_kernels.cuh"
#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"
#include "kerncast/probe/chain_layout.hpp"
#include "kerncast/probe/runner.hpp"
#include "kerncast/probe/size_search.hpp"
#include "kerncast/probe/tlb.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unistd.h>

namespace kerncast::probe {

bool probe_built_with_cuda() {
    return true;
}

namespace {

using device::BlockClock;
using device::LoadKind;

// nvcc's front end cannot compile fmt's headers in C++20 mode, so progress lines use this
// small formatter: each "{}" takes the next argument, "{:.Nf}" prints it fixed with N digits.
inline void format_into(std::ostringstream& out, std::string_view format) {
    out << format;
}

template <class First, class... Rest>
void format_into(std::ostringstream& out, std::string_view format, const First& first,
                 const Rest&... rest) {
    const std::size_t open = format.find('{');
    const std::size_t close = format.find('}', open);
    if (open == std::string_view::npos || close == std::string_view::npos) {
        out << format;
        return;
    }
    out << format.substr(0, open);
    const std::string_view spec = format.substr(open + 1, close - open - 1);
    if (spec.size() >= 4 && spec.substr(0, 2) == ":." && spec.back() == 'f') {
        const std::ios_base::fmtflags flags = out.flags();
        const std::streamsize precision = out.precision();
        out << std::fixed
            << std::setprecision(std::stoi(std::string(spec.substr(2, spec.size() - 3)))) << first;
        out.flags(flags);
        out.precision(precision);
    } else {
        out << first;
    }
    format_into(out, format.substr(close + 1), rest...);
}

template <class... Args> std::string format_text(std::string_view format, const Args&... args) {
    std::ostringstream out;
    format_into(out, format, args...);
    return out.str();
}

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;

// Calls launch(std::integral_constant<LoadKind, kind>{}): turns the run-time load kind into the
// template argument of the chase kernels, one switch for all of them.
template <class Launch> void with_load_kind(LoadKind kind, Launch&& launch) {
    switch (kind) {
    case LoadKind::global_ca:
        return launch(std::integral_constant<LoadKind, LoadKind::global_ca>{});
    case LoadKind::global_cg:
        return launch(std::integral_constant<LoadKind, LoadKind::global_cg>{});
    case LoadKind::global_nc:
        return launch(std::integral_constant<LoadKind, LoadKind::global_nc>{});
    case LoadKind::texture:
        return launch(std::integral_constant<LoadKind, LoadKind::texture>{});
    case LoadKind::constant:
        return launch(std::integral_constant<LoadKind, LoadKind::constant>{});
    }
}

// A device allocation that frees itself.
template <class T> class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        KERNCAST_CUDA(cudaMalloc(&data_, std::max<std::size_t>(1, count) * sizeof(T)));
    }
    ~DeviceArray() { cudaFree(data_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    T* get() const { return data_; }
    std::size_t size() const { return count_; }
    std::vector<T> download(std::size_t count) const {
        std::vector<T> host(count);
        KERNCAST_CUDA(cudaMemcpy(host.data(), data_, count * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    void upload(const std::vector<T>& host) {
        KERNCAST_CUDA(
            cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

class Event {
public:
    Event() { KERNCAST_CUDA(cudaEventCreate(&event_)); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record() { KERNCAST_CUDA(cudaEventRecord(event_)); }
    float milliseconds_since(const Event& start) const {
        KERNCAST_CUDA(cudaEventSynchronize(event_));
        float ms = 0;
        KERNCAST_CUDA(cudaEventElapsedTime(&ms, start.event_, event_));
        return ms;
    }

private:
    cudaEvent_t event_{};
};

std::string iso_date_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string host_name() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

class Prober {
public:
    explicit Prober(const ProbeOptions& options) : options_(options) {}

    ProbeRecord run() {
        setup();
        const auto wanted = [&](const char* group) {
            return std::find(options_.groups.begin(), options_.groups.end(), group) !=
                   options_.groups.end();
        };
        const auto started = std::chrono::steady_clock::now();
        clock_benchmark(); // always: every other timing is interpreted with it
        overhead_benchmark();
        if (wanted("l1")) {
            caching_benchmark();
            size_benchmark("l1", LoadKind::global_ca);
            line_benchmark("l1", LoadKind::global_ca);
            latency_benchmark("l1", LoadKind::global_ca, 4 * KiB, 128, false, true);
        }
        if (wanted("texture")) {
            size_benchmark("texture", LoadKind::texture);
            line_benchmark("texture", LoadKind::texture);
            latency_benchmark("texture", LoadKind::texture, 4 * KiB, 128, false, true);
        }
        if (wanted("readonly")) {
            size_benchmark("readonly", LoadKind::global_nc);
            line_benchmark("readonly", LoadKind::global_nc);
            latency_benchmark("readonly", LoadKind::global_nc, 4 * KiB, 128, false, true);
        }
        if (wanted("constant"))
            constant_benchmarks();
        if (wanted("shared"))
            shared_benchmarks();
        if (wanted("sharing")) {
            sharing_benchmark("l1", LoadKind::global_ca, "texture", LoadKind::texture);
            sharing_benchmark("l1", LoadKind::global_ca, "readonly", LoadKind::global_nc);
            sharing_benchmark("texture", LoadKind::texture, "readonly", LoadKind::global_nc);
            count_per_sm_benchmark();
        }
        if (wanted("mwp"))
            departure_benchmarks(); // before anything writes the cold region
        if (wanted("l2")) {
            size_benchmark("l2", LoadKind::global_cg);
            l2_line_benchmark();
            latency_benchmark("l2", LoadKind::global_cg, 4 * MiB, 128, true, true);
            l2_partition_benchmark();
        }
        if (wanted("dram") || wanted("mwp"))
            dram_latency_benchmark();
        if (wanted("bandwidth"))
            bandwidth_benchmarks();
        if (wanted("carveout"))
            carveout_benchmarks();
        if (wanted("tlb"))
            tlb_benchmarks();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        progress(format_text("done in {:.1f} s", seconds));
        return std::move(record_);
    }

private:
    // ---- setup -------------------------------------------------------------------------
    void setup() {
        const auto devices = gpu::query_devices(); // throws unavailable without GPU/driver
        if (options_.device < 0 || options_.device >= static_cast<int>(devices.size()))
            throw Error(ErrorKind::usage,
                        format_text("--device {} does not exist ({} GPU(s) visible)",
                                    options_.device, devices.size()));
        record_.device = devices[static_cast<std::size_t>(options_.device)];
        KERNCAST_CUDA(cudaSetDevice(options_.device));
        record_.date = iso_date_utc();
        record_.command = options_.command;
        record_.tool_version = KERNCAST_VERSION;
        record_.host = host_name();
        record_.carveout_percent = options_.carveout_percent;

        const auto& d = record_.device;
        sm_count_ = d.sm_count;
        batch_ = std::min(sm_count_, max_batch);
        l2_bytes_ = std::max<std::int64_t>(d.l2_cache_bytes, 1 * MiB);
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        KERNCAST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
        // Layout: [batch regions | sweep region | cold region]; one allocation for the run.
        sweep_bytes_ = std::max<std::int64_t>(4 * l2_bytes_, 256 * MiB);
        std::int64_t total = batch_region_bytes * max_batch + sweep_bytes_ + cold_bytes;
        const auto budget = static_cast<std::int64_t>(0.6 * static_cast<double>(free_bytes));
        if (total > budget) {
            sweep_bytes_ = std::max<std::int64_t>(
                64 * MiB, budget - batch_region_bytes * max_batch - cold_bytes);
            total = batch_region_bytes * max_batch + sweep_bytes_ + cold_bytes;
            progress("sweep region reduced to " + std::to_string(sweep_bytes_ / MiB) +
                     " MiB by free device memory");
        }
        buffer_ = std::make_unique<DeviceArray<std::uint32_t>>(static_cast<std::size_t>(total / 4));
        sweep_first_ = static_cast<std::uint32_t>(batch_region_bytes * max_batch / 4);
        cold_first_ = static_cast<std::size_t>((batch_region_bytes * max_batch + sweep_bytes_) / 4);
        sink_ = std::make_unique<DeviceArray<std::uint32_t>>(4096);
        scratch_starts_ = std::make_unique<DeviceArray<std::uint32_t>>(max_batch);
        scratch_lengths_ = std::make_unique<DeviceArray<std::uint32_t>>(max_batch);
        scratch_times_ = std::make_unique<DeviceArray<std::uint32_t>>(
            static_cast<std::size_t>(max_batch) * max_measure);
        scratch_clocks_ = std::make_unique<DeviceArray<BlockClock>>(max_batch);

        // One texture object over the batch and sweep regions (within the 2^27-element limit
        // of linear textures).
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypeLinear;
        resource.res.linear.devPtr = buffer_->get();
        resource.res.linear.desc = cudaCreateChannelDesc<unsigned int>();
        int max_linear = 0;
        KERNCAST_CUDA(cudaDeviceGetAttribute(&max_linear, cudaDevAttrMaxTexture1DLinearWidth,
                                             options_.device));
        texture_elements_ = std::min<std::int64_t>(max_linear, sweep_first_ + sweep_bytes_ / 4);
        resource.res.linear.sizeInBytes = static_cast<std::size_t>(texture_elements_) * 4;
        cudaTextureDesc description{};
        description.readMode = cudaReadModeElementType;
        KERNCAST_CUDA(cudaCreateTextureObject(&texture_, &resource, &description, nullptr));

        set_carveout();
        progress(format_text("{} ({} SMs, CC {}.{}), {} MiB allocated, carve-out {} %", d.name,
                             d.sm_count, d.cc_major, d.cc_minor, total / MiB,
                             options_.carveout_percent));
    }

    // The L1/shared split is a preference per kernel: set it on every chase kernel so the
    // L1 sizes are measured at a known carve-out (recorded in the raw series).
    void set_carveout() { set_carveout_percent(options_.carveout_percent); }

    void set_carveout_percent(int percent) {
        const auto set = [&](const void* kernel) {
            KERNCAST_CUDA(cudaFuncSetAttribute(
                kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
        };
        set(reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::global_ca>));
        set(reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::global_cg>));
        set(reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::global_nc>));
        set(reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::texture>));
        set(reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::constant>));
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

    void progress(const std::string& line) {
        if (options_.progress)
            options_.progress(line);
    }

    RawBenchmark& add_benchmark(std::string name, std::string kind, std::string memory,
                                std::string unit = "cycles") {
        RawBenchmark b;
        b.name = std::move(name);
        b.kind = std::move(kind);
        b.memory = std::move(memory);
        b.unit = std::move(unit);
        record_.benchmarks.push_back(std::move(b));
        return record_.benchmarks.back();
    }

    // ---- chains ------------------------------------------------------------------------
    void build_chain(std::uint32_t first, std::int64_t bytes, int stride_bytes, bool random) {
        const auto count = static_cast<std::uint32_t>(chain::chain_count(bytes, stride_bytes));
        const std::uint64_t multiplier = random ? chain::coprime_multiplier(count) : 1;
        const unsigned threads = 256;
        const unsigned blocks = (count + threads - 1) / threads;
        device::build_chain<<<blocks, threads>>>(
            buffer_->get(), first, count, static_cast<std::uint32_t>(stride_bytes / 4), multiplier);
        KERNCAST_CUDA_LAUNCHED("build_chain");
    }

    double mhz_of(const BlockClock& c) const {
        return c.nanoseconds > 0
                   ? static_cast<double>(c.cycles) / static_cast<double>(c.nanoseconds) * 1e3
                   : 0.0;
    }

    // ---- fine-grained chases, batched: block b chases sizes[b] in its own region ---------
    struct FineResult {
        std::vector<std::vector<double>> times;
        std::vector<double> mhz;
        std::vector<std::uint32_t> sms;
    };

    FineResult fine_grained(LoadKind kind, const std::vector<std::int64_t>& sizes, int stride_bytes,
                            std::uint32_t measure_count, bool warm, bool random,
                            std::uint32_t region_first, std::int64_t region_bytes,
                            std::uint32_t wrap_elements = 0xffffffffu) {
        const auto blocks = static_cast<unsigned>(sizes.size());
        std::vector<std::uint32_t> starts(blocks);
        std::vector<std::uint32_t> lengths(blocks);
        for (unsigned b = 0; b < blocks; ++b) {
            KERNCAST_CHECK(sizes[b] <= region_bytes, "size exceeds its region");
            starts[b] = static_cast<std::uint32_t>(
                chain::batch_region_first(region_first, b, region_bytes));
            lengths[b] = static_cast<std::uint32_t>(chain::chain_count(sizes[b], stride_bytes));
            if (kind != LoadKind::constant)
                build_chain(starts[b], sizes[b], stride_bytes, random);
        }
        if (kind == LoadKind::constant) {
            // One sequential chain over constant memory, cut at the size (wrap).
            KERNCAST_CHECK(blocks == 1, "constant chases run one size per launch");
            starts[0] = 0;
            wrap_elements = static_cast<std::uint32_t>(sizes[0] / 4);
        }
        KERNCAST_CHECK(blocks <= static_cast<unsigned>(max_batch) && measure_count <= max_measure,
                       "launch exceeds the scratch arrays");
        scratch_starts_->upload(starts);
        scratch_lengths_->upload(lengths);
        // A forced carve-out claims more shared memory than the times need (carveout group).
        const std::size_t shared =
            std::max<std::size_t>(measure_count * sizeof(std::uint32_t), forced_dynamic_shared_);
        launch_fine(kind, blocks, shared, scratch_starts_->get(), scratch_lengths_->get(),
                    wrap_elements, measure_count, warm ? 1 : 0, scratch_times_->get(),
                    scratch_clocks_->get());
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const auto times =
            scratch_times_->download(static_cast<std::size_t>(blocks) * measure_count);
        const auto clocks = scratch_clocks_->download(blocks);
        FineResult result;
        for (unsigned b = 0; b < blocks; ++b) {
            result.times.emplace_back(times.begin() + static_cast<long>(b) * measure_count,
                                      times.begin() + static_cast<long>(b + 1) * measure_count);
            result.mhz.push_back(mhz_of(clocks[b]));
            result.sms.push_back(static_cast<std::uint32_t>(clocks[b].sm));
        }
        return result;
    }

    void launch_fine(LoadKind kind, unsigned blocks, std::size_t shared,
                     const std::uint32_t* starts, const std::uint32_t* lengths, std::uint32_t wrap,
                     std::uint32_t measure_count, int warm, std::uint32_t* times,
                     BlockClock* clocks) {
        auto* buffer = buffer_->get();
        auto* sink = sink_->get();
        with_load_kind(kind, [&](auto load) {
            device::fine_grained_chase<decltype(load)::value><<<blocks, 32, shared>>>(
                buffer, texture_, starts, lengths, wrap, measure_count, warm, times, sink, clocks);
        });
        KERNCAST_CUDA_LAUNCHED("fine_grained_chase");
    }

    // Batched measurement for caches private to an SM: one block per size, and a check that
    // no two blocks shared an SM (then their caches would interfere): those sizes are
    // measured again, one per launch.
    std::vector<std::vector<double>>
    measure_batch(LoadKind kind, const std::vector<std::int64_t>& sizes, int stride_bytes,
                  std::uint32_t measure_count, RawBenchmark& bench, int repetition, bool per_sm) {
        std::vector<std::vector<double>> times(sizes.size());
        std::vector<double> mhz(sizes.size());
        const std::int64_t region = per_sm ? batch_region_bytes : sweep_bytes_;
        const std::uint32_t first = per_sm ? 0u : sweep_first_;
        auto result = fine_grained(kind, sizes, stride_bytes, measure_count, true,
                                   kind == LoadKind::global_cg, first, region);
        std::set<std::uint32_t> seen;
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            if (!seen.insert(result.sms[k]).second) {
                const auto alone = fine_grained(kind, {sizes[k]}, stride_bytes, measure_count, true,
                                                kind == LoadKind::global_cg, first, region);
                result.times[k] = alone.times[0];
                result.mhz[k] = alone.mhz[0];
            }
            times[k] = result.times[k];
            mhz[k] = result.mhz[k];
        }
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            RawSeries s;
            s.repetition = repetition;
            s.size_bytes = sizes[k];
            s.stride_bytes = stride_bytes;
            s.sm_clock_mhz = mhz[k];
            s.values = times[k];
            bench.series.push_back(std::move(s));
        }
        return times;
    }

    // ---- benchmarks ----------------------------------------------------------------------
    void clock_benchmark() {
        progress("clock: clock64 against cudaEvent");
        auto& b = add_benchmark("clock", "clock", "");
        DeviceArray<unsigned long long> elapsed(1);
        for (int rep = 0; rep < 3; ++rep) {
            Event start;
            Event stop;
            start.record();
            device::spin<<<1, 1>>>(40'000'000, elapsed.get()); // ~20 ms at 2 GHz
            KERNCAST_CUDA_LAUNCHED("spin");
            stop.record();
            const double ms = stop.milliseconds_since(start);
            const double cycles = static_cast<double>(elapsed.download(1)[0]);
            RawSeries s;
            s.repetition = rep;
            s.values = {cycles, ms};
            b.series.push_back(std::move(s));
            record_.sm_clock_measured_mhz = cycles / (ms * 1e3);
        }
    }

    void overhead_benchmark() {
        auto& b = add_benchmark("overhead", "overhead", "");
        DeviceArray<double> out(1);
        for (int rep = 0; rep < 5; ++rep) {
            device::chase_overhead<<<1, 32>>>(buffer_->get(), 0, 4096, out.get(), sink_->get());
            KERNCAST_CUDA_LAUNCHED("chase_overhead");
            RawSeries s;
            s.repetition = rep;
            s.values = {out.download(1)[0]};
            b.series.push_back(std::move(s));
        }
    }

    void caching_benchmark() {
        progress("l1: does L1 cache global loads (.ca vs .cg)?");
        auto& b = add_benchmark("l1.caching", "caching", "l1");
        b.chain = "sequential";
        for (auto [label, kind] :
             {std::pair{"ca", LoadKind::global_ca}, std::pair{"cg", LoadKind::global_cg}}) {
            const auto r =
                fine_grained(kind, {4 * KiB}, 128, 256, true, false, 0, batch_region_bytes);
            RawSeries s;
            s.label = label;
            s.size_bytes = 4 * KiB;
            s.stride_bytes = 128;
            s.sm_clock_mhz = r.mhz[0];
            s.values = r.times[0];
            b.series.push_back(std::move(s));
        }
    }

    struct SweepPlan {
        SizeSearchOptions search;
        int stride_bytes = 128;
        std::uint32_t measure_count = 512;
        bool per_sm = true;
        int repetitions = 1;
    };

    SweepPlan plan_for(const std::string& memory) const {
        SweepPlan plan;
        plan.repetitions = std::max(1, options_.repetitions);
        if (memory == "l2") {
            plan.per_sm = false;
            plan.repetitions = 1; // one search is seconds; the CPD's p-value qualifies it
            plan.search.start_bytes = 1 * MiB;
            plan.search.step_bytes =
                std::max<std::int64_t>(64 * KiB, (l2_bytes_ / 512) / (64 * KiB) * (64 * KiB));
            plan.search.start_bytes =
                (plan.search.start_bytes / plan.search.step_bytes) * plan.search.step_bytes;
            if (plan.search.start_bytes == 0)
                plan.search.start_bytes = plan.search.step_bytes;
            plan.search.max_bytes = std::min<std::int64_t>(4 * l2_bytes_, sweep_bytes_);
            plan.search.batch = 1;
        } else {
            plan.search.start_bytes = 1 * KiB;
            plan.search.step_bytes = 512;
            plan.search.max_bytes = batch_region_bytes;
            plan.search.batch = batch_;
        }
        return plan;
    }

    void size_benchmark(const std::string& memory, LoadKind kind) {
        const SweepPlan plan = plan_for(memory);
        auto& b = add_benchmark(memory + ".size", "size", memory);
        b.chain = kind == LoadKind::global_cg ? "random" : "sequential";
        std::vector<double> found;
        for (int rep = 0; rep < plan.repetitions; ++rep) {
            progress(format_text("{}: size search, repetition {}/{}", memory, rep + 1,
                                 plan.repetitions));
            const auto result =
                search_cache_size(MeasureSizes([&](const std::vector<std::int64_t>& sizes) {
                                      return measure_batch(kind, sizes, plan.stride_bytes,
                                                           plan.measure_count, b, rep, plan.per_sm);
                                  }),
                                  plan.search);
            if (result.size_bytes > 0)
                found.push_back(static_cast<double>(result.size_bytes));
            progress(format_text("{}: {} after {} sizes in {} launches", memory,
                                 result.size_bytes > 0 ? format_text("{} B", result.size_bytes)
                                                       : std::string("no verified change"),
                                 result.measurements, result.rounds));
        }
        if (!found.empty()) {
            std::sort(found.begin(), found.end());
            sizes_[memory] = static_cast<std::int64_t>(found[found.size() / 2]);
        }
    }

    std::int64_t size_or(const std::string& memory, std::int64_t fallback) const {
        const auto it = sizes_.find(memory);
        return it == sizes_.end() ? fallback : it->second;
    }

    void line_benchmark(const std::string& memory, LoadKind kind) {
        progress(memory + ": line size from miss spacing");
        auto& b = add_benchmark(memory + ".line", "line", memory);
        b.chain = "sequential";
        // 4-byte stride over twice the capacity: round 2 misses once per line (sec. 4.3).
        const std::int64_t bytes =
            std::min<std::int64_t>(2 * size_or(memory, 256 * KiB), batch_region_bytes);
        for (int rep = 0; rep < 2; ++rep) {
            const auto r = fine_grained(kind, {bytes}, 4, 2048, true, false, 0, batch_region_bytes);
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = bytes;
            s.stride_bytes = 4;
            s.sm_clock_mhz = r.mhz[0];
            s.values = r.times[0];
            b.series.push_back(std::move(s));
        }
    }

    void l2_line_benchmark() {
        progress("l2: line size from cold misses");
        auto& b = add_benchmark("l2.line", "line", "l2");
        b.chain = "sequential";
        b.note = "cold misses (no warm round): the granularity L2 fetches from DRAM";
        for (int rep = 0; rep < 2; ++rep) {
            const std::uint32_t first =
                static_cast<std::uint32_t>(cold_first_ + (cold_bytes / 2 + rep * MiB) / 4);
            const auto r = fine_grained(LoadKind::global_cg, {64 * KiB}, 4, 2048, false, false,
                                        first, 64 * KiB);
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = 64 * KiB;
            s.stride_bytes = 4;
            s.sm_clock_mhz = r.mhz[0];
            s.values = r.times[0];
            b.series.push_back(std::move(s));
        }
    }

    void latency_benchmark(const std::string& memory, LoadKind kind, std::int64_t bytes,
                           int stride_bytes, bool random, bool warm) {
        progress(memory + ": latency");
        auto& b = add_benchmark(memory + ".latency", "latency", memory);
        b.chain = random ? "random" : "sequential";
        const std::uint32_t first = bytes > batch_region_bytes ? sweep_first_ : 0u;
        build_chain(first, bytes, stride_bytes, random);
        DeviceArray<double> cycles(1);
        DeviceArray<BlockClock> clocks(1);
        const auto length = static_cast<std::uint32_t>(bytes / stride_bytes);
        for (int rep = 0; rep < std::max(3, options_.repetitions); ++rep) {
            launch_plain(kind, first, length, 0xffffffffu, 4096, warm, cycles.get(), clocks.get());
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = bytes;
            s.stride_bytes = stride_bytes;
            s.sm_clock_mhz = mhz_of(clocks.download(1)[0]);
            s.values = {cycles.download(1)[0]};
            b.series.push_back(std::move(s));
        }
    }

    void launch_plain(LoadKind kind, std::uint32_t start, std::uint32_t length, std::uint32_t wrap,
                      std::uint32_t iterations, bool warm, double* cycles, BlockClock* clocks) {
        auto* buffer = buffer_->get();
        auto* sink = sink_->get();
        const int w = warm ? 1 : 0;
        with_load_kind(kind, [&](auto load) {
            device::plain_chase<decltype(load)::value><<<1, 32>>>(
                buffer, texture_, start, length, wrap, iterations, w, cycles, sink, clocks);
        });
        KERNCAST_CUDA_LAUNCHED("plain_chase");
        KERNCAST_CUDA(cudaDeviceSynchronize());
    }

    void upload_constant_chain(int stride_bytes) {
        const std::uint32_t stride = static_cast<std::uint32_t>(stride_bytes / 4);
        std::vector<std::uint32_t> chain(device::constant_chain_elements, 0);
        for (std::uint32_t k = 0; k < device::constant_chain_elements; k += stride)
            chain[k] = k + stride; // past the end reads as >= wrap: back to 0
        KERNCAST_CUDA(cudaMemcpyToSymbol(device::constant_chain, chain.data(),
                                         chain.size() * sizeof(std::uint32_t)));
    }

    void constant_benchmarks() {
        upload_constant_chain(64);
        // Constant L1: a few bytes to 8 KiB (sec. 4.2.4); L1.5: beyond L1 up to the 62 KiB
        // the module can use. One size per launch (one constant bank for the module).
        const auto sweep = [&](const std::string& memory, SizeSearchOptions search) {
            auto& b = add_benchmark(memory + ".size", "size", memory);
            b.chain = "sequential";
            for (int rep = 0; rep < std::max(1, options_.repetitions); ++rep) {
                progress(format_text("{}: size search, repetition {}/{}", memory, rep + 1,
                                     options_.repetitions));
                const auto result = search_cache_size(MeasureSize([&](std::int64_t size) {
                                                          const auto r = fine_grained(
                                                              LoadKind::constant, {size}, 64, 512,
                                                              true, false, 0, batch_region_bytes);
                                                          RawSeries s;
                                                          s.repetition = rep;
                                                          s.size_bytes = size;
                                                          s.stride_bytes = 64;
                                                          s.sm_clock_mhz = r.mhz[0];
                                                          s.values = r.times[0];
                                                          b.series.push_back(s);
                                                          return r.times[0];
                                                      }),
                                                      search);
                if (result.size_bytes > 0)
                    sizes_[memory] = result.size_bytes;
            }
        };
        SizeSearchOptions l1;
        l1.start_bytes = 256;
        l1.step_bytes = 64;
        l1.max_bytes = 8 * KiB;
        sweep("constant_l1", l1);
        SizeSearchOptions l15;
        l15.start_bytes = 8 * KiB;
        l15.step_bytes = 512;
        l15.max_bytes = 62 * KiB;
        sweep("constant_l15", l15);

        // Latencies: L1 on 1 KiB; L1.5 on 16 KiB, which evicts L1 but stays in L1.5 (sec. 4.4).
        for (auto [memory, wrap_bytes] : {std::pair{std::string("constant_l1"), 1 * KiB},
                                          std::pair{std::string("constant_l15"), 16 * KiB}}) {
            progress(memory + ": latency");
            auto& b = add_benchmark(memory + ".latency", "latency", memory);
            b.chain = "sequential";
            DeviceArray<double> cycles(1);
            DeviceArray<BlockClock> clocks(1);
            const auto wrap = static_cast<std::uint32_t>(wrap_bytes / 4);
            for (int rep = 0; rep < std::max(3, options_.repetitions); ++rep) {
                launch_plain(LoadKind::constant, 0, static_cast<std::uint32_t>(wrap_bytes / 64),
                             wrap, 4096, true, cycles.get(), clocks.get());
                RawSeries s;
                s.repetition = rep;
                s.size_bytes = wrap_bytes;
                s.stride_bytes = 64;
                s.sm_clock_mhz = mhz_of(clocks.download(1)[0]);
                s.values = {cycles.download(1)[0]};
                b.series.push_back(std::move(s));
            }
        }

        // Line size of constant L1: a 4-byte chain over 4x its size.
        progress("constant_l1: line size");
        upload_constant_chain(4);
        auto& line = add_benchmark("constant_l1.line", "line", "constant_l1");
        line.chain = "sequential";
        const std::int64_t bytes =
            std::min<std::int64_t>(4 * size_or("constant_l1", 2 * KiB), 62 * KiB);
        for (int rep = 0; rep < 2; ++rep) {
            const auto r = fine_grained(LoadKind::constant, {bytes}, 4, 2048, true, false, 0,
                                        batch_region_bytes);
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = bytes;
            s.stride_bytes = 4;
            s.sm_clock_mhz = r.mhz[0];
            s.values = r.times[0];
            line.series.push_back(std::move(s));
        }
        upload_constant_chain(64);
    }

    void shared_benchmarks() {
        progress("shared: latency");
        auto& b = add_benchmark("shared.latency", "latency", "shared");
        b.chain = "sequential";
        DeviceArray<double> cycles(1);
        for (int rep = 0; rep < std::max(3, options_.repetitions); ++rep) {
            device::shared_chase<<<1, 32, 4 * KiB>>>(1024, 1, 4096, cycles.get(), sink_->get());
            KERNCAST_CUDA_LAUNCHED("shared_chase");
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = 4 * KiB;
            s.stride_bytes = 4;
            s.values = {cycles.download(1)[0]};
            b.series.push_back(std::move(s));
        }
        // The shared chase has no address multiply (32-bit shared addresses): its overhead
        // is the same loop's, recorded as the "shared" overhead.
        auto& overhead = add_benchmark("shared.overhead", "overhead", "shared");
        DeviceArray<double> out(1);
        for (int rep = 0; rep < 3; ++rep) {
            device::chase_overhead<<<1, 32>>>(buffer_->get(), 0, 4096, out.get(), sink_->get());
            KERNCAST_CUDA_LAUNCHED("chase_overhead");
            RawSeries s;
            s.repetition = rep;
            s.values = {out.download(1)[0]};
            overhead.series.push_back(std::move(s));
        }
    }

    template <LoadKind A, LoadKind B>
    std::vector<double> interfere(std::uint32_t a_first, std::uint32_t a_length,
                                  std::uint32_t b_first, std::uint32_t b_length, int other,
                                  int threads, std::uint32_t measure_count) {
        device::interference<A, B><<<1, threads, measure_count * sizeof(std::uint32_t)>>>(
            buffer_->get(), texture_, a_first, a_length, b_first, b_length, other, measure_count,
            scratch_times_->get(), sink_->get());
        KERNCAST_CUDA_LAUNCHED("interference");
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const auto t = scratch_times_->download(measure_count);
        return {t.begin(), t.end()};
    }

    std::vector<double> interfere_dispatch(LoadKind a, LoadKind b, std::uint32_t a_first,
                                           std::uint32_t a_length, std::uint32_t b_first,
                                           std::uint32_t b_length, int other, int threads,
                                           std::uint32_t measure_count) {
        if (a == LoadKind::global_ca && b == LoadKind::texture)
            return interfere<LoadKind::global_ca, LoadKind::texture>(
                a_first, a_length, b_first, b_length, other, threads, measure_count);
        if (a == LoadKind::global_ca && b == LoadKind::global_nc)
            return interfere<LoadKind::global_ca, LoadKind::global_nc>(
                a_first, a_length, b_first, b_length, other, threads, measure_count);
        if (a == LoadKind::texture && b == LoadKind::global_nc)
            return interfere<LoadKind::texture, LoadKind::global_nc>(
                a_first, a_length, b_first, b_length, other, threads, measure_count);
        return interfere<LoadKind::texture, LoadKind::texture>(a_first, a_length, b_first, b_length,
                                                               other, threads, measure_count);
    }

    void sharing_benchmark(const std::string& a, LoadKind a_kind, const std::string& b,
                           LoadKind b_kind) {
        progress(format_text("sharing: {} and {}", a, b));
        auto& bench = add_benchmark("sharing." + a + "." + b, "sharing", a);
        bench.other_memory = b;
        bench.chain = "sequential";
        // Each array 3/4 of its cache: both fit when the caches are separate (sec. 4.5).
        const std::int64_t a_bytes = size_or(a, 16 * KiB) * 3 / 4 / 128 * 128;
        const std::int64_t b_bytes = size_or(b, 16 * KiB) * 3 / 4 / 128 * 128;
        const std::uint32_t a_first = 0;
        const auto b_first = static_cast<std::uint32_t>(batch_region_bytes / 4);
        build_chain(a_first, a_bytes, 128, false);
        build_chain(b_first, b_bytes, 128, false);
        for (int rep = 0; rep < std::max(1, options_.repetitions); ++rep) {
            for (auto [label, other] : {std::pair{"reference", -1}, std::pair{"interfered", 1}}) {
                RawSeries s;
                s.label = label;
                s.repetition = rep;
                s.size_bytes = a_bytes;
                s.stride_bytes = 128;
                s.values = interfere_dispatch(
                    a_kind, b_kind, a_first, static_cast<std::uint32_t>(a_bytes / 128), b_first,
                    static_cast<std::uint32_t>(b_bytes / 128), other, 32, 256);
                bench.series.push_back(std::move(s));
            }
        }
    }

    void count_per_sm_benchmark() {
        int threads = 0;
        KERNCAST_CUDA(
            cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, options_.device));
        progress(format_text("texture: caches per SM ({} thread pairs)", threads - 1));
        auto& bench = add_benchmark("texture.count_per_sm", "count_per_sm", "texture");
        bench.chain = "sequential";
        const std::int64_t bytes = size_or("texture", 16 * KiB) * 3 / 4 / 128 * 128;
        const auto length = static_cast<std::uint32_t>(bytes / 128);
        const std::uint32_t a_first = 0;
        const auto b_first = static_cast<std::uint32_t>(batch_region_bytes / 4);
        build_chain(a_first, bytes, 128, false);
        build_chain(b_first, bytes, 128, false);
        RawSeries reference;
        reference.label = "reference";
        reference.size_bytes = bytes;
        reference.stride_bytes = 128;
        reference.values = interfere_dispatch(LoadKind::texture, LoadKind::texture, a_first, length,
                                              b_first, length, -1, threads, 128);
        bench.series.push_back(std::move(reference));
        for (int t = 1; t < threads; ++t) {
            RawSeries s;
            s.label = "thread " + std::to_string(t);
            s.size_bytes = bytes;
            s.stride_bytes = 128;
            s.values = interfere_dispatch(LoadKind::texture, LoadKind::texture, a_first, length,
                                          b_first, length, t, threads, 128);
            bench.series.push_back(std::move(s));
        }
    }

    void departure_benchmarks() {
        progress("mwp: departure delays (Hong & Kim sec. 5.1)");
        DeviceArray<unsigned long long> span(1);
        std::size_t next_element = cold_first_;
        for (bool coalesced : {true, false}) {
            auto& b = add_benchmark(std::string("dram.departure.") +
                                        (coalesced ? "coalesced" : "uncoalesced"),
                                    "departure", "dram");
            b.direction = coalesced ? "coalesced" : "uncoalesced";
            b.note = "loads to lines never touched before (DRAM), ld.global.cg";
            for (int warps = 1; warps <= 32; warps *= 2) {
                RawSeries s;
                s.blocks = 1;
                s.threads = 32 * warps;
                for (int rep = 0; rep < 5; ++rep) {
                    if (coalesced)
                        device::departure<true><<<1, 32 * warps>>>(buffer_->get(), next_element,
                                                                   span.get(), sink_->get());
                    else
                        device::departure<false><<<1, 32 * warps>>>(buffer_->get(), next_element,
                                                                    span.get(), sink_->get());
                    KERNCAST_CUDA_LAUNCHED("departure");
                    s.values.push_back(static_cast<double>(span.download(1)[0]));
                    // Fresh lines every launch, one DRAM page apart from the last ones.
                    next_element +=
                        static_cast<std::size_t>(32 * warps) * (coalesced ? 1 : 32) + 2048;
                    KERNCAST_CHECK(next_element < cold_first_ + cold_bytes / 8,
                                   "cold region exhausted");
                }
                b.series.push_back(std::move(s));
            }
        }
    }

    void l2_partition_benchmark() {
        progress("l2: near/far latency from every SM");
        auto& b = add_benchmark("l2.partition", "l2_partition", "l2");
        b.chain = "random";
        // Every SM chases the same 4 MiB random chain in L2 (.cg skips L1): the per-load
        // times split by the partition each line lives in.
        const std::int64_t bytes = 4 * MiB;
        build_chain(sweep_first_, bytes, 128, true);
        const auto blocks = static_cast<unsigned>(sm_count_);
        std::vector<std::uint32_t> starts(blocks, sweep_first_);
        std::vector<std::uint32_t> lengths(blocks, static_cast<std::uint32_t>(bytes / 128));
        DeviceArray<std::uint32_t> d_starts(blocks);
        DeviceArray<std::uint32_t> d_lengths(blocks);
        d_starts.upload(starts);
        d_lengths.upload(lengths);
        const std::uint32_t measure_count = 256;
        DeviceArray<std::uint32_t> d_times(static_cast<std::size_t>(blocks) * measure_count);
        DeviceArray<BlockClock> d_clocks(blocks);
        launch_fine(LoadKind::global_cg, blocks, measure_count * 4, d_starts.get(), d_lengths.get(),
                    0xffffffffu, measure_count, 1, d_times.get(), d_clocks.get());
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const auto times = d_times.download(static_cast<std::size_t>(blocks) * measure_count);
        const auto clocks = d_clocks.download(blocks);
        for (unsigned k = 0; k < blocks; ++k) {
            RawSeries s;
            s.label = "sm " + std::to_string(clocks[k].sm);
            s.size_bytes = bytes;
            s.stride_bytes = 128;
            s.sm_clock_mhz = mhz_of(clocks[k]);
            s.values.assign(times.begin() + static_cast<long>(k) * measure_count,
                            times.begin() + static_cast<long>(k + 1) * measure_count);
            b.series.push_back(std::move(s));
        }
    }

    void dram_latency_benchmark() {
        progress("dram: latency");
        auto& b = add_benchmark("dram.latency", "latency", "dram");
        b.chain = "random";
        b.note = "random chain over 4x L2 after evicting L2; includes TLB misses of the pages";
        const std::int64_t bytes = std::min<std::int64_t>(4 * l2_bytes_, sweep_bytes_);
        build_chain(sweep_first_, bytes, 128, true);
        DeviceArray<double> cycles(1);
        DeviceArray<BlockClock> clocks(1);
        for (int rep = 0; rep < std::max(3, options_.repetitions); ++rep) {
            // Evict the chain from L2: stream over the batch regions (> 2x L2 on current GPUs).
            device::write_stream<<<sm_count_ * 4, 512>>>(
                reinterpret_cast<uint4*>(buffer_->get()),
                static_cast<std::size_t>(batch_region_bytes * max_batch / 16), 1);
            KERNCAST_CUDA_LAUNCHED("write_stream");
            launch_plain(LoadKind::global_cg, sweep_first_, static_cast<std::uint32_t>(bytes / 128),
                         0xffffffffu, 2048, false, cycles.get(), clocks.get());
            RawSeries s;
            s.repetition = rep;
            s.size_bytes = bytes;
            s.stride_bytes = 128;
            s.sm_clock_mhz = mhz_of(clocks.download(1)[0]);
            s.values = {cycles.download(1)[0]};
            b.series.push_back(std::move(s));
        }
    }

    // bytes_per_launch > 0: bytes every launch moves; < 0: bytes per block (times blocks).
    template <class Launch>
    void bandwidth_sweep(const std::string& memory, const std::string& direction,
                         const std::vector<int>& block_factors, std::int64_t bytes_per_launch,
                         Launch launch) {
        progress(format_text("{}: {} bandwidth", memory, direction));
        auto& b = add_benchmark(memory + "." + direction + "_bandwidth", "bandwidth", memory, "ms");
        b.direction = direction;
        for (int factor : block_factors) {
            for (int threads : {256, 512, 1024}) {
                const int blocks = sm_count_ * factor;
                launch(blocks, threads); // warm-up
                KERNCAST_CUDA(cudaDeviceSynchronize());
                RawSeries s;
                s.blocks = blocks;
                s.threads = threads;
                s.bytes = bytes_per_launch < 0 ? -bytes_per_launch * blocks : bytes_per_launch;
                for (int rep = 0; rep < 5; ++rep) {
                    Event start;
                    Event stop;
                    start.record();
                    launch(blocks, threads);
                    KERNCAST_CUDA_LAUNCHED("bandwidth kernel");
                    stop.record();
                    s.values.push_back(stop.milliseconds_since(start));
                }
                b.series.push_back(std::move(s));
            }
        }
    }

    void bandwidth_benchmarks() {
        auto* data = reinterpret_cast<uint4*>(buffer_->get());
        auto* sink = sink_->get();
        const std::int64_t dram_bytes = sweep_bytes_ + batch_region_bytes * max_batch;
        const auto dram_count = static_cast<std::size_t>(dram_bytes / 16);
        const std::int64_t dram_moved =
            chain::stream_bytes(static_cast<std::int64_t>(dram_count), 1);
        bandwidth_sweep("dram", "load", {1, 2, 4, 8}, dram_moved, [&](int blocks, int threads) {
            device::read_stream<<<blocks, threads>>>(data, dram_count, 1, sink);
        });
        bandwidth_sweep("dram", "store", {1, 2, 4, 8}, dram_moved, [&](int blocks, int threads) {
            device::write_stream<<<blocks, threads>>>(data, dram_count, 1);
        });
        // L2: a quarter of L2, re-read 20 times (resident after the warm-up launch).
        const std::int64_t l2_array = l2_bytes_ / 4 / 16 * 16;
        const int l2_passes = 20;
        const std::int64_t l2_moved = chain::stream_bytes(l2_array / 16, l2_passes);
        bandwidth_sweep("l2", "load", {1, 2, 4}, l2_moved, [&](int blocks, int threads) {
            device::read_stream<<<blocks, threads>>>(data, static_cast<std::size_t>(l2_array / 16),
                                                     l2_passes, sink);
        });
        bandwidth_sweep("l2", "store", {1, 2, 4}, l2_moved, [&](int blocks, int threads) {
            device::write_stream<<<blocks, threads>>>(data, static_cast<std::size_t>(l2_array / 16),
                                                      l2_passes);
        });
        // L1: each block re-reads its own 16 KiB slice; bytes scale with the blocks.
        const std::int64_t slice = 16 * KiB;
        const int l1_passes = 100;
        // Per block; bandwidth_sweep multiplies by the blocks (chain::slices_bytes).
        const std::int64_t slice_moved = chain::slices_bytes(1, slice / 16, l1_passes);
        bandwidth_sweep("l1", "load", {1, 2, 4}, -slice_moved, [&](int blocks, int threads) {
            device::read_slices<<<blocks, threads>>>(data, static_cast<std::size_t>(slice / 16),
                                                     l1_passes, sink);
        });
        bandwidth_sweep("l1", "store", {1, 2, 4}, -slice_moved, [&](int blocks, int threads) {
            device::write_slices<<<blocks, threads>>>(data, static_cast<std::size_t>(slice / 16),
                                                      l1_passes);
        });
        const std::int64_t shared_bytes = 32 * KiB;
        const std::int64_t shared_moved = chain::slices_bytes(1, shared_bytes / 16, l1_passes);
        bandwidth_sweep("shared", "load", {1, 2, 4}, -shared_moved, [&](int blocks, int threads) {
            device::read_shared<<<blocks, threads, shared_bytes>>>(
                static_cast<std::size_t>(shared_bytes / 16), l1_passes, sink);
        });
        bandwidth_sweep("shared", "store", {1, 2, 4}, -shared_moved, [&](int blocks, int threads) {
            device::write_shared<<<blocks, threads, shared_bytes>>>(
                static_cast<std::size_t>(shared_bytes / 16), l1_passes, sink);
        });
    }

    // ---- L1 / texture / read-only sizes at forced carve-outs (docs/probe.md, "Carve-outs") --
    // The carve-out preference is only a hint; what pins the carve-out from below is the
    // shared memory a block claims: the driver must pick a carve-out that holds it. Each
    // search sets the preference to the claim (in percent of the largest carve-out) and
    // allocates that much dynamic shared memory, so the carve-out is the smallest supported
    // one holding the claim: the smallest (what the chase needs anyway), about half, and the
    // largest a block can claim.
    void carveout_benchmarks() {
        const auto& d = record_.device;
        int reserved = 0;
        KERNCAST_CUDA(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock,
                                             options_.device));
        const std::int64_t per_sm = d.shared_memory_per_sm_bytes;
        const std::int64_t optin = d.shared_memory_per_block_optin_bytes;
        if (per_sm <= 0 || optin <= 0) {
            progress("carveout: the device reports no shared-memory limits; skipped");
            return;
        }
        struct Memory {
            const char* name;
            LoadKind kind;
            const void* kernel;
        };
        const std::vector<Memory> memories{
            {"l1", LoadKind::global_ca,
             reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::global_ca>)},
            {"texture", LoadKind::texture,
             reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::texture>)},
            {"readonly", LoadKind::global_nc,
             reinterpret_cast<const void*>(&device::fine_grained_chase<LoadKind::global_nc>)}};
        const SweepPlan plan = plan_for("l1");
        const std::int64_t times_bytes = plan.measure_count * sizeof(std::uint32_t);
        for (const Memory& memory : memories) {
            cudaFuncAttributes attributes{};
            KERNCAST_CUDA(cudaFuncGetAttributes(&attributes, memory.kernel));
            const auto fixed = static_cast<std::int64_t>(attributes.sharedSizeBytes) + reserved;
            std::set<int> done;
            for (const std::int64_t target : {std::int64_t{0}, per_sm / 2, optin + reserved}) {
                const std::int64_t dynamic = std::clamp<std::int64_t>(
                    target - fixed, times_bytes,
                    optin - static_cast<std::int64_t>(attributes.sharedSizeBytes));
                const std::int64_t claimed = dynamic + fixed;
                const int percent = static_cast<int>(
                    std::min<std::int64_t>(100, (100 * claimed + per_sm - 1) / per_sm));
                if (!done.insert(percent).second)
                    continue;
                KERNCAST_CUDA(cudaFuncSetAttribute(memory.kernel,
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   static_cast<int>(dynamic)));
                set_carveout_percent(percent);
                forced_dynamic_shared_ = static_cast<std::size_t>(dynamic);
                auto& b = add_benchmark(std::string(memory.name) + ".size.carveout_" +
                                            std::to_string(percent),
                                        "size", memory.name);
                b.chain = "sequential";
                b.carveout_percent = percent;
                b.shared_bytes_per_block = claimed;
                for (int rep = 0; rep < plan.repetitions; ++rep) {
                    progress(format_text("{}: size search at carve-out {} % ({} B shared per "
                                         "block), repetition {}/{}",
                                         memory.name, percent, claimed, rep + 1, plan.repetitions));
                    search_cache_size(MeasureSizes([&](const std::vector<std::int64_t>& sizes) {
                                          return measure_batch(memory.kind, sizes,
                                                               plan.stride_bytes,
                                                               plan.measure_count, b, rep, true);
                                      }),
                                      plan.search);
                }
            }
        }
        forced_dynamic_shared_ = 0;
        set_carveout();
    }

    // ---- TLB reach, page size, miss latency (docs/probe.md, "TLB") -------------------------
    // Its own allocation, as large as free memory allows (reaches beyond it are reported as
    // "at least"); per stride one chain of 8-byte pointers, one per stride slot, built on the
    // device; per repetition a coarse curve of footprints in one launch, then refinement
    // launches around each step (tlb.hpp, measure_tlb_curve).
    void tlb_benchmarks() {
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        KERNCAST_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
        const std::int64_t bytes =
            (static_cast<std::int64_t>(0.8 * static_cast<double>(free_bytes)) - 256 * MiB) /
            (32 * MiB) * (32 * MiB);
        if (bytes < 64 * MiB) {
            progress("tlb: less than 64 MiB of device memory free; skipped");
            return;
        }
        DeviceArray<unsigned char> region(static_cast<std::size_t>(bytes));
        progress(format_text("tlb: {} MiB allocated (80 % of {} MiB free): TLB levels reaching "
                             "beyond that are reported as at least that large",
                             bytes / MiB, static_cast<std::int64_t>(free_bytes) / MiB));
        // One 128-byte line per page touched: the data must stay in L2 (a quarter of it), so
        // only translations miss.
        const std::int64_t max_pages = std::min<std::int64_t>(65536, l2_bytes_ / (4 * 128));
        auto& b = add_benchmark("tlb", "tlb", "tlb");
        b.chain = "sequential";
        b.note = "one ld.global.cg per stride, pointer chain cut at each footprint";
        const std::uint32_t measure_count = 256;
        TlbCurveOptions curve_options;
        for (std::int64_t stride = 32 * KiB; stride <= 32 * MiB; stride *= 2) {
            std::int64_t built = std::min<std::int64_t>(max_pages, bytes / stride);
            while (built > 0 && chain::tlb_chain_bytes(static_cast<std::uint64_t>(built),
                                                       static_cast<std::uint64_t>(stride)) >
                                    static_cast<std::uint64_t>(bytes))
                --built;
            if (built < 4)
                break;
            const unsigned threads = 256;
            device::build_tlb_chain<<<static_cast<unsigned>((built + threads - 1) / threads),
                                      threads>>>(region.get(), static_cast<std::uint64_t>(built),
                                                 static_cast<std::uint64_t>(stride));
            KERNCAST_CUDA_LAUNCHED("build_tlb_chain");
            for (int rep = 0; rep < std::max(1, options_.repetitions); ++rep) {
                progress(format_text("tlb: stride {} KiB, footprints up to {} MiB, repetition "
                                     "{}/{}",
                                     stride / KiB, built * stride / MiB, rep + 1,
                                     options_.repetitions));
                double mhz = 0;
                const TlbCurve curve = measure_tlb_curve(
                    [&](const std::vector<std::int64_t>& footprints) {
                        return tlb_launch(region.get(), footprints, built, stride, measure_count,
                                          mhz);
                    },
                    stride, built * stride, curve_options);
                for (const auto& point : curve.points) {
                    RawSeries s;
                    s.repetition = rep;
                    s.size_bytes = point.size_bytes;
                    s.stride_bytes = static_cast<int>(stride);
                    s.sm_clock_mhz = mhz;
                    s.values = point.timings;
                    b.series.push_back(std::move(s));
                }
            }
        }
    }

    std::vector<std::vector<double>> tlb_launch(const unsigned char* base,
                                                const std::vector<std::int64_t>& footprints,
                                                std::int64_t built, std::int64_t stride,
                                                std::uint32_t measure_count, double& mhz) {
        std::vector<std::uint64_t> counts;
        for (std::int64_t f : footprints)
            counts.push_back(static_cast<std::uint64_t>(std::min(built, f / stride)));
        DeviceArray<std::uint64_t> d_counts(counts.size());
        d_counts.upload(counts);
        DeviceArray<std::uint32_t> d_times(counts.size() * measure_count);
        DeviceArray<std::uint64_t> d_sink(1);
        DeviceArray<BlockClock> d_clock(1);
        device::tlb_chase<<<1, 32, measure_count * sizeof(std::uint32_t)>>>(
            base, d_counts.get(), static_cast<std::uint32_t>(counts.size()),
            static_cast<std::uint64_t>(built), static_cast<std::uint64_t>(stride), measure_count,
            d_times.get(), d_sink.get(), d_clock.get());
        KERNCAST_CUDA_LAUNCHED("tlb_chase");
        KERNCAST_CUDA(cudaDeviceSynchronize());
        const auto times = d_times.download(counts.size() * measure_count);
        mhz = mhz_of(d_clock.download(1)[0]);
        std::vector<std::vector<double>> result;
        for (std::size_t f = 0; f < counts.size(); ++f)
            result.emplace_back(times.begin() + static_cast<long>(f * measure_count),
                                times.begin() + static_cast<long>((f + 1) * measure_count));
        return result;
    }

    static constexpr int max_batch = 160;                       // SMs of one batched launch
    static constexpr std::uint32_t max_measure = 2048;          // timed loads per block
    static constexpr std::int64_t batch_region_bytes = 1 * MiB; // per block of a batch
    static constexpr std::int64_t cold_bytes = 64 * MiB;        // never cached before use

    const ProbeOptions& options_;
    ProbeRecord record_;
    std::map<std::string, std::int64_t> sizes_;
    int sm_count_ = 0;
    int batch_ = 1;
    std::int64_t l2_bytes_ = 0;
    std::int64_t sweep_bytes_ = 0;
    std::uint32_t sweep_first_ = 0;
    std::size_t cold_first_ = 0;
    std::int64_t texture_elements_ = 0;
    std::size_t forced_dynamic_shared_ = 0; // carveout group: shared memory a chase block claims
    std::unique_ptr<DeviceArray<std::uint32_t>> buffer_;
    std::unique_ptr<DeviceArray<std::uint32_t>> sink_;
    // Scratch for launches (allocated once): per-block chain starts/lengths, times, clocks.
    std::unique_ptr<DeviceArray<std::uint32_t>> scratch_starts_;
    std::unique_ptr<DeviceArray<std::uint32_t>> scratch_lengths_;
    std::unique_ptr<DeviceArray<std::uint32_t>> scratch_times_;
    std::unique_ptr<DeviceArray<BlockClock>> scratch_clocks_;
    cudaTextureObject_t texture_ = 0;

public:
    ~Prober() {
        if (texture_)
            cudaDestroyTextureObject(texture_);
    }
};

} // namespace

ProbeRecord run_probe(const ProbeOptions& options) {
    Prober prober(options);
    return prober.run();
}

} // namespace kerncast::probe
