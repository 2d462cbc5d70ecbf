// L1 wavefront model (Ernst et al. 2023, sec. 4.2, fig. 4) on hand-made warp address sets and
// on the star stencil, against values worked out by hand.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/l1_wavefronts.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace kerncast;
using namespace kerncast::models;

namespace {

L1BankLayout a100_layout() {
    return l1_bank_layout(resolve_machine("a100-sxm4-40gb"));
}

// A committed l1_wavefronts.py table (lab/measured/...), parsed; empty launches if unreadable.
json_reader::Document measured_wavefronts(const std::string& relative_path) {
    const std::string path = std::string(KERNCAST_SOURCE_DIR) + "/" + relative_path;
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    return json_reader::parse(in ? text.str() : "{\"launches\": []}", path);
}

std::vector<std::int64_t> lanes(std::int64_t stride_bytes, std::int64_t base = 0, int count = 32) {
    std::vector<std::int64_t> addresses;
    for (int lane = 0; lane < count; ++lane)
        addresses.push_back(base + lane * stride_bytes);
    return addresses;
}

TEST(L1Wavefronts, LayoutComesFromTheMachine) {
    const L1BankLayout layout = a100_layout();
    EXPECT_EQ(layout.banks, 32);
    EXPECT_EQ(layout.bank_width_bytes, 4);
    EXPECT_EQ(layout.wavefront_window_bytes, 1024);
    EXPECT_EQ(layout.warp_size, 32);
    EXPECT_EQ(layout.sector_bytes, 32);
}

TEST(L1Wavefronts, PaperFigure4Loads) {
    const L1BankLayout layout = a100_layout();
    // double a = A[threadIdx.x]: one wavefront per half-warp.
    EXPECT_EQ(warp_instruction_cost(lanes(8), 8, layout).wavefronts, 2);
    EXPECT_EQ(warp_instruction_cost(lanes(8), 8, layout).sectors, 8);
    // double b = B[threadIdx.x*2]: two addresses per bank, two wavefronts per half-warp.
    EXPECT_EQ(warp_instruction_cost(lanes(16), 8, layout).wavefronts, 4);
    // double d = D[threadIdx.x*16]: all in one bank, 16 per half-warp ("far apart" too).
    EXPECT_EQ(warp_instruction_cost(lanes(128), 8, layout).wavefronts, 32);
}

TEST(L1Wavefronts, FloatsFillAWholeWarpPerWavefront) {
    const L1BankLayout layout = a100_layout();
    EXPECT_EQ(warp_instruction_cost(lanes(4), 4, layout).wavefronts, 1);
    EXPECT_EQ(warp_instruction_cost(lanes(0), 4, layout).wavefronts, 1); // broadcast
    EXPECT_EQ(warp_instruction_cost(lanes(0), 4, layout).sectors, 1);
}

TEST(L1Wavefronts, MisalignedRowsStillOneWavefrontPerHalfWarp) {
    const L1BankLayout layout = a100_layout();
    EXPECT_EQ(warp_instruction_cost(lanes(8, -8), 8, layout).wavefronts, 2);
    EXPECT_EQ(warp_instruction_cost(lanes(8, -8), 8, layout).sectors, 9);
}

TEST(L1Wavefronts, FarApartAddressesDoNotPair) {
    const L1BankLayout layout = a100_layout();
    // Two lanes in different banks: close -> one wavefront, far -> two.
    const std::vector<std::int64_t> close{0, 8};
    const std::vector<std::int64_t> far{0, 4096 + 8};
    EXPECT_EQ(warp_instruction_cost(close, 8, layout).wavefronts, 1);
    EXPECT_EQ(warp_instruction_cost(far, 8, layout).wavefronts, 2);
    // Two xy-planes of a stencil apart, eight lanes each: one wavefront per plane.
    std::vector<std::int64_t> planes = lanes(8, 0, 8);
    for (auto a : lanes(8, 640 * 512 * 8, 8))
        planes.push_back(a);
    EXPECT_EQ(warp_instruction_cost(planes, 8, layout).wavefronts, 2);
}

TEST(L1Wavefronts, AZeroWindowPairsAnyDistance) {
    L1BankLayout layout = a100_layout();
    layout.wavefront_window_bytes = 0;
    // The far pair of FarApartAddressesDoNotPair shares a wavefront without a distance.
    const std::vector<std::int64_t> far{0, 4096 + 8};
    EXPECT_EQ(warp_instruction_cost(far, 8, layout).wavefronts, 1);
    // A column of a 600-double-wide array: rows alternate bank halves, 8 per unit bank.
    EXPECT_EQ(warp_instruction_cost(lanes(4800), 8, layout).wavefronts, 16);
    // Rows on line boundaries stay in one bank: the distance changes nothing.
    EXPECT_EQ(warp_instruction_cost(lanes(4096), 8, layout).wavefronts, 32);
}

// The wavefronts one warp load costs when its sectors hit L1, measured on an H100 under Nsight
// Compute (lab/research/l1_wavefronts.cu; lab/measured/h100-2026-11-26b/l1-wavefronts): lane
// l reads element l % width of row l / width. Every hit pattern lies within 0.35 wavefronts of
// the bank rule without a pairing distance; with the V100's 1024 B many do not.
TEST(L1Wavefronts, HopperHitsFollowTheBankRuleWithoutADistance) {
    const auto document =
        measured_wavefronts("lab/measured/h100-2026-11-26b/l1-wavefronts/wavefronts.json");
    L1BankLayout no_distance = l1_bank_layout(resolve_machine("h100-sxm5-80gb"));
    no_distance.wavefront_window_bytes = 0;
    L1BankLayout v100_distance = no_distance;
    v100_distance.wavefront_window_bytes = 1024;
    int hits = 0, off_without = 0, off_with_1024 = 0;
    for (const auto& launch : document.value.at("launches")) {
        if (launch.at("mode") != "hit")
            continue;
        ++hits;
        const int width = launch.at("width"), element = launch.at("element_bytes");
        const std::int64_t row = launch.at("row_bytes"), shift = launch.at("shift_bytes");
        std::vector<std::int64_t> addresses;
        for (int lane = 0; lane < 32; ++lane)
            addresses.push_back(lane / width * row + lane % width * element + shift);
        const double measured = launch.at("wavefronts_per_instruction");
        const auto without = warp_instruction_cost(addresses, element, no_distance).wavefronts;
        const auto with_1024 = warp_instruction_cost(addresses, element, v100_distance).wavefronts;
        off_without += std::abs(measured - static_cast<double>(without)) > 0.35;
        off_with_1024 += std::abs(measured - static_cast<double>(with_1024)) > 0.35;
    }
    EXPECT_EQ(hits, 396);
    EXPECT_EQ(off_without, 0);
    EXPECT_EQ(off_with_1024, 184);
}

TEST(L1Wavefronts, HopperLoadsStraddlingLinesCostWhatAlignedOnesCost) {
    // A warp reading one row of 32 contiguous values from `shift` bytes past a line touches one
    // line more than from the line's start for every shift that is not a whole line (4 B
    // values: two lines instead of one; 8 B: three instead of two; 16 B: five instead of four).
    // Measured on the H100 and the H200 (lab/research/l1_wavefronts.cu under Nsight Compute),
    // hitting and missing L1 alike, 4 and 8 B values cost the bank rule's wavefronts whatever
    // the shift, as kerncast counts them: the extra line adds no wavefront. 16 B values 16..96 B
    // past a line cost one wavefront more when they miss, which the bank rule (one pass of the
    // miss rule) does not count.
    for (const auto& [gpu, machine] :
         {std::pair{"h100", "h100-sxm5-80gb"}, std::pair{"h200", "h200-sxm-141gb"}}) {
        const auto document = measured_wavefronts(std::string("lab/measured/") + gpu +
                                                  "-2026-11-26b/l1-wavefronts/wavefronts.json");
        const L1BankLayout layout = l1_bank_layout(resolve_machine(machine));
        int straddling = 0, extra_for_16_b = 0;
        for (const auto& launch : document.value.at("launches")) {
            const std::string mode = launch.at("mode");
            if ((mode != "hit" && mode != "miss") || launch.at("width") != 32)
                continue;
            const int element = launch.at("element_bytes");
            const std::int64_t shift = launch.at("shift_bytes");
            std::vector<std::int64_t> addresses;
            for (int lane = 0; lane < 32; ++lane)
                addresses.push_back(lane * element + shift);
            const auto rule = warp_instruction_cost(addresses, element, layout).wavefronts;
            const double measured = launch.at("wavefronts_per_instruction");
            straddling += shift % 128 != 0;
            if (element == 16 && mode == "miss" && shift % 128 != 0) {
                ++extra_for_16_b;
                EXPECT_NEAR(measured, static_cast<double>(rule) + 1, 0.02) << gpu << " " << shift;
            } else {
                EXPECT_NEAR(measured, static_cast<double>(rule), 0.025)
                    << gpu << " " << mode << " " << element << " B from " << shift;
            }
        }
        // Per row stride (3) and mode (2): 8 shifts of 4 B values, 7 of 8 B, 4 of 16 B.
        EXPECT_EQ(straddling, 114) << gpu;
        EXPECT_EQ(extra_for_16_b, 12) << gpu;
    }
}

TEST(L1Wavefronts, EachOfTwoPassesCostsTheBankRuleOfItsLanesPerHalfWarp) {
    L1BankLayout layout = a100_layout();
    layout.wavefront_window_bytes = 0;
    // 32 doubles from byte 64: lanes 0-7 in line 0, 8-23 in line 1, 24-31 in line 2. One pass
    // (all hit or all late): one wavefront per half-warp.
    const auto addresses = lanes(8, 64);
    std::vector<unsigned char> late(32, 0);
    EXPECT_EQ(two_pass_wavefronts(addresses, late, 8, layout), 2);
    std::fill(late.begin(), late.end(), 1);
    EXPECT_EQ(two_pass_wavefronts(addresses, late, 8, layout), 2);
    // Line 0 in L1, lines 1 and 2 not: the first half-warp mixes them and takes two passes.
    std::fill(late.begin() + 8, late.end(), 1);
    std::fill(late.begin(), late.begin() + 8, 0);
    EXPECT_EQ(two_pass_wavefronts(addresses, late, 8, layout), 3);
    // Split at the half-warp boundary: each half is one pass.
    std::fill(late.begin(), late.begin() + 16, 0);
    EXPECT_EQ(two_pass_wavefronts(addresses, late, 8, layout), 2);
}

// Warps whose lanes below `hot_lanes` read lines that hit L1 and the others lines that miss,
// measured on an H100 (lab/research/l1_wavefronts.cu, `partial` family; read wavefronts,
// lab/measured/h100-2026-11-26c/l1-wavefront-parts): 32-wide aligned rows cost the two passes
// exactly (3, 2, 3 where the bank rule alone says 2), and no pattern costs less than the two
// passes; what narrow and shifted rows cost beyond them is their own miss price, not modelled.
TEST(L1Wavefronts, HopperPartlyHittingWarpsTakeTwoPasses) {
    const auto document =
        measured_wavefronts("lab/measured/h100-2026-11-26c/l1-wavefront-parts/wavefronts.json");
    L1BankLayout layout = l1_bank_layout(resolve_machine("h100-sxm5-80gb"));
    layout.wavefront_window_bytes = 0;
    int patterns = 0, aligned_32_wide = 0, below = 0;
    for (const auto& launch : document.value.at("launches")) {
        if (launch.at("mode") != "partial")
            continue;
        ++patterns;
        const int width = launch.at("width"), element = launch.at("element_bytes");
        const int hot = launch.at("hot_lanes");
        const std::int64_t row = launch.at("row_bytes"), shift = launch.at("shift_bytes");
        std::vector<std::int64_t> addresses;
        std::vector<unsigned char> late;
        for (int lane = 0; lane < 32; ++lane) {
            addresses.push_back(lane / width * row + lane % width * element + shift);
            late.push_back(lane >= hot);
        }
        const double reads = launch.at("read_wavefronts_per_instruction");
        const auto passes = two_pass_wavefronts(addresses, late, element, layout);
        below += reads < static_cast<double>(passes) - 0.05;
        if (width == 32 && shift == 0) {
            ++aligned_32_wide;
            EXPECT_NEAR(reads, static_cast<double>(passes), 0.05) << "hot lanes " << hot;
            EXPECT_EQ(warp_instruction_cost(addresses, element, layout).wavefronts, 2);
        }
    }
    EXPECT_EQ(patterns, 24);
    EXPECT_EQ(aligned_32_wide, 3);
    EXPECT_EQ(below, 0);
}

TEST(L1Wavefronts, InvariantUnderLanePermutationInsideAGroupAndLineShifts) {
    const L1BankLayout layout = a100_layout();
    std::mt19937 random(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::int64_t> addresses;
        for (int lane = 0; lane < 16; ++lane)
            addresses.push_back(8 * std::uniform_int_distribution<std::int64_t>(0, 300)(random));
        const auto cost = warp_instruction_cost(addresses, 8, layout);
        auto shuffled = addresses;
        std::shuffle(shuffled.begin(), shuffled.end(), random);
        EXPECT_EQ(warp_instruction_cost(shuffled, 8, layout).wavefronts, cost.wavefronts);
        for (auto& a : shuffled)
            a += 128 * 1000;
        EXPECT_EQ(warp_instruction_cost(shuffled, 8, layout).wavefronts, cost.wavefronts);
        // Never fewer wavefronts than the most-used bank, never more than distinct values.
        std::vector<std::int64_t> distinct = addresses;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        std::array<int, 16> per_bank{};
        for (auto a : distinct)
            ++per_bank[static_cast<size_t>((a / 8) % 16)];
        EXPECT_GE(cost.wavefronts, *std::max_element(per_bank.begin(), per_bank.end()));
        EXPECT_LE(cost.wavefronts, static_cast<std::int64_t>(distinct.size()));
    }
}

analysis::KernelAnalysis star(const kernel::LaunchConfig& launch) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star3d_r4.yaml");
    return analysis::analyze(spec, launch);
}

double star_cycles(const kernel::LaunchConfig& launch) {
    const auto analysis = star(launch);
    const auto params = analysis::bind(analysis).values();
    std::vector<double> once(analysis.accesses.size(), 1.0);
    return estimate_l1(analysis, params, a100_layout(), once).cycles_per_point;
}

TEST(L1Wavefronts, StarStencilWideBlocks) {
    // 25 loads + 1 store, each one wavefront per half-warp: 26 * 2 / 32 cycles per point.
    EXPECT_DOUBLE_EQ(star_cycles({{32, 4, 4}, {1, 1, 1}}), 26.0 * 2 / 32);
}

TEST(L1Wavefronts, FoldingReusesLoadsFromRegisters) {
    // Fold z=2: the z column z-4..z+5 is loaded once (10), plus 16 x/y neighbours per point,
    // plus 2 stores: 44 instructions per 64 points, 2 wavefronts each.
    EXPECT_DOUBLE_EQ(star_cycles({{32, 4, 4}, {1, 1, 2}}), 44.0 * 2 / 64);
}

TEST(L1Wavefronts, NarrowBlocksCostMore) {
    // x = 1: a half-warp spans 16 different y rows 5 KiB apart: 16 wavefronts per half-warp.
    EXPECT_DOUBLE_EQ(star_cycles({{1, 32, 1}, {1, 1, 1}}), 26.0 * 32 / 32);
    EXPECT_GT(star_cycles({{4, 8, 1}, {1, 1, 1}}), star_cycles({{16, 2, 1}, {1, 1, 1}}));
}

} // namespace

TEST(L1Wavefronts, AxisCoefficientsAndLaneAddressesOfAFoldedStar) {
    // src[z, y, x + 1] of the published range-2 star (600 x 600 x 512 doubles): 8 B per x,
    // 4800 B per y, 2 880 000 B per z; blocks of 32 x 4 x 8 folded twice in z.
    const auto spec = kernel::load_kernel_file(
        std::string(KERNCAST_SOURCE_DIR) + "/data/published/v100-warpspeed/kernels/star3d_r2.yaml");
    const auto analysis = analysis::analyze(spec, kernel::LaunchConfig{{32, 4, 8}, {1, 1, 2}});
    const auto params = analysis::bind(analysis, {}).values();
    const analysis::AccessInfo* access = nullptr;
    for (const auto& a : analysis.accesses)
        if (a.text == "src[z, y, x + 1]")
            access = &a;
    ASSERT_NE(access, nullptr);
    const analysis::ByteAddress address = analysis::byte_address(analysis, *access, params);
    const AxisCoefficients axes = axis_coefficients(analysis, address);
    EXPECT_EQ(axes.thread, (std::array<std::int64_t, 3>{8, 4800, 2 * 2880000}));
    EXPECT_EQ(axes.fold, (std::array<std::int64_t, 3>{0, 0, 2880000}));
    EXPECT_EQ(axes.block, (std::array<std::int64_t, 3>{32 * 8, 4 * 4800, 16 * 2880000}));
    // Thread 32 * 4 * 1 + 32 * 2 + 5 is threadIdx (5, 2, 1).
    EXPECT_EQ(lane_address(axes, {32, 4, 8}, 128 + 64 + 5, 100),
              100 + 5 * 8 + 2 * 4800 + 1 * 2 * 2880000);
}

TEST(L1Wavefronts, ThreadOffsetsAreEachThreadsAddressLessTheConstant) {
    // Block 4x3x2, coefficients 4 B along x, 64 along y, 1000 along z: thread t sits at
    // (t % 4, t / 4 % 3, t / 12), by hand for three threads and by lane_address for all.
    const kernel::Dim3 block{4, 3, 2};
    const std::array<std::int64_t, 3> thread{4, 64, 1000};
    const std::vector<std::int64_t> offsets = models::thread_offsets(thread, block);
    ASSERT_EQ(offsets.size(), 24u);
    EXPECT_EQ(offsets[0], 0);
    EXPECT_EQ(offsets[7], 3 * 4 + 1 * 64);
    EXPECT_EQ(offsets[23], 3 * 4 + 2 * 64 + 1000);
    const models::AxisCoefficients axes{thread, {7, 0, 0}, {0, 9, 0}};
    for (std::int64_t t = 0; t < 24; ++t)
        EXPECT_EQ(models::lane_address(axes, block, t, 555), 555 + offsets[static_cast<size_t>(t)]);
}
