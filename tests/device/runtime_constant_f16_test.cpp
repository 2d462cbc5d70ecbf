// Device tests of f16 buffers and __constant__ arrays (run only with a GPU; compiled in every
// CUDA build): what the harness writes on the device must equal, bit for bit, what the host
// computes from the same header (deterministic_init.hpp, half.hpp), and the host binary16
// conversion must agree with the GPU's own __float2half_rn.
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/half.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

namespace kerncast::runtime {
namespace {

template <typename T> std::vector<T> as_values(const std::vector<unsigned char>& bytes) {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
}

TimingRequest single_launch(const std::string& source, const std::string& kernel) {
    TimingRequest request;
    request.cuda_source = source;
    request.source_name = kernel + ".cu";
    request.kernel_name = kernel;
    request.options.warmup = 0;
    request.options.repetitions = 1;
    request.options.read_back_buffers = true;
    request.options.measure_sm_clock = false;
    return request;
}

TEST(DeviceF16, BuffersHoldTheRoundedHashAndHalfArithmeticMatchesTheHost) {
    // y = a * x + y in float, stored rounded to nearest even: the product of two halves is
    // exact in float, so with or without FMA contraction the float result is the exact value
    // rounded once, which the host computes in double and rounds the same way.
    TimingRequest request = single_launch(R"(#include <cuda_fp16.h>
extern "C" __global__ void axpy_half(int n, __half a, const __half* x, __half* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __float2half_rn(__half2float(a) * __half2float(x[i]) + __half2float(y[i]));
})",
                                          "axpy_half");
    const int n = 100003;
    request.grid = {(n + 255) / 256, 1, 1};
    request.block = {256, 1, 1};
    request.arguments = {parse_scalar_argument("n:i32:" + std::to_string(n)),
                         parse_scalar_argument("a:f16:-1.75"),
                         parse_buffer_spec("x:f16:" + std::to_string(n)),
                         parse_buffer_spec("y:f16:" + std::to_string(n))};
    const TimedRun run = time_kernel(request);
    ASSERT_EQ(run.buffers.size(), 2u);
    const auto x = as_values<std::uint16_t>(run.buffers[0]);
    const auto y = as_values<std::uint16_t>(run.buffers[1]);
    ASSERT_EQ(x.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(x[i], initial_f16_bits(buffer_seed("x"), i)) << i;
        const double exact = -1.75 * double_from_half_bits(initial_f16_bits(buffer_seed("x"), i)) +
                             double_from_half_bits(initial_f16_bits(buffer_seed("y"), i));
        ASSERT_EQ(y[i], half_bits_from_float(static_cast<float>(exact))) << i;
    }
}

// half_bits_from_float against the hardware conversion, for every float whose magnitude lies
// where rounding to binary16 decides (2^-26 up to 2^18, both signs), in chunks.
TEST(DeviceF16, HostConversionAgreesWithFloat2HalfRn) {
    TimingRequest request = single_launch(R"(#include <cuda_fp16.h>
extern "C" __global__ void to_half(unsigned int first, unsigned int count, unsigned short* out) {
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = __half_as_ushort(__float2half_rn(__uint_as_float(first + i)));
})",
                                          "to_half");
    const std::uint32_t chunk = 1u << 26;
    std::uint64_t compared = 0;
    for (const std::uint32_t sign : {0u, 0x80000000u}) {
        for (std::uint32_t first = sign | (101u << 23); first < (sign | (146u << 23));
             first += chunk) {
            request.grid = {chunk / 256, 1, 1};
            request.block = {256, 1, 1};
            request.arguments = {parse_scalar_argument("first:u32:" + std::to_string(first)),
                                 parse_scalar_argument("count:u32:" + std::to_string(chunk)),
                                 parse_buffer_spec("out:f16:" + std::to_string(chunk) + ":zero")};
            const TimedRun run = time_kernel(request);
            const auto device = as_values<std::uint16_t>(run.buffers.at(0));
            for (std::uint32_t i = 0; i < chunk; ++i) {
                float value;
                const std::uint32_t bits = first + i;
                std::memcpy(&value, &bits, sizeof value);
                ASSERT_EQ(device[i], half_bits_from_float(value)) << "float bits " << bits;
            }
            compared += chunk;
        }
    }
    EXPECT_GT(compared, 700'000'000u);
}

TEST(DeviceConstant, SymbolsAreFilledLikeBuffers) {
    TimingRequest request = single_launch(R"(#include <cuda_fp16.h>
__constant__ double weights[25];
__constant__ unsigned char lookup[8];
__constant__ __half halves[6];
extern "C" __global__ void copy_constants(double* w, unsigned int* words, __half* h) {
    const int i = threadIdx.x;
    if (i < 25) w[i] = weights[i];
    if (i < 2) words[i] = reinterpret_cast<const unsigned int*>(lookup)[i];
    if (i < 6) h[i] = halves[i];
})",
                                          "copy_constants");
    request.grid = {1, 1, 1};
    request.block = {32, 1, 1};
    request.constant_symbols = {parse_constant_spec("weights:f64:25"),
                                parse_constant_spec("lookup:u32:2"),
                                parse_constant_spec("halves:f16:6")};
    request.arguments = {parse_buffer_spec("w:f64:25:zero"), parse_buffer_spec("words:u32:2:zero"),
                         parse_buffer_spec("h:f16:6:zero")};
    const TimedRun run = time_kernel(request);
    const auto w = as_values<double>(run.buffers.at(0));
    const auto words = as_values<std::uint32_t>(run.buffers.at(1));
    const auto h = as_values<std::uint16_t>(run.buffers.at(2));
    for (int i = 0; i < 25; ++i)
        EXPECT_EQ(w[i], initial_f64(buffer_seed("weights"), i)) << i;
    for (int i = 0; i < 2; ++i)
        EXPECT_EQ(words[i], initial_integer(buffer_seed("lookup"), i)) << i;
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(h[i], initial_f16_bits(buffer_seed("halves"), i)) << i;
    // The symbols read back directly hold the same bytes.
    ASSERT_EQ(run.constant_symbols.size(), 3u);
    EXPECT_EQ(run.constant_symbols[0], run.buffers[0]);
    EXPECT_EQ(run.constant_symbols[2], run.buffers[2]);
}

TEST(DeviceConstant, SymbolOfTheWrongSizeIsAnInputError) {
    TimingRequest request = single_launch(R"(__constant__ double weights[25];
extern "C" __global__ void use(double* w) { w[threadIdx.x] = weights[threadIdx.x]; })",
                                          "use");
    request.block = {25, 1, 1};
    request.constant_symbols = {parse_constant_spec("weights:f64:24")};
    request.arguments = {parse_buffer_spec("w:f64:25:zero")};
    try {
        time_kernel(request);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input) << e.describe();
        EXPECT_NE(e.message().find("has 200 bytes"), std::string::npos) << e.message();
    }
}

// A generated kernel with a constant array (box2d_r2's weights): once as a __constant__
// symbol, once forced back to a pointer by a tiny constant bank; both match the reference.
TEST(DeviceConstant, GeneratedConstantArraysMatchTheReference) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/box2d_r2.yaml");
    const codegen::Schedule schedule =
        codegen::lower_kernel(spec, spec.launch, {{"nx", 130}, {"ny", 21}});
    const codegen::ReferenceResult reference = codegen::run_reference(schedule);
    for (const std::int64_t bank_bytes : {std::int64_t{65536}, std::int64_t{16}}) {
        SCOPED_TRACE(bank_bytes);
        const codegen::GeneratedKernel generated =
            codegen::generate_cuda(schedule, {}, {bank_bytes});
        EXPECT_EQ(generated.constant_symbols.size(), bank_bytes == 16 ? 0u : 1u);
        TimingOptions options;
        options.warmup = 0;
        options.repetitions = 1;
        options.read_back_buffers = true;
        options.measure_sm_clock = false;
        const TimedRun run =
            time_kernel(codegen::timing_request(generated, "box2d_r2.cu", options));
        ASSERT_EQ(run.buffers.size(), generated.buffer_arrays.size());
        for (std::size_t b = 0; b < run.buffers.size(); ++b) {
            const codegen::ArrayStorage& array = *schedule.find_array(generated.buffer_arrays[b]);
            const std::vector<double> device = codegen::decode_buffer(array, run.buffers[b]);
            const std::vector<double>& expected = reference.buffers.at(array.decl.name);
            ASSERT_EQ(device.size(), expected.size());
            for (std::size_t k = 0; k < device.size(); ++k)
                ASSERT_NEAR(device[k], expected[k], 1e-12 * (1 + std::fabs(expected[k])))
                    << array.decl.name << " element " << k;
        }
        for (std::size_t c = 0; c < generated.constant_symbols.size(); ++c)
            EXPECT_EQ(run.constant_symbols.at(c),
                      codegen::initial_buffer_bytes(
                          *schedule.find_array(generated.constant_symbols[c].name)));
    }
}

} // namespace
} // namespace kerncast::runtime
