// Nsight Compute integration, offline: metric tables, the command line, CSV parsing, and the
// counter collection run against a stand-in ncu script (no GPU, no ncu needed).
#include "kerncast/error.hpp"
#include "kerncast/runtime/ncu_command.hpp"
#include "kerncast/runtime/ncu_csv.hpp"
#include "kerncast/runtime/ncu_metrics.hpp"

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
              "l1tex__data_pipe_lsu_wavefronts.sum", "sm__cycles_active.avg",
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

TEST(NcuCommand, CommandLine) {
    NcuProfileRequest request;
    request.ncu_path = "/opt/nsight/ncu";
    request.metrics = {"dram__bytes_read.sum", "sm__cycles_active.avg"};
    request.kernel_symbol = "_Z5scaleIfEvPT_i";
    request.launch_skip = 2;
    request.log_file = "/tmp/ncu.csv";
    request.application = {"/usr/bin/kerncast", "run", "--cuda-source", "my kernel.cu"};
    const auto argv = ncu_command_line(request);
    EXPECT_EQ(shell_join(argv),
              "/opt/nsight/ncu --csv --page raw --print-units base --metrics "
              "dram__bytes_read.sum,sm__cycles_active.avg --kernel-name-base mangled "
              "--kernel-name _Z5scaleIfEvPT_i --launch-skip 2 --launch-count 1 "
              "--target-processes all --log-file /tmp/ncu.csv /usr/bin/kerncast run "
              "--cuda-source 'my kernel.cu'");
}

TEST(NcuCommand, FindOnPath) {
    const fs::path dir = fs::temp_directory_path() / "kerncast_find_on_path";
    fs::create_directories(dir / "a");
    fs::create_directories(dir / "b");
    const fs::path tool = dir / "b" / "fake-ncu";
    std::ofstream(tool) << "#!/bin/sh\n";
    fs::permissions(tool, fs::perms::owner_all);
    const std::string path_list = (dir / "a").string() + "::" + (dir / "b").string();
    EXPECT_EQ(find_on_path("fake-ncu", path_list), tool.string());
    EXPECT_FALSE(find_on_path("no-such-tool", path_list));
    EXPECT_FALSE(find_on_path("fake-ncu", ""));
    fs::remove_all(dir);
}

// A stand-in for ncu: answers --query-metrics, and otherwise writes the raw sample to the
// file after --log-file, as ncu does.
fs::path write_fake_ncu(const fs::path& dir, const std::string& sample_path, bool fail) {
    fs::create_directories(dir);
    const fs::path script = dir / "ncu";
    std::ofstream out(script);
    out << "#!/bin/sh\n"
        << "if [ \"$1\" = --query-metrics ]; then\n"
        << "  printf 'Metric Name  Metric Description\\n"
           "dram__bytes_read  bytes read\\nsm__cycles_active  active cycles\\n'\n"
        << "  exit 0\nfi\n";
    if (fail)
        out << "echo '==ERROR== ERR_NVGPUCTRPERM - no permission to access counters'; exit 1\n";
    out << "while [ $# -gt 0 ]; do\n"
        << "  if [ \"$1\" = --log-file ]; then cp '" << sample_path << "' \"$2\"; fi\n"
        << "  shift\ndone\n";
    out.close();
    fs::permissions(script, fs::perms::owner_all);
    return script;
}

TEST(NcuCommand, CollectsCountersFromAFakeNcu) {
    const fs::path dir = fs::temp_directory_path() / "kerncast_fake_ncu";
    NcuProfileRequest request;
    request.ncu_path = write_fake_ncu(dir, raw_sample, false).string();
    request.metrics = {"dram__bytes_read.sum", "sm__cycles_active.avg",
                       "lts__t_sectors_srcunit_tex_op_read.sum"};
    request.kernel_symbol = "saxpy";
    request.application = {"/bin/true"};
    const CounterCollection collection = collect_counters(request, true);
    fs::remove_all(dir);
    // Only the offered metrics were requested; the raw sample has more columns, all kept.
    EXPECT_DOUBLE_EQ(collection.counters.at("dram__bytes_read.sum").value, 8392704);
    EXPECT_DOUBLE_EQ(collection.counters.at("sm__cycles_active.avg").value, 15234.52);
    ASSERT_EQ(collection.warnings.size(), 1u);
    EXPECT_NE(collection.warnings[0].find("lts__t_sectors_srcunit_tex_op_read.sum"),
              std::string::npos);
    const std::string command = shell_join(collection.command_line);
    EXPECT_NE(command.find("--metrics dram__bytes_read.sum,sm__cycles_active.avg "),
              std::string::npos)
        << command;
}

TEST(NcuCommand, NcuFailureIsUnavailableWithItsOutput) {
    const fs::path dir = fs::temp_directory_path() / "kerncast_fake_ncu_failing";
    NcuProfileRequest request;
    request.ncu_path = write_fake_ncu(dir, raw_sample, true).string();
    request.metrics = {"dram__bytes_read.sum"};
    request.kernel_symbol = "saxpy";
    request.application = {"/bin/true"};
    try {
        collect_counters(request, false);
        fs::remove_all(dir);
        FAIL();
    } catch (const Error& e) {
        fs::remove_all(dir);
        EXPECT_EQ(e.kind(), ErrorKind::unavailable);
        EXPECT_NE(e.message().find("exit status 1"), std::string::npos);
        EXPECT_NE(e.describe().find("ERR_NVGPUCTRPERM"), std::string::npos);
    }
}

TEST(NcuCommand, RunProcessReportsExitCodes) {
    EXPECT_EQ(run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}).exit_code, 3);
    EXPECT_EQ(run_process({"/bin/sh", "-c", "echo out; echo err >&2"}).output, "out\nerr\n");
    EXPECT_EQ(run_process({"/nonexistent/program"}).exit_code, 127);
}

} // namespace
} // namespace kerncast::runtime
