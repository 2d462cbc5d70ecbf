// The GPU timing harness: NVRTC-compiled code loaded through the runtime API's library
// management (cudaLibraryLoadData / cudaLibraryGetKernel, CUDA >= 12), launched with
// cudaLaunchKernel, timed with one CUDA event pair per repetition. kerncast links only the
// static CUDA runtime, which finds the driver at run time: without one, it still starts and
// this code reports "no driver" (exit 3).
#include "../cuda_raii.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace kerncast::runtime {
namespace {

using gpu::cuda_check;
using gpu::cuda_error_text;

// A launch the device refuses because of what was asked (not because of the machine).
void check_launch(cudaError_t status, const char* call, int line) {
    if (status == cudaErrorInvalidConfiguration || status == cudaErrorInvalidValue ||
        status == cudaErrorLaunchOutOfResources)
        throw Error(ErrorKind::input,
                    std::string(call) + " rejected the launch (" + __FILE__ + ":" +
                        std::to_string(line) + "): " + cuda_error_text(status),
                    {}, {"check --grid, --block, --shared-bytes and the kernel's arguments"});
    cuda_check(status, call, __FILE__, line);
}

#define KERNCAST_CUDA_LAUNCH(call) check_launch((call), #call, __LINE__)

// ---- device-side initialisation (deterministic_init.hpp) ----

// An f16 element as its binary16 bit pattern (the buffer holds __half).
struct Binary16 {
    std::uint16_t bits;
};

template <typename T> __device__ T initial_value(std::uint64_t seed, std::uint64_t index);
template <> __device__ float initial_value<float>(std::uint64_t seed, std::uint64_t index) {
    return initial_f32(seed, index);
}
template <> __device__ double initial_value<double>(std::uint64_t seed, std::uint64_t index) {
    return initial_f64(seed, index);
}
template <> __device__ Binary16 initial_value<Binary16>(std::uint64_t seed, std::uint64_t index) {
    return {initial_f16_bits(seed, index)};
}
template <typename T> __device__ T initial_value(std::uint64_t seed, std::uint64_t index) {
    return static_cast<T>(initial_integer(seed, index));
}

template <typename T>
__global__ void initialise_buffer(T* data, std::int64_t count, std::uint64_t seed) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride)
        data[i] = initial_value<T>(seed, static_cast<std::uint64_t>(i));
}

template <typename T> void launch_initialise(void* data, std::int64_t count, std::uint64_t seed) {
    const int threads = 256;
    const std::int64_t wanted = (count + threads - 1) / threads;
    const int blocks = static_cast<int>(wanted < 65536 ? wanted : 65536);
    initialise_buffer<T><<<blocks, threads>>>(static_cast<T*>(data), count, seed);
    KERNCAST_CUDA(cudaGetLastError());
}

// Byte i of the buffer = pattern[i mod period].
__global__ void fill_pattern(unsigned char* data, std::int64_t bytes,
                             const unsigned char* __restrict__ pattern, std::int64_t period) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < bytes; i += stride)
        data[i] = pattern[i % period];
}

void launch_fill_pattern(void* data, std::int64_t bytes, const std::vector<std::uint8_t>& pattern) {
    KERNCAST_CHECK(!pattern.empty(), "a pattern initialisation without bytes");
    gpu::DeviceBuffer<std::uint8_t> device_pattern(pattern.size());
    device_pattern.upload(pattern);
    const int threads = 256;
    const std::int64_t wanted = (bytes + threads - 1) / threads;
    const int blocks = static_cast<int>(wanted < 65536 ? wanted : 65536);
    fill_pattern<<<blocks, threads>>>(static_cast<unsigned char*>(data), bytes,
                                      device_pattern.get(),
                                      static_cast<std::int64_t>(pattern.size()));
    KERNCAST_CUDA(cudaGetLastError());
    KERNCAST_CUDA(cudaDeviceSynchronize()); // before device_pattern is freed
}

void initialise(void* data, const BufferSpec& buffer) {
    const std::size_t bytes = static_cast<std::size_t>(buffer.count) * size_bytes(buffer.dtype);
    if (buffer.init == BufferInit::zero) {
        KERNCAST_CUDA(cudaMemset(data, 0, bytes));
        return;
    }
    if (buffer.init == BufferInit::pattern) {
        launch_fill_pattern(data, static_cast<std::int64_t>(bytes), buffer.pattern);
        return;
    }
    const std::uint64_t seed = buffer_seed(buffer.name);
    switch (buffer.dtype) {
    case DType::f16:
        return launch_initialise<Binary16>(data, buffer.count, seed);
    case DType::f32:
        return launch_initialise<float>(data, buffer.count, seed);
    case DType::f64:
        return launch_initialise<double>(data, buffer.count, seed);
    case DType::i32:
        return launch_initialise<std::int32_t>(data, buffer.count, seed);
    case DType::i64:
        return launch_initialise<std::int64_t>(data, buffer.count, seed);
    case DType::u32:
        return launch_initialise<std::uint32_t>(data, buffer.count, seed);
    case DType::u64:
        return launch_initialise<std::uint64_t>(data, buffer.count, seed);
    }
}

// ---- SM clock: one thread spins for a fixed number of clock64() cycles ----

__global__ void spin_cycles(long long cycles, long long* elapsed) {
    const long long start = clock64();
    long long now = start;
    while (now - start < cycles)
        now = clock64();
    *elapsed = now - start;
}

// About 10 ms at 2 GHz: long enough that launch overhead (microseconds) is < 0.1 %.
constexpr long long clock_probe_cycles = 20'000'000;

double measure_sm_clock_mhz(cudaStream_t stream, long long* device_elapsed) {
    gpu::Event start;
    gpu::Event stop;
    start.record(stream);
    spin_cycles<<<1, 1, 0, stream>>>(clock_probe_cycles, device_elapsed);
    KERNCAST_CUDA(cudaGetLastError());
    stop.record(stream);
    const float milliseconds = stop.milliseconds_since(start);
    long long cycles = 0;
    KERNCAST_CUDA(cudaMemcpy(&cycles, device_elapsed, sizeof cycles, cudaMemcpyDeviceToHost));
    return static_cast<double>(cycles) / (static_cast<double>(milliseconds) * 1e3);
}

std::string format_uuid(const cudaUUID_t& uuid) {
    const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
    char text[48];
    std::snprintf(text, sizeof text,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return text;
}

// Device memory released on every path out of time_kernel.
struct DeviceAllocations {
    std::vector<gpu::DeviceBuffer<unsigned char>> buffers;
    void* allocate(std::size_t bytes) {
        buffers.emplace_back(bytes);
        return buffers.back().get();
    }
};

void select_device(int ordinal) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0))
        throw Error(ErrorKind::unavailable, "no CUDA GPU is visible to this process");
    if (status == cudaErrorInsufficientDriver)
        throw Error(ErrorKind::unavailable, "no usable NVIDIA driver (" + cuda_error_text(status) +
                                                "); kerncast run needs a GPU and its driver");
    KERNCAST_CUDA(status);
    if (ordinal < 0 || ordinal >= count)
        throw Error(ErrorKind::usage, "--device " + std::to_string(ordinal) +
                                          " does not exist; this machine has " +
                                          std::to_string(count) + " CUDA device(s)");
    KERNCAST_CUDA(cudaSetDevice(ordinal));
}

DeviceRecord describe_device(int ordinal) {
    cudaDeviceProp prop{};
    KERNCAST_CUDA(cudaGetDeviceProperties(&prop, ordinal));
    DeviceRecord device;
    device.name = prop.name;
    device.cc_major = prop.major;
    device.cc_minor = prop.minor;
    device.sm_count = prop.multiProcessorCount;
    int driver_version = 0;
    int runtime_version = 0;
    KERNCAST_CUDA(cudaDriverGetVersion(&driver_version));
    KERNCAST_CUDA(cudaRuntimeGetVersion(&runtime_version));
    device.driver_version = driver_version;
    device.runtime_version = runtime_version;
    int memory_clock_khz = 0;
    KERNCAST_CUDA(cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    if (memory_clock_khz > 0)
        device.memory_clock_mhz = memory_clock_khz / 1000.0;
    char bus_id[32] = {};
    KERNCAST_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal));
    device.pci_bus_id = bus_id;
    device.uuid = format_uuid(prop.uuid);
    return device;
}

// A __constant__ variable of the loaded library: its device address and size.
struct ConstantSymbol {
    void* address = nullptr;
    std::size_t bytes = 0;
};

// Fills every requested __constant__ array with the values a buffer of the same spec gets: the
// init kernel writes a temporary device buffer, which is copied device-to-device into the
// symbol (kernels cannot write __constant__ memory, and this keeps one initialisation path).
std::vector<ConstantSymbol> fill_constant_symbols(cudaLibrary_t library,
                                                  const TimingRequest& request,
                                                  const CompiledKernel& compiled,
                                                  DeviceAllocations& allocations) {
    std::vector<ConstantSymbol> symbols;
    for (std::size_t c = 0; c < request.constant_symbols.size(); ++c) {
        const BufferSpec& spec = request.constant_symbols[c];
        ConstantSymbol symbol;
        const cudaError_t status = cudaLibraryGetGlobal(&symbol.address, &symbol.bytes, library,
                                                        compiled.lowered_globals.at(c).c_str());
        if (status == cudaErrorSymbolNotFound || status == cudaErrorInvalidSymbol) {
            cudaGetLastError(); // reset the runtime's last error
            throw Error(ErrorKind::input,
                        "'" + request.source_name + "' has no __constant__ variable '" + spec.name +
                            "'",
                        {},
                        {"a constant array must be a namespace-scope __constant__ variable of "
                         "that name"});
        }
        KERNCAST_CUDA(status);
        const std::size_t wanted = static_cast<std::size_t>(spec.count) * size_bytes(spec.dtype);
        if (symbol.bytes != wanted)
            throw Error(ErrorKind::input, "__constant__ variable '" + spec.name + "' has " +
                                              std::to_string(symbol.bytes) + " bytes, but " +
                                              to_string(spec) + " fills " + std::to_string(wanted));
        void* staging = allocations.allocate(wanted);
        initialise(staging, spec);
        KERNCAST_CUDA(cudaMemcpy(symbol.address, staging, wanted, cudaMemcpyDeviceToDevice));
        symbols.push_back(symbol);
    }
    return symbols;
}

} // namespace

std::optional<std::int64_t> device_constant_memory_bytes(int device) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || device < 0 || device >= count) {
        cudaGetLastError();
        return std::nullopt;
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        cudaGetLastError();
        return std::nullopt;
    }
    return static_cast<std::int64_t>(prop.totalConstMem);
}

namespace {

void check_request(const TimingRequest& request) {
    const TimingOptions& options = request.options;
    if (options.repetitions < 1)
        throw_usage_error("--repeat must be at least 1");
    if (options.warmup < 0)
        throw_usage_error("--warmup must not be negative");
    for (const kernel::Dim3* dims : {&request.grid, &request.block})
        for (std::int64_t extent : *dims)
            if (extent < 1 || extent > std::numeric_limits<unsigned>::max())
                throw Error(ErrorKind::input,
                            std::string(dims == &request.grid ? "grid" : "block") + " extent " +
                                std::to_string(extent) +
                                " does not fit CUDA's dim3 (1 to 4294967295 per axis)");
}

CompiledKernel compile_for_device(const TimingRequest& request, TimedRun& run) {
    CompileRequest compile;
    compile.source = request.cuda_source;
    compile.source_name = request.source_name;
    compile.kernel_name = request.kernel_name;
    compile.cc_major = run.device.cc_major;
    compile.cc_minor = run.device.cc_minor;
    compile.extra_options = request.compile_options;
    for (const BufferSpec& constant : request.constant_symbols)
        compile.global_variables.push_back(constant.name);
    CompiledKernel compiled = compile_cuda_source(compile);
    run.target = compiled.target;
    run.lowered_name = compiled.lowered_name;
    run.compile_log = compiled.log;
    return compiled;
}

// The kernel's arguments: device pointers for buffers (allocated and initialised here), the
// value's bytes for scalars. storage is sized first so the pointers into it stay valid.
struct KernelArguments {
    std::vector<std::vector<unsigned char>> storage;
    std::vector<void*> pointers; // one per argument, into storage
    std::vector<void*> buffer_pointers;
    std::vector<std::size_t> buffer_bytes;
};

KernelArguments prepare_arguments(const TimingRequest& request, DeviceAllocations& allocations) {
    KernelArguments arguments;
    arguments.storage.resize(request.arguments.size());
    for (std::size_t i = 0; i < request.arguments.size(); ++i) {
        if (const auto* buffer = std::get_if<BufferSpec>(&request.arguments[i])) {
            const std::size_t bytes =
                static_cast<std::size_t>(buffer->count) * size_bytes(buffer->dtype);
            void* pointer = allocations.allocate(bytes);
            initialise(pointer, *buffer);
            arguments.storage[i].resize(sizeof(void*));
            std::memcpy(arguments.storage[i].data(), &pointer, sizeof pointer);
            arguments.buffer_pointers.push_back(pointer);
            arguments.buffer_bytes.push_back(bytes);
        } else {
            arguments.storage[i] = scalar_bytes(std::get<ScalarArgument>(request.arguments[i]));
        }
    }
    for (auto& storage : arguments.storage)
        arguments.pointers.push_back(storage.data());
    return arguments;
}

// The timed repetitions, each between two events, after the optional L2 flush; the SM clock
// before and after when asked.
void time_repetitions(const TimingOptions& options, const std::function<void()>& launch,
                      DeviceAllocations& allocations, TimedRun& run) {
    cudaStream_t stream = nullptr; // the legacy default stream: launches run in issue order
    void* flush_buffer = nullptr;
    std::size_t flush_bytes = 0;
    if (options.l2_flush) {
        int l2_bytes = 0;
        KERNCAST_CUDA(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, options.device));
        flush_bytes = 2 * static_cast<std::size_t>(l2_bytes);
        flush_buffer = allocations.allocate(flush_bytes);
        run.l2_flush_bytes = static_cast<std::int64_t>(flush_bytes);
    }

    long long* clock_cycles = nullptr;
    if (options.measure_sm_clock) {
        clock_cycles = static_cast<long long*>(allocations.allocate(sizeof(long long)));
        run.device.sm_clock_start_mhz = measure_sm_clock_mhz(stream, clock_cycles);
    }

    std::vector<std::pair<gpu::Event, gpu::Event>> pairs(
        static_cast<std::size_t>(options.repetitions));
    for (std::size_t r = 0; r < pairs.size(); ++r) {
        if (flush_buffer)
            KERNCAST_CUDA(
                cudaMemsetAsync(flush_buffer, static_cast<int>(r & 0xff), flush_bytes, stream));
        pairs[r].first.record(stream);
        launch();
        pairs[r].second.record(stream);
    }
    KERNCAST_CUDA(cudaDeviceSynchronize());
    for (const auto& [start, stop] : pairs)
        run.times_s.push_back(static_cast<double>(stop.elapsed_ms(start)) * 1e-3);

    if (options.measure_sm_clock)
        run.device.sm_clock_end_mhz = measure_sm_clock_mhz(stream, clock_cycles);
}

std::vector<unsigned char> download_bytes(const void* address, std::size_t bytes) {
    std::vector<unsigned char> host(bytes);
    KERNCAST_CUDA(cudaMemcpy(host.data(), address, host.size(), cudaMemcpyDeviceToHost));
    return host;
}

} // namespace

TimedRun time_kernel(const TimingRequest& request) {
    check_request(request);
    const TimingOptions& options = request.options;
    select_device(options.device);
    TimedRun run;
    run.device = describe_device(options.device);
    const CompiledKernel compiled = compile_for_device(request, run);

    const gpu::Library library(compiled.image.data());
    const void* function = library.function(compiled.lowered_name);
    if (request.dynamic_shared_memory_bytes > 48 * 1024)
        KERNCAST_CUDA_LAUNCH(
            cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(request.dynamic_shared_memory_bytes)));

    DeviceAllocations allocations;
    KernelArguments arguments = prepare_arguments(request, allocations);
    const std::vector<ConstantSymbol> constants =
        fill_constant_symbols(library.get(), request, compiled, allocations);
    KERNCAST_CUDA(cudaDeviceSynchronize());

    const dim3 grid(static_cast<unsigned>(request.grid[0]), static_cast<unsigned>(request.grid[1]),
                    static_cast<unsigned>(request.grid[2]));
    const dim3 block(static_cast<unsigned>(request.block[0]),
                     static_cast<unsigned>(request.block[1]),
                     static_cast<unsigned>(request.block[2]));
    const auto launch = [&] {
        KERNCAST_CUDA_LAUNCH(cudaLaunchKernel(
            function, grid, block, arguments.pointers.data(),
            static_cast<std::size_t>(request.dynamic_shared_memory_bytes), nullptr));
    };
    for (int w = 0; w < options.warmup; ++w)
        launch();
    KERNCAST_CUDA(cudaDeviceSynchronize());
    time_repetitions(options, launch, allocations, run);

    if (options.read_back_buffers) {
        for (std::size_t b = 0; b < arguments.buffer_pointers.size(); ++b)
            run.buffers.push_back(
                download_bytes(arguments.buffer_pointers[b], arguments.buffer_bytes[b]));
        for (const ConstantSymbol& constant : constants)
            run.constant_symbols.push_back(download_bytes(constant.address, constant.bytes));
    }
    return run;
}

} // namespace kerncast::runtime
