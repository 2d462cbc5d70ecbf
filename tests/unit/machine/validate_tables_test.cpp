// The rules of the models' tables: capacity fits and the atomics' service times
// (validate_tables.cpp).
#include "validate_fixture.hpp"

#include <fmt/format.h>

using namespace kerncast;
using namespace kerncast::machine_test;

TEST(ValidateMachine, AtomicServiceTableEntriesAreInRange) {
    MachineModel m = valid_machine();
    m.atomic_service_times =
        AtomicServiceTable{"sheet", {AtomicServiceGrid{"add", {1}, {33}, {{{10.0, 11.0}}}}}};
    auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be between 1 and 32, got 33");
    EXPECT_EQ(error->where().json_path, "/atomic_service_times/operations/0/active_threads/0");

    m.atomic_service_times = AtomicServiceTable{
        "sheet", {AtomicServiceGrid{"add", {2, 1}, {32}, {{{1, 2, 3}}, {{4, 5}}}}}};
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be larger than the value before it (2): the axis ascends");
    EXPECT_EQ(error->where().json_path, "/atomic_service_times/operations/0/queued_warps/1");

    m.atomic_service_times =
        AtomicServiceTable{"sheet", {AtomicServiceGrid{"xor", {1}, {32}, {{{1, 2}}}}}};
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be \"add\" or \"popc_inc\", got \"xor\"");

    m.atomic_service_times =
        AtomicServiceTable{"sheet", {AtomicServiceGrid{"add", {1}, {32}, {{{1, -2}}}}}};
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/atomic_service_times/operations/0/total_cycles/0/0/1");
}

TEST(ValidateMachine, CapacityFitsMustDescribeAFallingHitRate) {
    const CapacityFit good{{1, "sheet"}, {0.02, "sheet"}, {-1.3, "sheet"}};
    MachineModel m = valid_machine();
    m.capacity_fits.z_layer_overlap = good;
    EXPECT_NO_THROW(validate_machine(m, "x"));
    for (const auto& [bad, key] :
         {std::pair{CapacityFit{{0, "sheet"}, {0.02, "sheet"}, {-1.3, "sheet"}}, "a"},
          std::pair{CapacityFit{{1, "sheet"}, {-1, "sheet"}, {-1.3, "sheet"}}, "b"},
          std::pair{CapacityFit{{1, "sheet"}, {1e308, "sheet"}, {-1.3, "sheet"}}, "b"},
          std::pair{CapacityFit{{1, "sheet"}, {0.02, "sheet"}, {1.3, "sheet"}}, "c"}}) {
        m.capacity_fits.z_layer_overlap = bad;
        const auto error = validation_error(m);
        ASSERT_TRUE(error.has_value()) << key;
        EXPECT_EQ(error->where().json_path, std::string("/capacity_fits/z_layer_overlap/") + key);
    }
}
