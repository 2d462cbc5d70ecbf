// The atomic-unit views (atomics_view.hpp) arrange a forecast's numbers without computing: a
// hand-made forecast shows up cell for cell, the c column is n^ N_c / N (Dong & Pai Table 2),
// and columns that need the service-time table or the kernel's cycles stay blank without them.
#include "../../view_test_support.hpp"
#include "kerncast/models/atomics/atomics_view.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace kerncast::models::atomics {
namespace {

using kerncast::test::column;
using kerncast::test::has_note;

AtomicForecast hand_made_forecast() {
    AtomicForecast f;
    f.kernel = "histogram";
    f.distribution = "solid";
    f.operation = "add";
    f.operation_reason = "a returning fetch-and-op (ATOMS.ADD and kin)";
    f.threads_per_block = 256;
    f.thread_blocks = 1024;
    f.shared_memory_per_block_bytes = 3072;
    f.occupancy.active_blocks_per_sm = 8;
    f.sm_count = 132;
    f.sms_used = 132;
    f.resident_warps = 64;
    AtomicAccessForecast access;
    access.statement = 2;
    access.text = "hist[k]";
    access.operation = "atomic:add";
    access.dtype = "u32";
    access.warp_instructions = 30000;
    access.active_threads = 32;
    f.accesses.push_back(access);
    f.jobs = 30000;
    f.cas_jobs = 6000;
    f.notes.push_back("a forecast note");
    f.input.operation = "add";
    f.input.active_threads = 32;
    f.input.sms.push_back(
        SmAtomicCounts{"average SM (132 SMs with blocks)", 24000.0 / 132, 6000.0 / 132, 64, 0});
    return f;
}

TEST(AtomicsView, ForecastShowsLaunchAccessesAndTheAverageSm) {
    const AtomicForecast f = hand_made_forecast();
    const report::Document doc = forecast_view(f, std::nullopt, "h100", "table: none");
    EXPECT_EQ(doc.schema, "kerncast.atomics/1");
    EXPECT_EQ(doc.title,
              "Shared-memory atomic forecast (Dong & Pai): histogram on h100, solid input");

    const auto& launch = doc.table_at("launch");
    ASSERT_EQ(launch.rows.size(), 8u);
    EXPECT_EQ(std::get<std::string>(launch.rows[2][0]), "shared_memory_per_block");
    EXPECT_DOUBLE_EQ(std::get<double>(launch.rows[2][1]), 3072.0);
    EXPECT_DOUBLE_EQ(std::get<double>(launch.rows[7][1]), 6000.0); // cas_jobs

    const auto& accesses = doc.table_at("accesses");
    ASSERT_EQ(accesses.rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(accesses.rows[0][column(accesses, "access")]), "hist[k]");
    EXPECT_DOUBLE_EQ(std::get<double>(accesses.rows[0][column(accesses, "warp_instructions")]),
                     30000.0);

    const auto& u = doc.table_at("utilization");
    ASSERT_EQ(u.rows.size(), 1u);
    const auto& row = u.rows[0];
    EXPECT_NEAR(std::get<double>(row[column(u, "jobs")]), 30000.0 / 132, 1e-9);
    // c = n^ N_c / N = 64 * 6000 / 30000.
    EXPECT_NEAR(std::get<double>(row[column(u, "queued_cas")]), 12.8, 1e-12);
    for (const char* blank :
         {"total_cycles", "service_cycles", "busy_cycles", "kernel_cycles", "utilization"})
        EXPECT_TRUE(std::holds_alternative<std::monostate>(row[column(u, blank)])) << blank;

    EXPECT_TRUE(has_note(doc, "input: solid image"));
    EXPECT_TRUE(has_note(doc, "operation add: a returning fetch-and-op"));
    EXPECT_TRUE(has_note(doc, "U needs the kernel's active cycles"));
    EXPECT_TRUE(has_note(doc, "a forecast note"));
    EXPECT_EQ(doc.notes.back(), "table: none");
}

TEST(AtomicsView, ForecastWithUtilizationFillsServiceAndBusyCycles) {
    AtomicForecast f = hand_made_forecast();
    f.input.sms.front().active_cycles = 1e6;
    AtomicUtilization utilization;
    SmUtilization sm;
    sm.service.total_cycles = 900;
    sm.service.service_cycles = 14.0625;
    sm.busy_cycles = 3196.0;
    sm.utilization = 0.003196;
    utilization.sms.push_back(sm);
    const report::Document doc = forecast_view(f, utilization, "h100", "table");
    const auto& u = doc.table_at("utilization");
    const auto& row = u.rows[0];
    EXPECT_DOUBLE_EQ(std::get<double>(row[column(u, "total_cycles")]), 900.0);
    EXPECT_DOUBLE_EQ(std::get<double>(row[column(u, "service_cycles")]), 14.0625);
    EXPECT_DOUBLE_EQ(std::get<double>(row[column(u, "busy_cycles")]), 3196.0);
    EXPECT_DOUBLE_EQ(std::get<double>(row[column(u, "kernel_cycles")]), 1e6);
    EXPECT_DOUBLE_EQ(std::get<double>(row[column(u, "utilization")]), 0.003196);
    EXPECT_FALSE(has_note(doc, "U needs the kernel's active cycles"));
}

TEST(AtomicsView, SweepHasOneRowPerValueAndChartsOnlyWhatIsKnown) {
    std::vector<SweepForecast> sweep;
    for (std::int64_t value : {16, 4096}) {
        SweepForecast entry;
        entry.value = value;
        entry.forecast = hand_made_forecast();
        sweep.push_back(entry);
    }
    const report::Document doc = forecast_sweep_view("n", sweep, "h100", "table: none");
    const auto& t = doc.table_at("sweep");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_EQ(std::get<std::int64_t>(t.rows[1][0]), 4096);
    // No table: only the N chart, on a log axis (the values span 256x).
    ASSERT_EQ(doc.charts.size(), 1u);
    EXPECT_EQ(doc.charts[0].key, "jobs");
    EXPECT_TRUE(doc.charts[0].x_axis.logarithmic);
    EXPECT_TRUE(has_note(doc, "B and U need the machine's measured service-time table"));
}

TEST(AtomicsView, ServiceTableGivesTAndSPerPoint) {
    ServiceRecord record;
    record.device = "NVIDIA H100";
    record.cc_major = 9;
    record.sm_count = 132;
    record.repetitions = 5;
    record.method = "one block per SM";
    AtomicServiceTable table;
    AtomicServiceGrid grid;
    grid.operation = "add";
    grid.queued_warps = {1, 4};
    grid.active_threads = {1};
    grid.total_cycles = {{{10.0, 12.0}}, {{40.0, 41.0, 42.0, 44.0, 48.0}}};
    table.operations.push_back(grid);
    const report::Document doc = service_table_view(record, table);
    const auto& t = doc.table_at("service_times");
    ASSERT_EQ(t.rows.size(), 2u);
    EXPECT_DOUBLE_EQ(std::get<double>(t.rows[1][column(t, "total_cycles_all_cas")]), 48.0);
    EXPECT_DOUBLE_EQ(std::get<double>(t.rows[1][column(t, "service_cycles_no_cas")]), 10.0);
    EXPECT_DOUBLE_EQ(std::get<double>(t.rows[1][column(t, "service_cycles_all_cas")]), 12.0);
    EXPECT_TRUE(has_note(doc, "method: one block per SM"));
}

} // namespace
} // namespace kerncast::models::atomics
