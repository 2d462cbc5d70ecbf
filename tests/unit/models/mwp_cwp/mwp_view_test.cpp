// The MWP-CWP view: schema, tables and that values pass through unchanged.
#include "../test_machines.hpp"
#include "kerncast/models/mwp_cwp/mwp_view.hpp"

#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

// The value cell of the intermediates row `quantity`.
report::Cell value_of(const report::Document& doc, const std::string& quantity) {
    for (const auto& row : doc.table_at("intermediates").rows)
        if (std::get<std::string>(row[0]) == quantity)
            return row[3];
    throw std::runtime_error("no row " + quantity);
}

Workload table2() {
    Workload w;
    w.name = "table2";
    w.threads_per_block = 128;
    w.blocks = 80;
    w.comp_insts = 27;
    w.uncoal_mem_insts = 6;
    w.synch_insts = 6;
    w.uncoal_per_mw = 32;
    w.load_bytes_per_warp = 128;
    w.active_blocks_per_sm = 5;
    return w;
}

TEST(MwpView, SchemaTablesAndValues) {
    const auto doc = mwp_view(predict_mwp_cwp(table2(), test::hk_example()));
    EXPECT_EQ(doc.schema, "kerncast.mwp/1");
    std::vector<std::string> keys;
    for (const auto& t : doc.tables)
        keys.push_back(t.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"workload", "machine", "intermediates", "result"}));
    EXPECT_EQ(std::get<double>(value_of(doc, "mem_l")), 730);
    EXPECT_EQ(std::get<double>(value_of(doc, "departure_delay")), 320);
    EXPECT_EQ(std::get<double>(value_of(doc, "mwp")), 2.28125);
    EXPECT_EQ(std::get<std::int64_t>(value_of(doc, "active_warps_per_sm")), 20);
    EXPECT_EQ(std::get<double>(value_of(doc, "exec_cycles_with_synch")), 50728.1875);
    const auto& result = doc.table_at("result");
    ASSERT_EQ(result.rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(result.rows[0][0]), "(23)");
    EXPECT_EQ(std::get<double>(result.rows[0][2]), 50728.1875);
    for (const auto& t : doc.tables)
        for (const auto& row : t.rows)
            EXPECT_EQ(row.size(), t.columns.size()) << t.key;
}

TEST(MwpView, OccupancyTableAndUnknownMwp) {
    Workload w = table2();
    w.active_blocks_per_sm.reset();
    w.registers_per_thread = 16;
    w.shared_memory_per_block_bytes = 0;
    w.uncoal_mem_insts = 0;
    const auto doc = mwp_view(predict_mwp_cwp(w, test::hk_example()));
    const auto& occupancy = doc.table_at("occupancy");
    ASSERT_EQ(occupancy.rows.size(), 4u);
    // 4 warps x 32 x 16 = 2048 registers -> 4 blocks bind.
    EXPECT_EQ(std::get<std::string>(occupancy.rows[2][0]), "registers");
    EXPECT_EQ(std::get<std::int64_t>(occupancy.rows[2][1]), 4);
    EXPECT_TRUE(std::get<bool>(occupancy.rows[2][2]));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(occupancy.rows[3][1]));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(value_of(doc, "mwp")));
}

} // namespace
} // namespace kerncast::models
