// Dong & Pai eqs. (1)-(3): interpolation of T(n, e, c) against values worked by hand.
#include "kerncast/error.hpp"
#include "kerncast/models/atomics/service_time.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::atomics {
namespace {

// n = 1, 2, 4; e = 1, 32; T[n][e][c] for c = 0..n (hand values, docs/atomics.md).
AtomicServiceGrid hand_grid() {
    return {"add",
            {1, 2, 4},
            {1, 32},
            {{{10, 20}, {40, 80}},
             {{12, 18, 30}, {50, 70, 110}},
             {{16, 20, 24, 28, 40}, {64, 72, 80, 96, 128}}}};
}

ServiceTime at(double n, double e, double c) {
    return service_time(hand_grid(), ServicePoint{n, e, c});
}

TEST(AtomicServiceTime, IntegralPointsReadTheTable) {
    EXPECT_DOUBLE_EQ(at(2, 32, 1).total_cycles, 70);
    EXPECT_DOUBLE_EQ(at(2, 32, 1).service_cycles, 35); // eq. (3): S = T / n
    EXPECT_DOUBLE_EQ(at(4, 1, 3).total_cycles, 28);
    EXPECT_DOUBLE_EQ(at(4, 1, 3).service_cycles, 7);
    EXPECT_DOUBLE_EQ(at(1, 32, 0).total_cycles, 40);
    EXPECT_DOUBLE_EQ(at(4, 32, 4).total_cycles, 128);
}

TEST(AtomicServiceTime, ZeroLoadIsZero) { // eq. (1)
    EXPECT_DOUBLE_EQ(at(0, 1, 0).total_cycles, 0);
    EXPECT_DOUBLE_EQ(at(0, 1, 0).service_cycles, 0);
}

TEST(AtomicServiceTime, BelowTheSmallestNInterpolatesFromZero) {
    // Between T(0) = 0 and T(1, 1, 0) = 10.
    EXPECT_DOUBLE_EQ(at(0.5, 1, 0).total_cycles, 5);
    EXPECT_DOUBLE_EQ(at(0.5, 1, 0).service_cycles, 10);
    EXPECT_EQ(at(0.5, 1, 0).queued_warps_low, 0);
    EXPECT_EQ(at(0.5, 1, 0).queued_warps_high, 1);
}

TEST(AtomicServiceTime, NonIntegralN) {
    // Halfway between T(2, 1, 0) = 12 and T(4, 1, 0) = 16.
    EXPECT_DOUBLE_EQ(at(3, 1, 0).total_cycles, 14);
    EXPECT_DOUBLE_EQ(at(3, 1, 0).service_cycles, 14.0 / 3.0);
}

TEST(AtomicServiceTime, NonIntegralCMovesAtAFixedCasFraction) {
    // c / n = 0.5: at n = 1 c = 0.5 -> (10 + 20) / 2 = 15; at n = 2 c = 1 -> 18; halfway: 16.5.
    EXPECT_DOUBLE_EQ(at(1.5, 1, 0.75).total_cycles, 16.5);
    EXPECT_DOUBLE_EQ(at(1.5, 1, 0.75).service_cycles, 11);
    // At a sampled n, linear between the integral CAS counts: 50 + 0.2 (70 - 50).
    EXPECT_DOUBLE_EQ(at(2, 32, 0.2).total_cycles, 54);
}

TEST(AtomicServiceTime, NonIntegralE) {
    // e = 16.5 is halfway between 1 and 32: (12 + 50) / 2.
    EXPECT_DOUBLE_EQ(at(2, 16.5, 0).total_cycles, 31);
}

TEST(AtomicServiceTime, AllThreeNonIntegral) {
    // n = 3, e = 16.5, c = 1.5 (c / n = 0.5): n = 2, c = 1: (18 + 70) / 2 = 44;
    // n = 4, c = 2: (24 + 80) / 2 = 52; halfway: 48; S = 16.
    const ServiceTime s = at(3, 16.5, 1.5);
    EXPECT_DOUBLE_EQ(s.total_cycles, 48);
    EXPECT_DOUBLE_EQ(s.service_cycles, 16);
    EXPECT_EQ(s.queued_warps_low, 2);
    EXPECT_EQ(s.queued_warps_high, 4);
    EXPECT_EQ(s.active_threads_low, 1);
    EXPECT_EQ(s.active_threads_high, 32);
}

TEST(AtomicServiceTime, PointsOutsideTheTableAreErrors) {
    try {
        at(5, 1, 0);
        FAIL() << "n beyond the table";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.message(),
                  "queued warps n = 5 is beyond the table's largest sampled n = 4 (operation add)");
    }
    EXPECT_THROW(at(2, 0.5, 0), Error);
    EXPECT_THROW(at(2, 33, 0), Error);
    EXPECT_THROW(at(2, 1, 3), Error);
    EXPECT_THROW(at(-1, 1, 0), Error);
}

TEST(AtomicServiceTime, MachineWithoutTableSaysSo) {
    MachineModel machine;
    machine.identity.id = "bare";
    try {
        service_grid(machine, "add");
        FAIL() << "no table";
    } catch (const Error& error) {
        EXPECT_EQ(error.message(), "machine 'bare' lacks a measured shared-memory atomic "
                                   "service-time table (atomic_service_times)");
    }
    machine.atomic_service_times = AtomicServiceTable{"hand", {hand_grid()}};
    EXPECT_EQ(&service_grid(machine, "add"), &machine.atomic_service_times->operations[0]);
    EXPECT_THROW(service_grid(machine, "popc_inc"), Error);
}

} // namespace
} // namespace kerncast::models::atomics
