// The service-time microbenchmark of Dong & Pai sec. 3.2 on a GPU (cuda/atomics/): n
// warp-instructions issued at once on one SM, c of them atomicCAS and the rest the fetch-and-op,
// each with e active threads on one shared-memory address; T is the time from the first
// thread's start to the last thread's finish (clock64 of that SM). Without CUDA, or without a
// GPU, run_service_benchmark throws an unavailable Error (exit 3). docs/atomics.md.
#pragma once

#include "kerncast/models/atomics/service_time_record.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kerncast::models::atomics {

struct ServiceBenchmarkOptions {
    int device = 0;
    int repetitions = 5;
    std::vector<int> queued_warps;   // empty: 1..the device's max warps per SM
    std::vector<int> active_threads; // empty: 1..32
    std::vector<std::string> operations{"add", "popc_inc"};
    std::string command; // recorded
    std::function<void(const std::string&)> progress;
};

bool service_benchmark_built_with_cuda();

ServiceRecord run_service_benchmark(const ServiceBenchmarkOptions& options);

} // namespace kerncast::models::atomics
