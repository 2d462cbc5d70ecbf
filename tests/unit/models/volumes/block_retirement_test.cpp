// A block's warp slots free when its last warp ends (block_retirement.hpp): the expected
// maximum of n standard normals against closed forms and a brute-force sample, and the busy
// fraction of a block's slots by hand.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/block_retirement.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace kerncast;
using namespace kerncast::models;

TEST(BlockRetirement, ExpectedMaximumMatchesTheClosedForms) {
    // n = 2: 1 / sqrt(pi); n = 3: 3 / (2 sqrt(pi)); n = 4 and 5 from the tables of order
    // statistics (Harter 1961): 1.029375, 1.162964.
    const double root_pi = std::sqrt(std::numbers::pi);
    EXPECT_DOUBLE_EQ(expected_max_of_standard_normals(1), 0.0);
    EXPECT_NEAR(expected_max_of_standard_normals(2), 1 / root_pi, 1e-10);
    EXPECT_NEAR(expected_max_of_standard_normals(3), 1.5 / root_pi, 1e-10);
    EXPECT_NEAR(expected_max_of_standard_normals(4), 1.029375, 1e-6);
    EXPECT_NEAR(expected_max_of_standard_normals(5), 1.162964, 1e-6);
    EXPECT_NEAR(expected_max_of_standard_normals(32), 2.069669, 1e-6);
}

TEST(BlockRetirement, ExpectedMaximumMatchesASample) {
    // Brute force: the mean of the largest of n draws over 200000 blocks (standard error
    // below 0.0015 for these n).
    std::mt19937_64 random(20261127);
    std::normal_distribution<double> normal;
    for (const int n : {2, 8, 16, 32}) {
        double sum = 0;
        constexpr int blocks = 200000;
        for (int b = 0; b < blocks; ++b) {
            double largest = -std::numeric_limits<double>::infinity();
            for (int w = 0; w < n; ++w)
                largest = std::max(largest, normal(random));
            sum += largest;
        }
        EXPECT_NEAR(expected_max_of_standard_normals(n), sum / blocks, 0.006) << n << " warps";
    }
}

TEST(BlockRetirement, ExpectedMaximumGrowsWithTheWarps) {
    double before = 0;
    for (int n = 2; n <= 64; ++n) {
        const double e = expected_max_of_standard_normals(n);
        EXPECT_GT(e, before) << n;
        before = e;
    }
}

TEST(BlockRetirement, BusyFractionIsOneOverTheExpectedLife) {
    // cv = 0.134: a block of 32 warps lives 1 + 0.134 x 2.069668828 warp durations.
    EXPECT_NEAR(busy_warp_slot_fraction(32, 0.134), 1 / (1 + 0.134 * 2.069668828), 1e-9);
    EXPECT_NEAR(busy_warp_slot_fraction(32, 0.134), 0.782880, 1e-6);
    EXPECT_NEAR(busy_warp_slot_fraction(8, 0.134), 0.839798, 1e-6);
    EXPECT_DOUBLE_EQ(busy_warp_slot_fraction(1, 0.134), 1.0); // one warp is its block
    EXPECT_DOUBLE_EQ(busy_warp_slot_fraction(32, 0.0), 1.0);  // warps that end together
    EXPECT_LT(busy_warp_slot_fraction(32, 0.2), busy_warp_slot_fraction(32, 0.1));
}

TEST(BlockRetirement, InvalidArgumentsAreInternalErrors) {
    for (const auto& call : {+[] { return expected_max_of_standard_normals(0); },
                             +[] { return busy_warp_slot_fraction(0, 0.1); },
                             +[] { return busy_warp_slot_fraction(4, -0.1); },
                             +[] { return busy_warp_slot_fraction(4, std::nan("")); }}) {
        try {
            call();
            ADD_FAILURE() << "no error";
        } catch (const Error& error) {
            EXPECT_EQ(error.kind(), ErrorKind::internal);
        }
    }
}

TEST(BlockRetirement, HopperFilesCarryTheirWarpDriftMedians) {
    // compute.warp_duration_cv of the H100 and H200 files is the median over the committed
    // warp_drift runs' 15 configurations of (block life / (fold x instance) - 1) / e_warps
    // (lab/research/warp_duration_cv.py computes the same).
    for (const auto& [machine, run] : {std::pair{"h200-sxm-141gb", "h200-2026-11-27b"},
                                       std::pair{"h100-sxm5-80gb", "h100-2026-11-27b"}}) {
        std::ifstream in(std::string(KERNCAST_SOURCE_DIR) + "/lab/measured/" + run +
                         "/warp-drift/warp_drift.jsonl");
        ASSERT_TRUE(in) << run;
        std::vector<double> cv;
        for (std::string line; std::getline(in, line);) {
            const nlohmann::json r = nlohmann::json::parse(line);
            if (!r.contains("instance_cycles"))
                continue;
            const double duration =
                r.at("fold").get<double>() * r.at("instance_cycles").get<double>();
            cv.push_back((r.at("block_life_cycles").get<double>() / duration - 1) /
                         expected_max_of_standard_normals(r.at("warps").get<int>()));
        }
        ASSERT_EQ(cv.size(), 15u) << run;
        std::nth_element(cv.begin(), cv.begin() + 7, cv.end());
        const MachineModel m = resolve_machine(machine);
        ASSERT_TRUE(m.compute.warp_duration_cv.has_value()) << machine;
        EXPECT_NEAR(m.compute.warp_duration_cv->value, cv[7], 0.0005) << machine;
        EXPECT_EQ(m.sources.at(m.compute.warp_duration_cv->source).kind, SourceKind::measured);
    }
}
