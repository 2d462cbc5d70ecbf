// The ncu command line, PATH lookup and counter collection run against a stand-in ncu
// script (no GPU, no ncu needed).
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

const std::string raw_sample = std::string(KERNCAST_TEST_DATA_DIR) + "/data/ncu_raw_saxpy.csv";

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
