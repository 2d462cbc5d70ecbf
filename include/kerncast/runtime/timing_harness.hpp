// The GPU timing harness: compile CUDA source at run time, allocate and initialise the
// kernel's buffers on the device, and time N launches with CUDA events.
#pragma once

#include "kerncast/runtime/kernel_arguments.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kerncast::runtime {

struct TimingOptions {
    int device = 0;       // CUDA device ordinal
    int warmup = 3;       // untimed launches first
    int repetitions = 10; // timed launches, one CUDA event pair each
    // Write a buffer of twice the L2 size between repetitions (outside the timed events), so
    // every repetition starts with a cold L2.
    bool l2_flush = false;
    // Measure the SM clock just before and just after the timed launches (clock64() cycles of
    // a spinning one-thread kernel over its CUDA-event time).
    bool measure_sm_clock = true;
    // Copy every buffer back to the host after the last launch (for checks).
    bool read_back_buffers = false;
};

struct TimingRequest {
    std::string cuda_source;
    std::string source_name; // for messages ("saxpy.cu")
    std::string kernel_name;
    kernel::Dim3 grid{1, 1, 1};
    kernel::Dim3 block{1, 1, 1};
    std::int64_t dynamic_shared_memory_bytes = 0;
    std::vector<KernelArgument> arguments; // the kernel's parameters, in order
    // Module-scope `__constant__` arrays of the source that the harness fills after loading it:
    // symbol `name` (unmangled: a namespace-scope variable) must have exactly count elements of
    // dtype; it gets the contents a buffer of that spec would (deterministic_init.hpp).
    std::vector<BufferSpec> constant_symbols;
    std::vector<std::string> compile_options;
    TimingOptions options;
};

struct TimedRun {
    DeviceRecord device;      // incl. SM clock at start/end when measured
    std::string target;       // what NVRTC compiled for: "sm_90" or "compute_90"
    std::string lowered_name; // the kernel's symbol
    std::string compile_log;
    std::vector<double> times_s; // one per repetition, in order
    std::optional<std::int64_t> l2_flush_bytes;
    // With read_back_buffers: each buffer argument's bytes, in argument order.
    std::vector<std::vector<unsigned char>> buffers;
    // With read_back_buffers: each constant symbol's bytes, in request order.
    std::vector<std::vector<unsigned char>> constant_symbols;
};

// Runs the request. Errors: no CUDA build / no driver / no GPU -> unavailable; a compile error
// or a launch the device rejects (too many threads, too much shared memory) -> input, naming
// the CUDA call; other CUDA failures -> unavailable, naming the call, file and line.
TimedRun time_kernel(const TimingRequest& request);

// The device's constant memory for __constant__ variables in bytes (cudaDeviceProp::
// totalConstMem); nullopt when there is no CUDA build, no driver or no such device.
std::optional<std::int64_t> device_constant_memory_bytes(int device);

} // namespace kerncast::runtime
