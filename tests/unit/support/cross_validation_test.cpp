// The fits' shared two-fold split (support/cross_validation.hpp), against a brute-force
// statement of the rule and with a fit whose held-out errors are known.
#include "kerncast/support/cross_validation.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numeric>

namespace kerncast::support {
namespace {

TEST(CrossValidation, GroupsAlternateInSortedOrderAndKeepTheirSamplesTogether) {
    const std::vector<std::string> groups{"star", "box", "star", "conv", "box", "axpy"};
    const TwoFoldSplit split = split_by_group(groups);
    // Sorted: axpy, box, conv, star -> half 0: axpy, conv; half 1: box, star.
    EXPECT_EQ(split.groups[0], (std::vector<std::string>{"axpy", "conv"}));
    EXPECT_EQ(split.groups[1], (std::vector<std::string>{"box", "star"}));
    EXPECT_EQ(split.samples[0], (std::vector<std::size_t>{3, 5}));
    EXPECT_EQ(split.samples[1], (std::vector<std::size_t>{0, 1, 2, 4}));
    EXPECT_TRUE(split.usable());
    EXPECT_FALSE(split_by_group({"one", "one"}).usable());
    EXPECT_FALSE(split_by_group({}).usable());
}

// The "fit" is the mean of the training samples' values; each held-out error is the relative
// error of that mean against the sample, computed here by hand.
TEST(CrossValidation, HeldOutErrorsComeFromTheOtherHalfsFit) {
    const std::vector<std::string> groups{"a", "b", "a", "b"};
    const std::vector<double> values{1, 4, 3, 8};
    const TwoFoldSplit split = split_by_group(groups); // half 0: 0, 2; half 1: 1, 3
    std::vector<std::vector<std::size_t>> trained;
    const auto errors = held_out_errors(
        split,
        [&](const std::vector<std::size_t>& training) {
            trained.push_back(training);
            double sum = 0;
            for (auto i : training)
                sum += values[i];
            return sum / static_cast<double>(training.size());
        },
        [&](double mean, std::size_t i) { return (mean - values[i]) / values[i]; });
    ASSERT_EQ(trained.size(), 2u);
    EXPECT_EQ(trained[0], (std::vector<std::size_t>{0, 2}));
    ASSERT_EQ(errors.by_sample.size(), 4u);
    EXPECT_DOUBLE_EQ(*errors.by_sample[0], (6.0 - 1) / 1); // half 1's mean: (4 + 8) / 2
    EXPECT_DOUBLE_EQ(*errors.by_sample[1], (2.0 - 4) / 4); // half 0's mean: (1 + 3) / 2
    EXPECT_DOUBLE_EQ(*errors.by_sample[2], (6.0 - 3) / 3);
    EXPECT_DOUBLE_EQ(*errors.by_sample[3], (2.0 - 8) / 8);
    // Half 0's fit tested on half 1's samples (1, 3), and the other way round; all in order.
    EXPECT_EQ(errors.tested[0], (std::vector<double>{(2.0 - 4) / 4, (2.0 - 8) / 8}));
    EXPECT_EQ(errors.tested[1], (std::vector<double>{(6.0 - 1) / 1, (6.0 - 3) / 3}));
    EXPECT_EQ(errors.all, (std::vector<double>{5.0, -0.5, 1.0, -0.75}));
    const auto none = held_out_errors(
        split_by_group({"a", "a"}), [](const std::vector<std::size_t>&) { return 0.0; },
        [](double, std::size_t) { return 0.0; });
    EXPECT_EQ(none.by_sample.size(), 2u);
    EXPECT_FALSE(none.by_sample[0] || none.by_sample[1]);
    EXPECT_TRUE(none.all.empty());
}

} // namespace
} // namespace kerncast::support
