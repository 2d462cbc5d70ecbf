// Dong & Pai Table 2: N, c, B = N S and U = B / T for SMs with known answers.
#include "kerncast/error.hpp"
#include "kerncast/models/atomics/utilization.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::atomics {
namespace {

AtomicServiceGrid hand_grid() {
    return {"add",
            {1, 2, 4},
            {1, 32},
            {{{10, 20}, {40, 80}},
             {{12, 18, 30}, {50, 70, 110}},
             {{16, 20, 24, 28, 40}, {64, 72, 80, 96, 128}}}};
}

TEST(AtomicUtilization, BusyTimeAndUtilizationPerSm) {
    AtomicUtilizationInput input;
    input.operation = "add";
    input.active_threads = 32;
    input.sms = {
        {"SM 0", 900, 100, 2, 54000}, {"SM 1", 1000, 0, 2, 100000}, {"SM 2", 0, 0, 3, 5000}};
    const AtomicUtilization u = predict_utilization(hand_grid(), input);
    ASSERT_EQ(u.sms.size(), 3u);
    // SM 0: N = 1000, c = 2 x 100 / 1000 = 0.2, T(2, 32, 0.2) = 54, S = 27, B = 27000.
    EXPECT_DOUBLE_EQ(u.sms[0].jobs, 1000);
    EXPECT_DOUBLE_EQ(u.sms[0].queued_cas, 0.2);
    EXPECT_DOUBLE_EQ(u.sms[0].service.service_cycles, 27);
    EXPECT_DOUBLE_EQ(u.sms[0].busy_cycles, 27000);
    EXPECT_DOUBLE_EQ(*u.sms[0].utilization, 0.5);
    // SM 1: S(2, 32, 0) = 25, B = 25000, U = 0.25.
    EXPECT_DOUBLE_EQ(u.sms[1].busy_cycles, 25000);
    EXPECT_DOUBLE_EQ(*u.sms[1].utilization, 0.25);
    // SM 2: no atomics, an idle unit.
    EXPECT_DOUBLE_EQ(u.sms[2].busy_cycles, 0);
    EXPECT_DOUBLE_EQ(*u.sms[2].utilization, 0);
}

TEST(AtomicUtilization, UnknownKernelTimeLeavesUOpen) {
    AtomicUtilizationInput input{"add", 1, {{"average SM", 100, 0, 4, 0}}};
    const AtomicUtilization u = predict_utilization(hand_grid(), input);
    EXPECT_DOUBLE_EQ(u.sms[0].busy_cycles, 100 * 16.0 / 4.0); // S(4, 1, 0) = 16 / 4
    EXPECT_FALSE(u.sms[0].utilization);
}

TEST(AtomicUtilization, NegativeCountsAreErrors) {
    AtomicUtilizationInput input{"add", 1, {{"SM 7", -1, 0, 4, 10}}};
    try {
        predict_utilization(hand_grid(), input);
        FAIL();
    } catch (const Error& error) {
        EXPECT_EQ(error.message(),
                  "fetch-and-op warp-instructions N_f of SM 7 must be a count >= 0, got -1");
    }
}

TEST(AtomicUtilization, ActiveThreadsPerJob) { // Table 2: e = O / sum N
    EXPECT_DOUBLE_EQ(active_threads_per_job(4224000, 132000), 32);
    EXPECT_DOUBLE_EQ(active_threads_per_job(5, 0), 0);
}

} // namespace
} // namespace kerncast::models::atomics
