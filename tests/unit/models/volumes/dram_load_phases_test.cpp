// A kernel's DRAM loads by barrier phase (dram_load_phases.hpp): the phases split at every
// barrier, each array's DRAM bytes go where its load sectors are requested, the bytes add up,
// and phases without DRAM loads are left out.
#include "kerncast/models/volumes/dram_load_phases.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::StatementSpec compute() {
    return {};
}

kernel::StatementSpec barrier(std::vector<std::string> within = {}) {
    kernel::StatementSpec s;
    s.kind = kernel::StatementKind::barrier;
    s.within = std::move(within);
    return s;
}

L1AccessCost access(std::string array, int statement, analysis::Direction direction,
                    kernel::MemorySpace space, int instructions, double executions,
                    double sector_bytes) {
    L1AccessCost a;
    a.array = std::move(array);
    a.statement = statement;
    a.direction = direction;
    a.space = space;
    a.instructions_per_thread = instructions;
    a.executions_per_point = executions;
    a.sector_bytes_per_point = sector_bytes;
    return a;
}

ArrayVolumes volumes(std::string array, double dram_load_bytes) {
    ArrayVolumes v;
    v.array = std::move(array);
    v.dram_load_bytes = dram_load_bytes;
    return v;
}

constexpr auto load = analysis::Direction::load;
constexpr auto store = analysis::Direction::store;
constexpr auto global = kernel::MemorySpace::global;
constexpr auto shared = kernel::MemorySpace::shared;

} // namespace

// The staged hotspot (examples/autotuning/bat_hotspot_shared.yaml as analyze stages it): the
// staging statement loads temp, a barrier, then the statement reads the tile and loads power.
TEST(DramLoadPhases, AStagedKernelsTileAndStatementLoadsAreTwoPhases) {
    const std::vector<kernel::StatementSpec> statements{compute(), barrier(), compute()};
    const std::vector<L1AccessCost> accesses{access("temp", 0, load, global, 1, 1.06, 7.97),
                                             access("temp_shared", 0, store, shared, 1, 1.06, 0),
                                             access("temp_shared", 2, load, shared, 1, 1, 0),
                                             access("power", 2, load, global, 1, 1, 5.0),
                                             access("temp_dst", 2, store, global, 1, 1, 4.0)};
    const std::vector<DramLoadPhase> phases =
        dram_load_phases(statements, accesses,
                         {volumes("temp", 4.02), volumes("power", 4.01), volumes("temp_dst", 0)});
    ASSERT_EQ(phases.size(), 2u);
    EXPECT_EQ(phases[0].arrays, std::vector<std::string>{"temp"});
    EXPECT_DOUBLE_EQ(phases[0].loads_per_thread, 1.06);
    EXPECT_DOUBLE_EQ(phases[0].dram_load_bytes_per_point, 4.02);
    EXPECT_EQ(phases[1].arrays, std::vector<std::string>{"power"});
    EXPECT_DOUBLE_EQ(phases[1].loads_per_thread, 1);
    EXPECT_DOUBLE_EQ(phases[1].dram_load_bytes_per_point, 4.01);
}

// Without a barrier all loads are one phase: the kernel's whole loads and DRAM bytes.
TEST(DramLoadPhases, NoBarrierIsOnePhaseOfEveryLoad) {
    const std::vector<L1AccessCost> accesses{access("a", 0, load, global, 2, 1, 16),
                                             access("b", 1, load, global, 1, 0.5, 4),
                                             access("a", 1, load, global, 0, 1, 0)};
    const std::vector<DramLoadPhase> phases =
        dram_load_phases({compute(), compute()}, accesses, {volumes("a", 8), volumes("b", 2.5)});
    ASSERT_EQ(phases.size(), 1u);
    EXPECT_EQ(phases[0].arrays, (std::vector<std::string>{"a", "b"}));
    EXPECT_DOUBLE_EQ(phases[0].loads_per_thread, 2.5);
    EXPECT_DOUBLE_EQ(phases[0].dram_load_bytes_per_point, 10.5);
}

// An array loaded in two phases splits its DRAM bytes by its requested sectors there; a phase
// whose loads all hit (no DRAM bytes) is left out; a stored array's partial-sector reads go to
// the phase that stores it; a barrier in a loop splits as one outside it does.
TEST(DramLoadPhases, BytesFollowTheRequestedSectorsAndAddUp) {
    const std::vector<kernel::StatementSpec> statements{compute(), barrier({"k"}), compute(),
                                                        barrier(), compute()};
    const std::vector<L1AccessCost> accesses{
        access("a", 0, load, global, 1, 1, 12), access("a", 2, load, global, 1, 1, 4),
        access("c", 4, load, global, 1, 1, 4), access("out", 2, store, global, 1, 1, 4)};
    const std::vector<DramLoadPhase> phases = dram_load_phases(
        statements, accesses, {volumes("a", 8), volumes("c", 0), volumes("out", 1)});
    ASSERT_EQ(phases.size(), 2u);
    EXPECT_DOUBLE_EQ(phases[0].dram_load_bytes_per_point, 6);
    EXPECT_DOUBLE_EQ(phases[1].dram_load_bytes_per_point, 2 + 1);
    EXPECT_EQ(phases[1].arrays, std::vector<std::string>{"a"});
    double sum = 0;
    for (const DramLoadPhase& phase : phases)
        sum += phase.dram_load_bytes_per_point;
    EXPECT_DOUBLE_EQ(sum, 8 + 1);
}
