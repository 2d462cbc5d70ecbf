// The predict view arranges the prediction's numbers without computing.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volume_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

TEST(VolumeView, PredictShowsEveryArrayLevelAndLimiter) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star3d_r4.yaml");
    const auto analysis = analysis::analyze(spec);
    const auto p =
        predict_volumes(analysis, analysis::bind(analysis), resolve_machine("a100-sxm4-40gb"));
    const report::Document doc = predict_view(p, spec.name, "a100-sxm4-40gb");
    EXPECT_EQ(doc.schema, "kerncast.predict/1");
    const auto& volumes = doc.table_at("volumes");
    ASSERT_EQ(volumes.rows.size(), p.arrays.size() + 1);
    for (const auto& row : volumes.rows)
        EXPECT_EQ(row.size(), volumes.columns.size());
    size_t dram_load = 0;
    while (dram_load < volumes.columns.size() && volumes.columns[dram_load].key != "dram_load")
        ++dram_load;
    ASSERT_LT(dram_load, volumes.columns.size());
    EXPECT_EQ(std::get<double>(volumes.rows.back()[dram_load]), p.dram_load_bytes);
    const auto& limiters = doc.table_at("limiters");
    // DRAM, L2, L1, FP, launch and DRAM in flight (the A100 files' published gpu-stream table).
    ASSERT_EQ(limiters.rows.size(), 6u);
    int binding = 0;
    for (const auto& row : limiters.rows)
        binding += std::get<bool>(row[4]) ? 1 : 0;
    EXPECT_EQ(binding, 1);
    EXPECT_EQ(std::get<std::string>(limiters.rows.back()[0]), "DRAM in flight");
    // The A100 file gives no block launch rate: the launch row has blocks but no time.
    const auto& launch = limiters.rows[4];
    EXPECT_EQ(std::get<std::string>(launch[0]), "launch");
    EXPECT_DOUBLE_EQ(std::get<double>(launch[1]),
                     static_cast<double>(p.blocks) / static_cast<double>(p.points));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(launch[3]));
    // The limiter chart draws no launch bar either (a bar of 0 would claim no time).
    for (const auto& chart : doc.charts)
        if (chart.key == "limiters") {
            EXPECT_EQ(chart.categories,
                      (std::vector<std::string>{"DRAM", "L2", "L1", "FP", "DRAM in flight"}));
            EXPECT_EQ(chart.series.at(0).y.size(), 5u);
        }
    EXPECT_EQ(std::get<std::string>(doc.table_at("prediction").rows[0][0]),
              limiter_name(p.limiter.binding));
}

TEST(VolumeView, TheLaunchLimiterIsDrawnWhereTheMachineGivesItsRate) {
    const auto spec = kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                               "/examples/kernels/star3d_r4.yaml");
    const auto analysis = analysis::analyze(spec);
    const auto p =
        predict_volumes(analysis, analysis::bind(analysis), resolve_machine("v100-pcie-32gb"));
    const report::Document doc = predict_view(p, spec.name, "v100-pcie-32gb");
    // The launch row and bar come after FP (and before the file's DRAM in flight).
    const auto& launch = doc.table_at("limiters").rows[4];
    EXPECT_EQ(std::get<std::string>(launch[0]), "launch");
    EXPECT_DOUBLE_EQ(std::get<double>(launch[3]), p.limiter.launch_seconds_per_point * 1e12);
    bool drawn = false;
    for (const auto& chart : doc.charts)
        if (chart.key == "limiters") {
            ASSERT_EQ(chart.categories.size(), 6u);
            EXPECT_EQ(chart.categories[4], "launch");
            EXPECT_DOUBLE_EQ(chart.series.at(0).y.at(4), p.limiter.launch_seconds_per_point * 1e12);
            drawn = true;
        }
    EXPECT_TRUE(drawn);
}

} // namespace
