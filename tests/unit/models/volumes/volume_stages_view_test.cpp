// The stage plan as the table of `predict --explain` (volume_view.hpp).
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/volume_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

TEST(VolumeStagesView, OneRowAStageWithItsValuesAndSources) {
    const VolumeStagePlan plan = plan_volume_stages(builtin_machine("a100-sxm4-40gb"));
    const report::Table table = volume_stages_table(plan);
    EXPECT_EQ(table.key, "stages");
    ASSERT_EQ(table.rows.size(), plan.stages.size());
    const auto text = [&](std::size_t row, std::size_t column) {
        return std::get<std::string>(table.rows.at(row).at(column));
    };
    EXPECT_EQ(text(0, 0), "l1_bank_rule");
    EXPECT_EQ(text(0, 2), "yes");
    EXPECT_NE(text(0, 3).find("shared_memory_banks.banks = 32 ("), std::string::npos) << text(0, 3);
    // A stage that does not run says what stands in for it.
    for (std::size_t row = 0; row < plan.stages.size(); ++row)
        if (text(row, 0) == "l1_simulation") {
            EXPECT_EQ(text(row, 2), "no");
            EXPECT_EQ(text(row, 4), "no memory.l1.ways: the l1_redundant_loads fit");
        }
}
