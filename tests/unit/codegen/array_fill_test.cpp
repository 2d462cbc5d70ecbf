// Array fills of kernel-file runs: the pattern's bytes, its rotation by the alignment offset,
// the request it changes, the solid input of the atomics case study, and the errors.
#include "kerncast/codegen/array_fill.hpp"
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

// Five arrays of different types and spaces; `b` starts 3 elements after an aligned address.
const char* fill_kernel = R"(name: fills
params: {n: 64}
arrays:
  a: {dtype: u8, shape: [n, 4]}
  b: {dtype: i16, shape: [n], offset: 3}
  h: {dtype: f16, shape: [n]}
  w: {dtype: f32, shape: [4], space: constant}
  out: {dtype: f32, shape: [n]}
  s: {dtype: f32, shape: [32], space: shared}
domain: "[n] -> { [i] : 0 <= i < n }"
threads: {x: i}
launch: {block: [32]}
statements:
  - "out[i] = a[i, 0] + b[i] + h[i] + w[0]"
)";

Schedule fill_schedule() {
    const auto spec = kernel::parse_kernel_text(fill_kernel, "fills.yaml");
    return lower_kernel(spec, spec.launch, {{"n", 64}});
}

std::string input_error(const Schedule& schedule, const std::string& fill) {
    try {
        fill_pattern(schedule, parse_array_fill(fill));
    } catch (const Error& e) {
        return e.message();
    }
    ADD_FAILURE() << fill << " was accepted";
    return "";
}

} // namespace

TEST(ArrayFill, ParsesAndPrintsTheForm) {
    EXPECT_EQ(parse_array_fill("image=0,1,2,3"), (ArrayFill{"image", {"0", "1", "2", "3"}}));
    EXPECT_EQ(to_string(parse_array_fill("w=1.5")), "w=1.5");
    for (const char* bad : {"image", "=1", "image=", "image=1,,2", "image=1,"})
        EXPECT_THROW(parse_array_fill(bad), Error) << bad;
}

TEST(ArrayFill, PatternsAreTheValuesInTheElementType) {
    const Schedule schedule = fill_schedule();
    EXPECT_EQ(fill_pattern(schedule, parse_array_fill("a=0,1,2,3")),
              (std::vector<std::uint8_t>{0, 1, 2, 3}));
    EXPECT_EQ(fill_pattern(schedule, parse_array_fill("w=1.5,-2")),
              (std::vector<std::uint8_t>{0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0}));
    EXPECT_EQ(fill_pattern(schedule, parse_array_fill("h=1,65504")),
              (std::vector<std::uint8_t>{0x00, 0x3c, 0xff, 0x7b}));
}

TEST(ArrayFill, TheOffsetRotatesThePeriodSoTheFirstElementStartsIt) {
    // b's element e lies at buffer element e + 3: with values 10, 20 (i16), buffer element 3
    // holds 10, so buffer elements 0, 1, 2, 3 hold 20, 10, 20, 10.
    const auto pattern = fill_pattern(fill_schedule(), parse_array_fill("b=10,20"));
    EXPECT_EQ(pattern, (std::vector<std::uint8_t>{20, 0, 10, 0}));
    // A period of 3: buffer element 3 = element 0 -> buffer elements 0..2 hold 1, 2, 3 again.
    EXPECT_EQ(fill_pattern(fill_schedule(), parse_array_fill("b=1,2,3")),
              (std::vector<std::uint8_t>{1, 0, 2, 0, 3, 0}));
    EXPECT_EQ(fill_pattern(fill_schedule(), parse_array_fill("b=5,6,7,8")),
              (std::vector<std::uint8_t>{6, 0, 7, 0, 8, 0, 5, 0}));
}

TEST(ArrayFill, ChangesOnlyTheFilledBufferOfTheRequest) {
    const Schedule schedule = fill_schedule();
    const GeneratedKernel generated = generate_cuda(schedule, {"fills.yaml", "feed"});
    runtime::TimingRequest request = timing_request(generated, "fills.cu", {});
    const runtime::TimingRequest before = request;
    apply_array_fill(schedule, parse_array_fill("a=0,1,2,3"), request);
    apply_array_fill(schedule, parse_array_fill("w=2"), request);
    int changed = 0;
    for (std::size_t k = 0; k < request.arguments.size(); ++k) {
        const auto* buffer = std::get_if<runtime::BufferSpec>(&request.arguments[k]);
        if (buffer == nullptr || buffer->name != "a") {
            EXPECT_EQ(request.arguments[k], before.arguments[k]);
            continue;
        }
        ++changed;
        EXPECT_EQ(buffer->init, runtime::BufferInit::pattern);
        EXPECT_EQ(runtime::to_string(*buffer), "a:u32:64:pattern=00010203"); // 256 B packed
    }
    EXPECT_EQ(changed, 1);
    ASSERT_EQ(request.constant_symbols.size(), 1u); // w is a __constant__ symbol
    EXPECT_EQ(runtime::init_text(request.constant_symbols[0]), "pattern=00000040");
}

TEST(ArrayFill, ErrorsNameTheArrayAndTheProblem) {
    const Schedule schedule = fill_schedule();
    EXPECT_NE(input_error(schedule, "nope=1")
                  .find("no array 'nope' (its global and constant "
                        "arrays: a, b, h, w, out)"),
              std::string::npos);
    EXPECT_NE(input_error(schedule, "s=1").find("'s' is not a global or constant array"),
              std::string::npos);
    EXPECT_NE(input_error(schedule, "a=0,256").find("'256' is not an integer u8 holds (0 to 255)"),
              std::string::npos);
    EXPECT_NE(input_error(schedule, "b=-32769").find("(-32768 to 32767)"), std::string::npos);
    EXPECT_NE(input_error(schedule, "a=x").find("'x' is not an integer u8"), std::string::npos);
    EXPECT_NE(input_error(schedule, "w=1e39").find("beyond the largest f32"), std::string::npos);
    EXPECT_NE(input_error(schedule, "h=70000").find("beyond the largest f16"), std::string::npos);
    EXPECT_NE(input_error(schedule, "w=nan").find("not a finite number"), std::string::npos);
    std::string many = "w=0";
    for (int k = 1; k <= 1024; ++k)
        many += ",0";
    EXPECT_NE(input_error(schedule, many).find("1025 values of 4 bytes exceed a period of 4096"),
              std::string::npos);
}

TEST(ArrayFill, SolidInputHoldsTheInnermostSubscriptOfReadIntegerArrays) {
    const auto histogram =
        kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/histogram.yaml");
    const auto fills =
        solid_input_fills(lower_kernel(histogram, histogram.launch, {{"n", 1024}, {"colors", 1}}));
    // The image only: smem is shared, offsets private.
    ASSERT_EQ(fills.size(), 1u);
    EXPECT_EQ(to_string(fills[0]), "image=0,1,2,3");
    // In fill_kernel a (u8, innermost extent 4) and b (i16, one dimension of 64) are read
    // integer arrays; h, w and out are not integers.
    const auto mixed = solid_input_fills(fill_schedule());
    ASSERT_EQ(mixed.size(), 2u);
    EXPECT_EQ(to_string(mixed[0]), "a=0,1,2,3");
    EXPECT_EQ(mixed[1].values.size(), 64u);
    EXPECT_EQ(mixed[1].values.back(), "63");
}

TEST(ArrayFill, SolidInputRefusesSubscriptsItsTypeCannotHold) {
    std::string text = fill_kernel;
    text.replace(text.find("shape: [n, 4]"), 13, "shape: [4, n]");
    text.replace(text.find("a[i, 0]"), 7, "a[0, i]");
    const auto spec = kernel::parse_kernel_text(text, "fills.yaml");
    try {
        solid_input_fills(lower_kernel(spec, spec.launch, {{"n", 300}}));
        ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("the solid input of 'a' holds its innermost subscript, 0 to "
                                   "299: more than u8 holds"),
                  std::string::npos)
            << e.message();
    }
}
