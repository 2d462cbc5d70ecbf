// The views of `kerncast gen`: one row per generated kernel and per skipped variant; one row
// per generator argument.
#include "kerncast/uipick/generation_view.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::uipick;

TEST(GenerationView, KernelsAndSkippedVariants) {
    const FilterTags tags = parse_filter_tags(
        {"matmul_sq", "lsize_0:16,32", "n:2048", "dtype:float32", "prefetch:True"});
    const Generation g = generate_kernels(all_generators(), tags, MatchCondition::superset);
    const report::Document doc = generation_view(g, tags, MatchCondition::superset, "out");
    EXPECT_EQ(doc.schema, "kerncast.gen/1");
    const auto& kernels = doc.table_at("kernels");
    ASSERT_EQ(kernels.rows.size(), 1u);
    EXPECT_EQ(std::get<std::string>(kernels.rows[0][0]),
              "out/matmul_sq.dtype-float32.prefetch-True.lsize_0-16.lsize_1-16.groups_fit-True."
              "n-2048.yaml");
    EXPECT_EQ(std::get<std::string>(kernels.rows[0][1]), "matmul_sq");
    const auto& skipped = doc.table_at("skipped");
    ASSERT_EQ(skipped.rows.size(), 1u);
    EXPECT_NE(std::get<std::string>(skipped.rows[0][1]).find("lsize_0:32"), std::string::npos);
    ASSERT_EQ(doc.notes.size(), 1u);
    EXPECT_NE(doc.notes[0].find("superset"), std::string::npos);
}

TEST(GenerationView, GeneratorsListEveryArgument) {
    const report::Document doc = generators_view(all_generators());
    size_t arguments = 0;
    for (const auto& generator : all_generators())
        arguments += generator.arguments.size();
    EXPECT_EQ(doc.table_at("generators").rows.size(), arguments);
}
