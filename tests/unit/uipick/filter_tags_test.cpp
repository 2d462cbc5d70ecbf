// Filter tags and the four generator match conditions of Stevens & Klöckner sec. 7.1, on the
// paper's own examples (matmul_sq, finite_diff) and on hand-made tag sets.
#include "kerncast/error.hpp"
#include "kerncast/uipick/filter_tags.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::uipick;

namespace {

std::vector<std::string> matching(const std::vector<std::string>& tags, MatchCondition condition) {
    std::vector<std::string> names;
    for (const Generator* g :
         match_generators(all_generators(), parse_filter_tags(tags), condition))
        names.push_back(g->name);
    return names;
}

ErrorKind error_kind_of(const std::vector<std::string>& tags) {
    try {
        (void)parse_filter_tags(tags);
    } catch (const Error& e) {
        return e.kind();
    }
    return ErrorKind::internal;
}

} // namespace

TEST(FilterTags, SplitsGeneratorAndVariantTags) {
    // The tag list of sec. 2.2 / 7.1.
    const FilterTags tags =
        parse_filter_tags({"matmul_sq", "dtype:float32", "prefetch:True", "lsize_0:16",
                           "lsize_1:16", "groups_fit:True", "n:2048,2560,3072,3584"});
    EXPECT_EQ(tags.generator_tags, std::vector<std::string>{"matmul_sq"});
    ASSERT_EQ(tags.variant_tags.size(), 6u);
    EXPECT_EQ(tags.variant_tags[0].argument, "dtype");
    EXPECT_EQ(tags.variant_tags[0].values, std::vector<std::string>{"float32"});
    EXPECT_EQ(tags.variant_tags[5].argument, "n");
    EXPECT_EQ(tags.variant_tags[5].values,
              (std::vector<std::string>{"2048", "2560", "3072", "3584"}));
}

TEST(FilterTags, BadTagsAreUsageErrors) {
    EXPECT_EQ(error_kind_of({""}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"n:"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({":5"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"n:1,,2"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"n:1,1"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"n:1", "n:2"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"mat mul"}), ErrorKind::usage);
    EXPECT_EQ(error_kind_of({"n:1;2"}), ErrorKind::usage);
}

TEST(FilterTags, MatchConditionNames) {
    for (auto c : {MatchCondition::identical, MatchCondition::subset, MatchCondition::superset,
                   MatchCondition::intersect})
        EXPECT_EQ(parse_match_condition(match_condition_name(c)), c);
    EXPECT_THROW(parse_match_condition("union"), Error);
}

TEST(FilterTags, FourConditionsOnHandMadeSets) {
    const std::set<std::string> generator{"a", "b"};
    using V = std::vector<std::string>;
    // (1) identical
    EXPECT_TRUE(generator_matches(generator, V{"b", "a"}, MatchCondition::identical));
    EXPECT_FALSE(generator_matches(generator, V{"a"}, MatchCondition::identical));
    EXPECT_FALSE(generator_matches(generator, V{"a", "b", "c"}, MatchCondition::identical));
    // (2) the generator's tags are a subset of the user's
    EXPECT_TRUE(generator_matches(generator, V{"a", "b", "c"}, MatchCondition::subset));
    EXPECT_TRUE(generator_matches(generator, V{"a", "b"}, MatchCondition::subset));
    EXPECT_FALSE(generator_matches(generator, V{"a", "c"}, MatchCondition::subset));
    // (3) a superset of the user's (the default)
    EXPECT_TRUE(generator_matches(generator, V{"a"}, MatchCondition::superset));
    EXPECT_TRUE(generator_matches(generator, V{}, MatchCondition::superset));
    EXPECT_FALSE(generator_matches(generator, V{"a", "c"}, MatchCondition::superset));
    // (4) non-empty intersection
    EXPECT_TRUE(generator_matches(generator, V{"c", "b"}, MatchCondition::intersect));
    EXPECT_FALSE(generator_matches(generator, V{"c"}, MatchCondition::intersect));
    EXPECT_FALSE(generator_matches(generator, V{}, MatchCondition::intersect));
}

// Sec. 7.1: "only one generator in UIPICK contains this tag [matmul_sq], so only this
// generator meets the match condition. If we had provided a second generator filter tag,
// e.g., finite_diff, then no generators would meet the match condition ... we could instead
// use match condition (4)".
TEST(FilterTags, PaperExamplesOnTheCollection) {
    using V = std::vector<std::string>;
    EXPECT_EQ(matching({"matmul_sq"}, MatchCondition::superset), V{"matmul_sq"});
    EXPECT_EQ(matching({"matmul_sq", "dtype:float32", "n:2048"}, MatchCondition::superset),
              V{"matmul_sq"});
    EXPECT_EQ(matching({"matmul_sq", "finite_diff"}, MatchCondition::superset), V{});
    EXPECT_EQ(matching({"matmul_sq", "finite_diff"}, MatchCondition::intersect),
              (V{"matmul_sq", "finite_diff"}));
    EXPECT_EQ(matching({"matmul_sq", "application"}, MatchCondition::identical), V{"matmul_sq"});
    EXPECT_EQ(matching({"matmul_sq"}, MatchCondition::identical), V{});
    EXPECT_EQ(matching({"matmul_sq", "finite_diff", "application"}, MatchCondition::subset),
              (V{"matmul_sq", "finite_diff"}));
    EXPECT_EQ(matching({"application"}, MatchCondition::superset),
              (V{"matmul_sq", "dg_diff", "finite_diff"}));
    EXPECT_EQ(
        matching({"flops"}, MatchCondition::superset),
        (V{"flops_add_pattern", "flops_mul_pattern", "flops_madd_pattern", "flops_div_pattern"}));
    // No generator tags: superset matches every generator (the whole collection).
    EXPECT_EQ(matching({}, MatchCondition::superset).size(), all_generators().size());
}
