// Feature names of Stevens & Klöckner sec. 6.1: the paper's examples parse into their fields;
// misspelt names point at the offending character and name the closest features.
#include "kerncast/models/calibrated/feature.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models::calibrated;

namespace {

FeatureError error_of(const std::string& name) {
    try {
        parse_feature(name);
    } catch (const FeatureError& e) {
        return e;
    }
    ADD_FAILURE() << name << " parsed";
    return FeatureError("", -1);
}

} // namespace

TEST(Feature, OperationOfThePaper) {
    const FeatureSpec f = parse_feature("f_op_float32_madd");
    EXPECT_EQ(f.kind, FeatureKind::operation);
    EXPECT_EQ(f.dtype, kernel::DataType::f32);
    EXPECT_EQ(f.operation, "madd");
    EXPECT_EQ(parse_feature("f_op_f64_func:exp").operation, "func:exp");
}

TEST(Feature, MemoryAccessWithStridesAndRatio) {
    // Stevens & Klöckner 6.1.1, the b load of the prefetching matmul.
    const FeatureSpec f = parse_feature(
        "f_mem_access_global_float32_load_lstrides:{0:1;1:>15}_gstrides:{0:16}_afr:>1");
    EXPECT_EQ(f.kind, FeatureKind::memory);
    EXPECT_EQ(f.space, kernel::MemorySpace::global);
    EXPECT_EQ(f.dtype, kernel::DataType::f32);
    EXPECT_EQ(f.direction, "load");
    ASSERT_TRUE(f.local_strides[0] && f.local_strides[1]);
    EXPECT_FALSE(f.local_strides[2]);
    EXPECT_EQ(f.local_strides[0]->comparison, Constraint::Comparison::equal);
    EXPECT_EQ(f.local_strides[0]->value, 1);
    EXPECT_EQ(f.local_strides[1]->comparison, Constraint::Comparison::greater);
    EXPECT_EQ(f.local_strides[1]->value, 15);
    ASSERT_TRUE(f.group_strides[0]);
    EXPECT_EQ(f.group_strides[0]->value, 16);
    ASSERT_TRUE(f.access_to_footprint);
    EXPECT_EQ(constraint_text(*f.access_to_footprint), ">1");
}

TEST(Feature, TagsAndParameterBounds) {
    const FeatureSpec tagged = parse_feature("f_mem_access_tag:aLD");
    EXPECT_EQ(tagged.tag, "aLD");
    EXPECT_FALSE(tagged.space);
    // A tag with '_' ends where the next field begins.
    const FeatureSpec underscored = parse_feature("f_mem_access_tag:a_fetch_global_load");
    EXPECT_EQ(underscored.tag, "a_fetch");
    EXPECT_EQ(underscored.direction, "load");
    // "lstrides:{0:<n}" (sec. 6.1): a bound by a kernel parameter.
    const FeatureSpec bounded = parse_feature("f_mem_access_local_lstrides:{0:<n;y:>=2}");
    EXPECT_EQ(bounded.space, kernel::MemorySpace::shared);
    EXPECT_EQ(bounded.local_strides[0]->parameter, "n");
    EXPECT_EQ(bounded.local_strides[1]->comparison, Constraint::Comparison::greater_equal);
}

TEST(Feature, SynchronisationGroupsAndTime) {
    EXPECT_EQ(parse_feature("f_sync_barrier_local").kind, FeatureKind::barrier);
    EXPECT_EQ(parse_feature("f_sync_kernel_launch").kind, FeatureKind::launch);
    EXPECT_EQ(parse_feature("f_thread_groups").kind, FeatureKind::thread_group);
    EXPECT_TRUE(parse_feature("f_time").measured());
    EXPECT_EQ(parse_feature("f_time_min").statistic, TimeStatistic::min);
    EXPECT_EQ(parse_feature("f_cl_wall_time_nvidia_geforce").statistic, TimeStatistic::median);
}

TEST(Feature, MisspeltDataTypeNamesTheCorrectedFeature) {
    const FeatureError e = error_of("f_op_flaot32_madd");
    EXPECT_EQ(e.offset(), 5);
    ASSERT_FALSE(e.suggestions().empty());
    EXPECT_EQ(e.suggestions().front(), "f_op_float32_madd");
}

TEST(Feature, MisspeltFieldsAndClasses) {
    const FeatureError field = error_of("f_mem_access_globl_float32");
    EXPECT_EQ(field.offset(), 13);
    ASSERT_FALSE(field.suggestions().empty());
    EXPECT_EQ(field.suggestions().front(), "f_mem_access_global_float32");

    const FeatureError op = error_of("f_op_float32_mad");
    EXPECT_EQ(op.offset(), 13);
    EXPECT_EQ(op.suggestions().front(), "f_op_float32_madd");

    const FeatureError kind = error_of("f_thread_grups");
    EXPECT_EQ(kind.offset(), 0);
    EXPECT_EQ(kind.suggestions().front(), "f_thread_groups");

    const FeatureError stride = error_of("f_mem_access_lstrides:{3:1}");
    EXPECT_EQ(stride.offset(), 23); // at the axis
    const FeatureError bound = error_of("f_mem_access_afr:>x");
    EXPECT_EQ(bound.offset(), 18);
    const FeatureError twice = error_of("f_mem_access_load_store");
    EXPECT_EQ(twice.offset(), 18);
}
