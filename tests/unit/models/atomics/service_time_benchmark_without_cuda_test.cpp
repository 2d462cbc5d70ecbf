// Built without CUDA, the service-time microbenchmark says so: "unavailable" (exit 3 in the
// CLI), how to get it, and that --replay needs no GPU. Registered only in builds without CUDA.
#include "kerncast/error.hpp"
#include "kerncast/models/atomics/service_time_benchmark.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::atomics {
namespace {

TEST(ServiceTimeBenchmarkWithoutCuda, SaysItWasBuiltWithoutCuda) {
    EXPECT_FALSE(service_benchmark_built_with_cuda());
    try {
        (void)run_service_benchmark(ServiceBenchmarkOptions{});
        FAIL() << "expected an unavailable error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::unavailable);
        EXPECT_NE(error.message().find("-DKERNCAST_ENABLE_CUDA=ON"), std::string::npos)
            << error.message();
        ASSERT_EQ(error.notes().size(), 1u);
        EXPECT_NE(error.notes()[0].find("--replay"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast::models::atomics
