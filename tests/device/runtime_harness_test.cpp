// Device tests of the GPU runtime (registered only when a GPU is present): NVRTC-compiled
// kernels run on the device and are checked against CPU references built from the same
// deterministic inputs.
#include "kerncast/error.hpp"
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kerncast::runtime {
namespace {

std::string saxpy_source() {
    std::ifstream file(std::string(KERNCAST_SOURCE_DIR) + "/tests/unit/runtime/data/saxpy.cu");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::vector<float> as_floats(const std::vector<unsigned char>& bytes) {
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
}

TimingRequest saxpy_request(int n) {
    TimingRequest request;
    request.cuda_source = saxpy_source();
    request.source_name = "saxpy.cu";
    request.kernel_name = "saxpy";
    request.grid = {(n + 255) / 256, 1, 1};
    request.block = {256, 1, 1};
    request.arguments = {parse_scalar_argument("n:i32:" + std::to_string(n)),
                         parse_scalar_argument("a:f32:2.5"),
                         parse_buffer_spec("x:f32:" + std::to_string(n)),
                         parse_buffer_spec("y:f32:" + std::to_string(n)),
                         parse_buffer_spec("out:f32:" + std::to_string(n) + ":zero")};
    request.options.warmup = 2;
    request.options.repetitions = 5;
    request.options.read_back_buffers = true;
    return request;
}

TEST(DeviceRuntime, PatternBuffersRepeatTheirBytes) {
    // out = 2.5 x + y with x a 12-byte pattern of three floats and y zero: out repeats 2.5 times
    // the pattern.
    const int n = 1001;
    TimingRequest request = saxpy_request(n);
    auto& x = std::get<BufferSpec>(request.arguments[2]);
    ASSERT_EQ(x.name, "x");
    x.init = BufferInit::pattern;
    x.pattern = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40}; // 1, 2, 3
    std::get<BufferSpec>(request.arguments[3]).init = BufferInit::zero;
    const TimedRun run = time_kernel(request);
    const auto out = as_floats(run.buffers[2]);
    ASSERT_EQ(out.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[i], 2.5f * static_cast<float>(1 + i % 3)) << i;
}

TEST(DeviceRuntime, SaxpyMatchesCpuReference) {
    const int n = 100003; // not a multiple of the block size: the tail is masked
    const TimedRun run = time_kernel(saxpy_request(n));
    ASSERT_EQ(run.buffers.size(), 3u);
    const auto x = as_floats(run.buffers[0]);
    const auto y = as_floats(run.buffers[1]);
    const auto out = as_floats(run.buffers[2]);
    ASSERT_EQ(out.size(), static_cast<std::size_t>(n));
    const std::uint64_t x_seed = buffer_seed("x"), y_seed = buffer_seed("y");
    for (int i = 0; i < n; ++i) {
        // The inputs are bit-exact; the result may differ by the rounding of a fused
        // multiply-add, so compare with a tolerance of a few ulps.
        ASSERT_EQ(x[i], initial_f32(x_seed, i)) << i;
        ASSERT_EQ(y[i], initial_f32(y_seed, i)) << i;
        const float expected = 2.5f * initial_f32(x_seed, i) + initial_f32(y_seed, i);
        ASSERT_NEAR(out[i], expected, 4e-7f) << i;
    }
    ASSERT_EQ(run.times_s.size(), 5u);
    for (double t : run.times_s) {
        EXPECT_GT(t, 0);
        EXPECT_LT(t, 0.1); // 100k elements take microseconds, not a tenth of a second
    }
    EXPECT_EQ(run.target, "sm_" + std::to_string(run.device.cc_major * 10 + run.device.cc_minor));
    ASSERT_TRUE(run.device.sm_clock_start_mhz && run.device.sm_clock_end_mhz);
    EXPECT_GT(*run.device.sm_clock_start_mhz, 100);
    EXPECT_LT(*run.device.sm_clock_start_mhz, 5000);
    EXPECT_FALSE(run.device.name.empty());
    EXPECT_EQ(run.device.uuid->rfind("GPU-", 0), 0u);
}

TEST(DeviceRuntime, L2FlushUsesTwiceTheL2) {
    TimingRequest request = saxpy_request(1024);
    request.options.l2_flush = true;
    request.options.read_back_buffers = false;
    const TimedRun run = time_kernel(request);
    ASSERT_TRUE(run.l2_flush_bytes);
    EXPECT_GT(*run.l2_flush_bytes, 1 << 20);
    EXPECT_EQ(run.times_s.size(), 5u);
}

TEST(DeviceRuntime, TemplateKernelAndIntegerInit) {
    TimingRequest request;
    request.cuda_source = R"(
template <typename T> __global__ void twice(T* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = 2 * data[i];
})";
    request.kernel_name = "twice<long long>";
    request.grid = {4, 1, 1};
    request.block = {256, 1, 1};
    request.arguments = {parse_buffer_spec("v:i64:1000"), parse_scalar_argument("n:i32:1000")};
    request.options.warmup = 0;
    request.options.repetitions = 3;
    request.options.read_back_buffers = true;
    const TimedRun run = time_kernel(request);
    ASSERT_EQ(run.buffers.size(), 1u);
    std::vector<std::int64_t> v(1000);
    std::memcpy(v.data(), run.buffers[0].data(), 1000 * sizeof(std::int64_t));
    for (int i = 0; i < 1000; ++i) // three launches: times 8
        ASSERT_EQ(v[i], 8 * initial_integer(buffer_seed("v"), i)) << i;
}

TEST(DeviceRuntime, ImpossibleLaunchIsAnInputError) {
    TimingRequest request = saxpy_request(1024);
    request.block = {4096, 1, 1}; // more threads per block than any GPU allows
    try {
        time_kernel(request);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input) << e.describe();
        EXPECT_NE(e.message().find("cudaLaunchKernel"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast::runtime
