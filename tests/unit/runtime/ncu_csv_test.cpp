// Nsight Compute CSV pages (raw and details) parsed offline from recorded samples.
#include "kerncast/error.hpp"
#include "kerncast/runtime/ncu_csv.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kerncast::runtime {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

const std::string raw_sample = std::string(KERNCAST_TEST_DATA_DIR) + "/data/ncu_raw_saxpy.csv";

TEST(NcuCsv, SplitsQuotedRecords) {
    std::vector<std::string> fields;
    ASSERT_TRUE(split_csv_record(R"("a","b,c","say ""hi""",,plain)", fields));
    EXPECT_EQ(fields, (std::vector<std::string>{"a", "b,c", "say \"hi\"", "", "plain"}));
    EXPECT_FALSE(split_csv_record(R"("a","open,b)", fields));
}

TEST(NcuCsv, ParsesTheRawPage) {
    const auto launches = parse_ncu_csv(read_text(raw_sample), raw_sample);
    ASSERT_EQ(launches.size(), 1u);
    const auto& launch = launches[0];
    EXPECT_EQ(launch.id, "0");
    EXPECT_EQ(launch.kernel_name, "saxpy");
    EXPECT_EQ(launch.block_size, "(256, 1, 1)");
    EXPECT_EQ(launch.grid_size, "(4096, 1, 1)");
    EXPECT_DOUBLE_EQ(launch.metrics.at("dram__bytes_read.sum").value, 8392704);
    EXPECT_EQ(launch.metrics.at("dram__bytes_read.sum").unit, "byte");
    EXPECT_DOUBLE_EQ(launch.metrics.at("lts__t_sectors_srcunit_tex_op_write.sum").value, 131072);
    EXPECT_EQ(launch.metrics.at("lts__t_sectors_srcunit_tex_op_write.sum").unit, "sector");
    EXPECT_DOUBLE_EQ(launch.metrics.at("sm__cycles_active.avg").value, 15234.52);
    EXPECT_DOUBLE_EQ(launch.metrics.at("sm__warps_active.avg.pct_of_peak_sustained_active").value,
                     81.37);
    EXPECT_EQ(launch.metrics.at("l1tex__data_pipe_lsu_wavefronts.sum").unit, "");
    EXPECT_DOUBLE_EQ(launch.metrics.at("smsp__inst_executed_op_shared_atom.sum").value, 0);
    EXPECT_FALSE(launch.metrics.count("smsp__inst_executed_op_shared_atom_dot_cas.sum")); // n/a
    EXPECT_FALSE(launch.metrics.count("Kernel Name")); // identity columns are not metrics
    EXPECT_EQ(launch.metrics.size(), 8u);
}

TEST(NcuCsv, ParsesTheDetailsPageWithScaledUnits) {
    const std::string details =
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
        "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
        "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"9\",\"kerncast\",\"host\",\"k\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\","
        "\"8.0\",\"Command line profiler metrics\",\"dram__bytes_read.sum\",\"Mbyte\",\"8.39\"\n"
        "\"0\",\"9\",\"kerncast\",\"host\",\"k\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\","
        "\"8.0\",\"Command line profiler metrics\",\"sm__cycles_active.avg\",\"Kcycle\",\"1.5\"\n"
        "\"1\",\"9\",\"kerncast\",\"host\",\"k\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\","
        "\"8.0\",\"Command line profiler metrics\",\"sm__cycles_active.avg\",\"cycle\",\"1,499\"\n";
    const auto launches = parse_ncu_csv(details, "details.csv");
    ASSERT_EQ(launches.size(), 2u);
    EXPECT_DOUBLE_EQ(launches[0].metrics.at("dram__bytes_read.sum").value, 8.39e6);
    EXPECT_EQ(launches[0].metrics.at("dram__bytes_read.sum").unit, "byte");
    EXPECT_DOUBLE_EQ(launches[0].metrics.at("sm__cycles_active.avg").value, 1500);
    EXPECT_EQ(launches[0].metrics.at("sm__cycles_active.avg").unit, "cycle");
    EXPECT_DOUBLE_EQ(launches[1].metrics.at("sm__cycles_active.avg").value, 1499);
}

TEST(NcuCsv, ErrorsNameTheLine) {
    try {
        parse_ncu_csv("==PROF== no kernels were profiled\n", "ncu.log");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("no Nsight Compute CSV table"), std::string::npos);
    }
    try {
        parse_ncu_csv("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n"
                      "\"0\",\"k\"\n",
                      "ncu.log");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.where().line, 3);
        EXPECT_NE(e.message().find("2 fields; the header has 3"), std::string::npos);
    }
}

} // namespace
} // namespace kerncast::runtime
