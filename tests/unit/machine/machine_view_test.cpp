#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/machine_view.hpp"
#include "machine_fixture.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

TEST(MachinesView, OneRowPerMachineWithL2AndBandwidths) {
    const report::Document doc =
        machines_view({builtin_machine("a100-sxm4-40gb"), builtin_machine("titan-v")});
    EXPECT_EQ(doc.schema, "kerncast.machines/1");
    const auto& t = doc.table_at("machines");
    ASSERT_EQ(t.rows.size(), 2u);
    ASSERT_EQ(t.columns.size(), t.rows[0].size());
    EXPECT_EQ(t.rows[0][0], report::Cell{std::string("a100-sxm4-40gb")});
    EXPECT_EQ(t.rows[0][2], report::Cell{std::string("8.0")});
    EXPECT_EQ(t.rows[0][3], report::Cell{std::int64_t{108}});
    EXPECT_EQ(t.rows[0][4], report::Cell{40.0});   // MiB
    EXPECT_EQ(t.rows[0][5], report::Cell{1555.0}); // peak
    EXPECT_EQ(t.rows[0][6], report::Cell{1400.0}); // sustained (Ernst et al. Table 1)
    EXPECT_EQ(t.rows[1][4], report::Cell{});       // TITAN V: L2 unknown, not zero
    ASSERT_FALSE(doc.notes.empty());
    EXPECT_NE(doc.notes[0].find("titan-v is incomplete"), std::string::npos);
}

TEST(MachineView, EveryValueWithItsSource) {
    const MachineModel a100 = builtin_machine("a100-sxm4-40gb");
    const report::Document doc = machine_view(a100);
    EXPECT_EQ(doc.schema, "kerncast.machine-report/1");
    const auto& compute = doc.table_at("compute");
    bool found = false;
    for (const auto& row : compute.rows) {
        if (row[0] == report::Cell{std::string("sm_count")}) {
            EXPECT_EQ(row[1], report::Cell{std::int64_t{108}});
            EXPECT_EQ(row[3], report::Cell{std::string("a100-whitepaper")});
            found = true;
        }
    }
    EXPECT_TRUE(found);
    const auto& memory = doc.table_at("memory");
    std::size_t l2_rows = 0;
    for (const auto& row : memory.rows)
        l2_rows += row[0] == report::Cell{std::string("l2")};
    EXPECT_EQ(l2_rows, 7u); // shared_by + 6 known values
    const auto& sources = doc.table_at("sources");
    ASSERT_EQ(sources.rows.size(), a100.sources.size());
    EXPECT_EQ(sources.columns.size(), 4u); // no source states an uncertainty: no such columns
    EXPECT_EQ(sources.rows[0][0], report::Cell{a100.sources.begin()->first});
    const auto& banks = doc.table_at("shared_memory_banks");
    ASSERT_GE(banks.rows.size(), 2u);
    EXPECT_EQ(banks.rows[0][0], report::Cell{std::string("banks")});
    EXPECT_EQ(banks.rows[0][1], report::Cell{std::int64_t{32}});
    EXPECT_EQ(banks.rows[1][0], report::Cell{std::string("bank_width_bytes")});
    EXPECT_EQ(banks.rows[1][1], report::Cell{std::int64_t{4}});
    // The A100 knows two of MWP-CWP's four parameters: a table of those two.
    const auto& mwp = doc.table_at("mwp_cwp");
    ASSERT_EQ(mwp.rows.size(), 2u);
    EXPECT_EQ(mwp.rows[0][0], report::Cell{std::string("mem_ld_cycles")});
    EXPECT_EQ(mwp.rows[1][0], report::Cell{std::string("issue_cycles")});
    for (const auto& t : machine_view(builtin_machine("rtx-a6000")).tables)
        EXPECT_NE(t.key, "mwp_cwp"); // no MWP-CWP parameters known: no empty table
}

TEST(MachineView, PaperMachineShowsItsMwpCwpParameters) {
    const report::Document doc = machine_view(builtin_machine("gtx280"));
    const auto& mwp = doc.table_at("mwp_cwp");
    ASSERT_EQ(mwp.rows.size(), 4u);
    EXPECT_EQ(mwp.rows[0][0], report::Cell{std::string("mem_ld_cycles")});
    EXPECT_EQ(mwp.rows[0][1], report::Cell{450.0});
    EXPECT_EQ(mwp.rows[0][3], report::Cell{std::string("hong-kim-t6")});
}

TEST(MachineView, ProbedTopologyFieldsWithSourcesAndUncertainty) {
    const MachineModel m =
        parse_machine_json(machine_fixture("probed_fields.json"), "probed_fields.json");
    const report::Document doc = machine_view(m);
    using report::Cell;
    using Row = std::vector<Cell>;
    auto has_row = [](const report::Table& t, const Row& wanted) {
        for (const auto& row : t.rows)
            if (row == wanted)
                return true;
        return false;
    };
    EXPECT_TRUE(has_row(doc.table_at("compute"), Row{std::string("measured_sm_clock_mhz"), 1410.0,
                                                     std::string("MHz"), std::string("probe")}));
    const auto& memory = doc.table_at("memory");
    EXPECT_TRUE(has_row(memory, Row{std::string("l2"), std::string("latency_far_cycles"), 300.0,
                                    std::string("cycles"), std::string("probe")}));
    EXPECT_TRUE(has_row(memory, Row{std::string("l2"), std::string("store_bandwidth_gbs"), 900.5,
                                    std::string("GB/s"), std::string("probe")}));
    EXPECT_TRUE(has_row(doc.table_at("special_memories"),
                        Row{std::string("texture"), std::string("same_cache_as"), std::string("l1"),
                            std::string(""), std::string("probe")}));

    const auto& sizes = doc.table_at("effective_size_by_carveout");
    ASSERT_EQ(sizes.rows.size(), 2u);
    EXPECT_EQ(sizes.rows[1], (Row{std::string("l1"), std::int64_t{64}, std::int64_t{65536},
                                  std::string("probe")}));

    const auto& tlbs = doc.table_at("tlbs");
    ASSERT_EQ(tlbs.rows.size(), 8u); // shared_by + 3 values, for each of two TLBs
    EXPECT_TRUE(has_row(tlbs, Row{std::string("l2_tlb"), std::string("reach_bytes"),
                                  std::int64_t{8} << 30, std::string("B"), std::string("probe")}));

    const auto& sources = doc.table_at("sources");
    ASSERT_EQ(sources.columns.size(), 7u);
    EXPECT_EQ(sources.columns[4].key, "relative_spread");
    EXPECT_EQ(
        sources.rows[0],
        (Row{std::string("probe"), std::string("measured"), std::string("kerncast probe"),
             std::string("data/probe/toy.json"), 0.012, std::string("high"), std::int64_t{5}}));
    EXPECT_EQ(sources.rows[1][4], Cell{}); // "sheet" states none
}

// One row per point of the dram level's bandwidth by loads in flight, with the curve's source;
// no table for a machine without the curve.
TEST(MachineView, BandwidthByLoadsInFlightIsOneRowPerPoint) {
    MachineModel m =
        parse_machine_json(machine_fixture("probed_fields.json"), "probed_fields.json");
    for (const auto& t : machine_view(m).tables)
        EXPECT_NE(t.key, "bandwidth_by_loads_in_flight");
    m.memory[2].bandwidth_by_loads_in_flight =
        Sourced<std::vector<InFlightBandwidth>>{{{0, 16384, 300.5}, {0.5, 16384, 320}}, "probe"};
    const report::Document doc = machine_view(m);
    const auto& table = doc.table_at("bandwidth_by_loads_in_flight");
    using report::Cell;
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_EQ(table.rows[1],
              (std::vector<Cell>{std::string("dram"), 0.5, 16384.0, 320.0, std::string("probe")}));
}

// One row per point of the dram level's latency under load, with its spread when measured and
// the curve's source; no table for a machine without the curve.
TEST(MachineView, LatencyUnderLoadIsOneRowPerPoint) {
    MachineModel m =
        parse_machine_json(machine_fixture("probed_fields.json"), "probed_fields.json");
    for (const auto& t : machine_view(m).tables)
        EXPECT_NE(t.key, "latency_under_load");
    m.memory[2].latency_under_load =
        Sourced<std::vector<LoadedLatency>>{{{0, 0, 600, 0}, {0.5, 310.5, 950, 120.5}}, "probe"};
    const report::Document doc = machine_view(m);
    const auto& table = doc.table_at("latency_under_load");
    using report::Cell;
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_EQ(table.rows[0][4], Cell{}); // no spread measured
    EXPECT_EQ(table.rows[1], (std::vector<Cell>{std::string("dram"), 0.5, 310.5, 950.0, 120.5,
                                                std::string("probe")}));
}
