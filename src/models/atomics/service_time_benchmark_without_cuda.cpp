// Built without CUDA: the microbenchmark says so; --replay and the models work regardless.
#include "kerncast/error.hpp"
#include "kerncast/models/atomics/service_time_benchmark.hpp"

namespace kerncast::models::atomics {

bool service_benchmark_built_with_cuda() {
    return false;
}

ServiceRecord run_service_benchmark(const ServiceBenchmarkOptions&) {
    throw Error(ErrorKind::unavailable,
                "kerncast was built without CUDA, so it cannot measure the atomic service times; "
                "rebuild with -DKERNCAST_ENABLE_CUDA=ON and the CUDA toolkit installed",
                {},
                {"`kerncast atomics --replay RAW.json` rebuilds the table from a recorded run "
                 "without a GPU"});
}

} // namespace kerncast::models::atomics
