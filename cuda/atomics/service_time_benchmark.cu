// Dong & Pai sec. 3.2: the service-time microbenchmark of the shared-memory atomic unit.
// docs/atomics.md, "Measuring the table".
//
// One launch measures one (operation, n, e, c): blocks of 32 warps; on every SM the first
// ceil(n / 32) blocks to arrive form a group (a ticket per SM), wait for each other (a spin
// barrier in global memory, with a time-out), and then warps 0..n-1 of the group each issue
// one atomic on the block's shared word: warps 0..c-1 atomicCAS, the rest the fetch-and-op,
// lanes 0..e-1 active. Every thread reads clock64 before its atomic and after its completion
// (each warp records its earliest start and latest end, one global atomic each);
// T of the SM is max(end) - min(start). One repetition is the median over the SMs whose group
// formed.
#include "../cuda_raii.hpp"
#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"
#include "kerncast/models/atomics/service_time_benchmark.hpp"

#include <algorithm>
#include <climits>
#include <ctime>
#include <numeric>
#include <vector>

namespace kerncast::models::atomics {
namespace {

constexpr int max_sms = 1024;
constexpr int warps_per_block = 32;
constexpr long long spin_limit_cycles = 2000000000LL; // ~1 s: a group that never forms

struct SmSlots {
    unsigned tickets[max_sms];
    unsigned arrived[max_sms];
    unsigned long long first_start[max_sms];
    unsigned long long last_end[max_sms];
    unsigned timed_out[max_sms];
    unsigned sink;
};

__device__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

// Two 1024-thread blocks per SM where the SM holds 2048 threads; Turing (sm_75) holds 1024,
// and asking it for two made ptxas warn and ignore the bound.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define KERNCAST_SERVICE_BLOCKS_PER_SM 1
#else
#define KERNCAST_SERVICE_BLOCKS_PER_SM 2
#endif

// Returning: the result is used, so the compiler keeps ATOMS.ADD (Dong & Pai sec. 4.1 made
// the A6000 keep it with a read of the result); otherwise ATOMS.POPC.INC on Ampere and later.
template <bool Returning>
__global__ void __launch_bounds__(1024, KERNCAST_SERVICE_BLOCKS_PER_SM)
    service_time_kernel(int n, int e, int c, int group_blocks, SmSlots* slots) {
    __shared__ unsigned word[32];
    __shared__ unsigned ticket;
    const unsigned sm = sm_id();
    if (threadIdx.x == 0) {
        word[0] = 0;
        ticket = atomicAdd(&slots->tickets[sm], 1u);
    }
    __syncthreads();
    if (ticket >= static_cast<unsigned>(group_blocks))
        return;
    if (threadIdx.x == 0) {
        atomicAdd(&slots->arrived[sm], 1u);
        const long long begin = clock64();
        while (atomicAdd(&slots->arrived[sm], 0u) < static_cast<unsigned>(group_blocks)) {
            if (clock64() - begin > spin_limit_cycles) {
                atomicExch(&slots->timed_out[sm], 1u);
                break;
            }
        }
    }
    __syncthreads();
    const int warp = static_cast<int>(ticket) * warps_per_block + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (warp >= n || lane >= e)
        return;
    unsigned result = 0;
    const long long start = clock64();
    if (warp < c) {
        result = atomicCAS(&word[0], 0u, static_cast<unsigned>(lane));
    } else {
        if constexpr (Returning) {
            result = atomicAdd(&word[0], 1u);
        } else {
            atomicAdd(&word[0], 1u);
            __threadfence_block(); // completion of the return-free increment
        }
    }
    word[1 + lane % 31] = result; // uses the result before the clock is read again
    const long long end = clock64();
    // One global atomic per warp, not per lane: the warp's earliest start and latest end
    // first (lanes 0..e-1 are the active ones). With a global atomic per lane, 2048 of them
    // on two addresses per SM queued behind the measured warps and stretched T 10-40 times
    // from n = 48 on (the first H200 table, 2026-11-26).
    const unsigned active = e >= 32 ? 0xffffffffu : (1u << e) - 1u;
    long long first = start, last = end;
    for (int offset = 16; offset > 0; offset /= 2) {
        const long long other_first = __shfl_down_sync(active, first, offset);
        const long long other_last = __shfl_down_sync(active, last, offset);
        if (lane + offset < e) {
            first = other_first < first ? other_first : first;
            last = other_last > last ? other_last : last;
        }
    }
    if (lane == 0) {
        atomicMin(&slots->first_start[sm], static_cast<unsigned long long>(first));
        atomicMax(&slots->last_end[sm], static_cast<unsigned long long>(last));
    }
    if (result == 0xffffffffu)
        slots->sink = result;
}

std::string date_utc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

} // namespace

bool service_benchmark_built_with_cuda() {
    return true;
}

namespace {

ServiceRecord describe_run(const gpu::DeviceInfo& device, const ServiceBenchmarkOptions& options) {
    ServiceRecord record;
    record.device = device.name;
    record.cc_major = device.cc_major;
    record.cc_minor = device.cc_minor;
    record.sm_count = device.sm_count;
    record.max_warps_per_sm = device.max_threads_per_sm / 32;
    record.date_utc = date_utc();
    record.command = options.command;
    record.repetitions = options.repetitions;
    record.method =
        "one launch per (operation, n, e, c) and repetition: on each SM ceil(n/32) co-resident "
        "blocks of 1024 threads, warps 0..n-1 issue one shared atomic on one word (warps 0..c-1 "
        "atomicCAS, the rest atomicAdd(1) with the result used (add) or unused (popc_inc)), "
        "lanes 0..e-1; T = last clock64 after completion - first clock64 before issue on that "
        "SM; a repetition is the median T over the SMs whose group formed";
    return record;
}

// `chosen`, or 1..count when empty.
std::vector<int> or_one_to(const std::vector<int>& chosen, int count) {
    if (!chosen.empty())
        return chosen;
    std::vector<int> all(static_cast<std::size_t>(count));
    std::iota(all.begin(), all.end(), 1);
    return all;
}

// One launch of the kernel for (n, e, c): the median over the SMs whose group formed of
// T = last end - first start.
class ServiceLaunch {
public:
    explicit ServiceLaunch(int sm_count)
        : slots_(1), first_(static_cast<std::size_t>(sm_count)), last_(first_.size()),
          timed_out_(first_.size()) {}

    double median_cycles(bool returning, int n, int e, int c, int group_blocks) {
        SmSlots* slots = slots_.get();
        KERNCAST_CUDA(cudaMemset(slots, 0, sizeof(SmSlots)));
        KERNCAST_CUDA(cudaMemset(slots->first_start, 0xff, sizeof(slots->first_start)));
        const dim3 grid(static_cast<unsigned>(first_.size()) *
                        static_cast<unsigned>(group_blocks * 2));
        if (returning)
            service_time_kernel<true><<<grid, 1024>>>(n, e, c, group_blocks, slots);
        else
            service_time_kernel<false><<<grid, 1024>>>(n, e, c, group_blocks, slots);
        KERNCAST_CUDA_LAUNCHED("service_time_kernel");
        KERNCAST_CUDA(cudaDeviceSynchronize());
        KERNCAST_CUDA(cudaMemcpy(first_.data(), slots->first_start,
                                 first_.size() * sizeof(first_[0]), cudaMemcpyDeviceToHost));
        KERNCAST_CUDA(cudaMemcpy(last_.data(), slots->last_end, last_.size() * sizeof(last_[0]),
                                 cudaMemcpyDeviceToHost));
        KERNCAST_CUDA(cudaMemcpy(timed_out_.data(), slots->timed_out,
                                 timed_out_.size() * sizeof(timed_out_[0]),
                                 cudaMemcpyDeviceToHost));
        std::vector<double> per_sm;
        for (std::size_t sm = 0; sm < first_.size(); ++sm)
            if (!timed_out_[sm] && first_[sm] != ULLONG_MAX && last_[sm] > first_[sm])
                per_sm.push_back(static_cast<double>(last_[sm] - first_[sm]));
        if (per_sm.empty())
            throw Error(ErrorKind::unavailable,
                        "no SM formed a group of " + std::to_string(group_blocks) +
                            " co-resident blocks for n = " + std::to_string(n));
        std::nth_element(per_sm.begin(), per_sm.begin() + per_sm.size() / 2, per_sm.end());
        return per_sm[per_sm.size() / 2];
    }

private:
    gpu::DeviceBuffer<SmSlots> slots_;
    std::vector<unsigned long long> first_;
    std::vector<unsigned long long> last_;
    std::vector<unsigned> timed_out_;
};

} // namespace

ServiceRecord run_service_benchmark(const ServiceBenchmarkOptions& options) {
    const auto devices = gpu::query_devices(); // throws unavailable without GPU/driver
    if (options.device < 0 || options.device >= static_cast<int>(devices.size()))
        throw Error(ErrorKind::usage, "--device " + std::to_string(options.device) +
                                          " does not exist (" + std::to_string(devices.size()) +
                                          " GPU(s) visible)");
    const gpu::DeviceInfo& device = devices[static_cast<std::size_t>(options.device)];
    KERNCAST_CUDA(cudaSetDevice(options.device));
    if (device.sm_count > max_sms)
        throw Error(ErrorKind::unavailable, "the GPU has more than 1024 SMs");
    ServiceRecord record = describe_run(device, options);

    const std::vector<int> ns = or_one_to(options.queued_warps, record.max_warps_per_sm);
    const std::vector<int> es = or_one_to(options.active_threads, 32);
    for (int n : ns)
        if (n < 1 || n > record.max_warps_per_sm || n > 2 * warps_per_block)
            throw Error(ErrorKind::usage,
                        "n = " + std::to_string(n) + " is outside 1.." +
                            std::to_string(std::min(record.max_warps_per_sm, 2 * warps_per_block)));
    for (int e : es)
        if (e < 1 || e > 32)
            throw Error(ErrorKind::usage, "e = " + std::to_string(e) + " is outside 1..32");

    ServiceLaunch launch(device.sm_count);
    for (const auto& operation : options.operations) {
        const bool returning = operation == "add";
        if (!returning && operation != "popc_inc")
            throw Error(ErrorKind::usage, "unknown operation '" + operation + "'");
        for (int n : ns) {
            if (options.progress)
                options.progress(operation + ": n = " + std::to_string(n));
            const int group_blocks = (n + warps_per_block - 1) / warps_per_block;
            for (int e : es) {
                ServiceSeries series{operation, n, e, {}};
                for (int c = 0; c <= n; ++c) {
                    std::vector<double> repetitions;
                    for (int r = 0; r < options.repetitions; ++r)
                        repetitions.push_back(
                            launch.median_cycles(returning, n, e, c, group_blocks));
                    series.total_cycles.push_back(std::move(repetitions));
                }
                record.series.push_back(std::move(series));
            }
        }
    }
    return record;
}

} // namespace kerncast::models::atomics
