// Nsight Compute metric tables: coverage of the architectures and of the models' metrics,
// the table choice, and --query-metrics output.
#include "kerncast/error.hpp"
#include "kerncast/runtime/ncu_metrics.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kerncast::runtime {
namespace {

namespace fs = std::filesystem;

TEST(NcuMetrics, TablesCoverTheArchitecturesAndTheModelsMetrics) {
    const auto& tables = metric_tables();
    ASSERT_EQ(tables.size(), 6u);
    const std::pair<int, int> expected[] = {{7, 0}, {7, 5}, {8, 0}, {8, 6}, {8, 9}, {9, 0}};
    for (std::size_t i = 0; i < tables.size(); ++i) {
        EXPECT_EQ(tables[i].cc_major, expected[i].first);
        EXPECT_EQ(tables[i].cc_minor, expected[i].second);
        EXPECT_FALSE(tables[i].checked_on_device); // nobody has run --query-metrics yet
        std::set<std::string> names;
        for (const auto& metric : tables[i].metrics)
            names.insert(metric.name);
        EXPECT_EQ(names.size(), tables[i].metrics.size()) << "duplicate metric";
        for (const char* needed :
             {"dram__bytes_read.sum", "dram__bytes_write.sum",
              "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
              "l1tex__data_pipe_lsu_wavefronts.sum",
              "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sm__cycles_active.avg",
              "smsp__inst_executed.sum", "smsp__inst_executed_op_shared_atom.sum",
              "smsp__inst_executed_op_shared_atom_dot_cas.sum",
              "sm__warps_active.avg.pct_of_peak_sustained_active"})
            EXPECT_TRUE(names.count(needed))
                << needed << " missing for CC " << tables[i].cc_major << "." << tables[i].cc_minor;
    }
}

TEST(NcuMetrics, TableChoice) {
    const auto exact = metric_table_for(8, 6);
    EXPECT_TRUE(exact.exact);
    EXPECT_EQ(exact.table->cc_minor, 6);
    const auto newer = metric_table_for(12, 0); // a GPU newer than every table
    EXPECT_FALSE(newer.exact);
    EXPECT_EQ(newer.table->cc_major, 9);
    const auto between = metric_table_for(8, 7); // Jetson Orin: the 8.6 table
    EXPECT_FALSE(between.exact);
    EXPECT_EQ(between.table->cc_minor, 6);
    try {
        metric_table_for(6, 1);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
    }
}

TEST(NcuMetrics, QueryMetricsOutputAndMissingMetrics) {
    const std::string output = "Device NVIDIA H100 80GB HBM3 (GH100)\n"
                               "--------------------------------------------------\n"
                               "Metric Name                     Metric Description\n"
                               "dram__bytes_read                # of bytes read from DRAM\n"
                               "dram__bytes_write               # of bytes written to DRAM\n"
                               "sm__cycles_active.avg           # of cycles with at least one "
                               "warp in flight\n";
    const auto available = parse_query_metrics(output);
    EXPECT_EQ(available, (std::set<std::string>{"dram__bytes_read", "dram__bytes_write",
                                                "sm__cycles_active.avg"}));
    ArchitectureMetrics table;
    table.metrics = {{"dram__bytes_read.sum", "byte", "", ""},
                     {"sm__cycles_active.avg", "cycle", "", ""},
                     {"lts__t_sectors_srcunit_tex_op_read.sum", "sector", "", ""}};
    EXPECT_EQ(missing_metrics(table, available),
              (std::vector<std::string>{"lts__t_sectors_srcunit_tex_op_read.sum"}));
}

} // namespace
} // namespace kerncast::runtime
