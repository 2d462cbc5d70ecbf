#include "kerncast/runtime/measurement_builder.hpp"
#include "kerncast/runtime/run_view.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kerncast::runtime {
namespace {

TimingRequest saxpy_request() {
    TimingRequest request;
    request.kernel_name = "saxpy";
    request.grid = {4096, 1, 1};
    request.block = {256, 1, 1};
    request.arguments = {parse_scalar_argument("n:i32:1048576"), parse_scalar_argument("a:f32:2.5"),
                         parse_scalar_argument("huge:u64:18446744073709551615"),
                         parse_buffer_spec("x:f32:1048576"),
                         parse_buffer_spec("out:f32:1048576:zero")};
    request.constant_symbols = {parse_constant_spec("weights:f16:25")};
    request.options.warmup = 2;
    request.options.repetitions = 4;
    request.options.l2_flush = true;
    return request;
}

TimedRun fake_run() {
    TimedRun run;
    run.device.name = "NVIDIA H100 80GB HBM3";
    run.device.cc_major = 9;
    run.device.sm_count = 132;
    run.device.sm_clock_start_mhz = 1980;
    run.device.sm_clock_end_mhz = 1965;
    run.times_s = {4e-6, 2e-6, 3e-6, 5e-6};
    run.l2_flush_bytes = 104857600;
    return run;
}

TEST(MeasurementBuilder, FillsTheRecordFromRequestAndRun) {
    RunContext context;
    context.kernel_file = "saxpy.cu";
    context.kernel_file_sha256 = std::string(64, 'a');
    context.source_sha256 = std::string(64, 'b');
    context.command_line = {"kerncast", "run"};
    context.date_utc = "2026-11-21T13:02:08Z";
    context.bytes_moved = 7000000;
    const Measurement m = make_measurement(saxpy_request(), fake_run(), context);
    EXPECT_EQ(m.kernel.name, "saxpy");
    EXPECT_EQ(m.kernel.file_sha256, std::string(64, 'a'));
    EXPECT_EQ(m.kernel.source_sha256, std::string(64, 'b'));
    EXPECT_EQ(std::get<std::int64_t>(m.kernel.parameters.at("n")), 1048576);
    EXPECT_DOUBLE_EQ(std::get<double>(m.kernel.parameters.at("a")), 2.5);
    EXPECT_DOUBLE_EQ(std::get<double>(m.kernel.parameters.at("huge")), 18446744073709551615.0);
    ASSERT_EQ(m.kernel.buffers.size(), 2u);
    EXPECT_EQ(m.kernel.buffers[1], (BufferRecord{"out", "f32", 1048576, "zero"}));
    ASSERT_EQ(m.kernel.constants.size(), 1u);
    EXPECT_EQ(m.kernel.constants[0], (BufferRecord{"weights", "f16", 25, "hash"}));
    EXPECT_EQ(m.kernel.launch.grid, (kernel::Dim3{4096, 1, 1}));
    EXPECT_EQ(m.method->warmup_count, 2);
    EXPECT_EQ(m.method->repetitions, 4);
    EXPECT_TRUE(m.method->l2_flush);
    EXPECT_EQ(*m.method->l2_flush_bytes, 104857600);
    EXPECT_DOUBLE_EQ(m.results.median_s, 3.5e-6);
    EXPECT_DOUBLE_EQ(m.results.min_s, 2e-6);
    EXPECT_DOUBLE_EQ(m.results.max_s, 5e-6);
    EXPECT_DOUBLE_EQ(m.results.mean_s, 3.5e-6);
    EXPECT_EQ(m.kerncast_version, KERNCAST_VERSION);
    // 7 MB in the median 3.5 us
    EXPECT_DOUBLE_EQ(m.results.throughput.at("effective_bandwidth").value, 2e12);
    EXPECT_EQ(m.results.throughput.at("effective_bandwidth").unit, "B/s");
    // The record it builds is one the strict reader accepts, unchanged.
    EXPECT_EQ(parse_measurement_json(measurement_to_json(m).dump(), "built"), m);
}

TEST(RunView, SummaryAndRepetitions) {
    RunContext context;
    context.kernel_file_sha256 = std::string(64, 'b');
    context.date_utc = "2026-11-21T13:02:08Z";
    Measurement m = make_measurement(saxpy_request(), fake_run(), context);
    m.counters["dram__bytes_read.sum"] = {8388608, "byte"};
    const report::Document doc = run_view(m);
    EXPECT_EQ(doc.schema, "kerncast.run/1");
    ASSERT_EQ(doc.tables.size(), 3u);
    const auto& summary = doc.tables[0];
    ASSERT_EQ(summary.rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(summary.rows[0][2]), "4096x1x1");
    EXPECT_DOUBLE_EQ(std::get<double>(summary.rows[0][4]), 3.5); // median in us
    EXPECT_DOUBLE_EQ(std::get<double>(summary.rows[0][9]), 1980);
    EXPECT_EQ(doc.tables[1].rows.size(), 4u);
    EXPECT_DOUBLE_EQ(std::get<double>(doc.tables[1].rows[1][1]), 2.0);
    EXPECT_EQ(doc.tables[2].key, "counters");
    EXPECT_NE(summary.title.find("L2 flushed"), std::string::npos);
}

} // namespace
} // namespace kerncast::runtime
