// The report of one measurement record (`kerncast run`), from the sample record.
#include "kerncast/runtime/measurement.hpp"
#include "kerncast/runtime/run_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::runtime;

namespace {

const std::string sample_path = std::string(KERNCAST_TEST_DATA_DIR) + "/data/saxpy_record.json";

} // namespace

TEST(RunView, SummaryInMicrosecondsWithTheLaunch) {
    const report::Document doc = run_view(load_measurement_file(sample_path));
    EXPECT_EQ(doc.schema, "kerncast.run/1");
    EXPECT_EQ(doc.title, "Kernel run: saxpy");
    const auto& summary = doc.table_at("summary");
    EXPECT_EQ(summary.title,
              "Timing (3 repetitions after 3 warm-up launches, CUDA events, L2 flushed between "
              "repetitions)");
    ASSERT_EQ(summary.rows.size(), 1u);
    const auto& row = summary.rows[0];
    EXPECT_EQ(std::get<std::string>(row[0]), "saxpy");
    EXPECT_EQ(std::get<std::string>(row[1]), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(std::get<std::string>(row[2]), "4096x1x1");
    EXPECT_EQ(std::get<std::string>(row[3]), "256x1x1");
    EXPECT_DOUBLE_EQ(std::get<double>(row[4]), 11.0); // median 1.1e-5 s
    EXPECT_DOUBLE_EQ(std::get<double>(row[5]), 10.0);
    EXPECT_DOUBLE_EQ(std::get<double>(row[6]), 12.0);
    EXPECT_DOUBLE_EQ(std::get<double>(row[8]), 1.0); // stddev 1e-6 s
    EXPECT_DOUBLE_EQ(std::get<double>(row[9]), 1980.0);
    EXPECT_DOUBLE_EQ(std::get<double>(row[10]), 1755.0);
}

TEST(RunView, OneRowPerRepetitionAndTheNamedValues) {
    Measurement m = load_measurement_file(sample_path);
    const report::Document doc = run_view(m);
    const auto& repetitions = doc.table_at("repetitions");
    ASSERT_EQ(repetitions.rows.size(), m.results.times_s.size());
    EXPECT_DOUBLE_EQ(std::get<double>(repetitions.rows[1][1]), 12.0);
    EXPECT_EQ(doc.table_at("throughput").rows.size(), 1u);
    const auto& counters = doc.table_at("counters");
    ASSERT_EQ(counters.rows.size(), 3u);
    EXPECT_EQ(std::get<std::string>(counters.rows[0][0]), "dram__bytes_read.sum");
    EXPECT_EQ(std::get<std::string>(counters.rows[0][2]), "byte");
    // Without counters or throughput the tables are left out, not printed empty.
    m.counters.clear();
    m.results.throughput.clear();
    const report::Document bare = run_view(m);
    EXPECT_EQ(bare.find_table("counters"), nullptr);
    EXPECT_EQ(bare.find_table("throughput"), nullptr);
}
