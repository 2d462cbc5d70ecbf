#include "kerncast/machine/machine_model.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

namespace {

MemoryLevel level(const std::string& name, const std::string& shared_by) {
    MemoryLevel result;
    result.name = name;
    result.shared_by = shared_by;
    return result;
}

} // namespace

TEST(MachineModel, LevelFindsHierarchyAndSpecialMemories) {
    MachineModel machine;
    machine.memory = {level("l1", "sm"), level("l2", "gpu"), level("dram", "gpu")};
    machine.special_memories = {level("texture", "sm")};
    ASSERT_NE(machine.level("l2"), nullptr);
    EXPECT_EQ(machine.level("l2"), &machine.memory[1]);
    EXPECT_EQ(machine.level("texture"), &machine.special_memories[0]);
    EXPECT_EQ(machine.level("l3"), nullptr);
    EXPECT_EQ(machine.level(""), nullptr);
}

TEST(MachineModel, EqualityComparesValuesAndSources) {
    MachineModel a;
    a.compute.sm_count = Sourced<int>{80, "x"};
    MachineModel b = a;
    EXPECT_EQ(a, b);
    b.compute.sm_count->source = "y";
    EXPECT_NE(a, b);
}
