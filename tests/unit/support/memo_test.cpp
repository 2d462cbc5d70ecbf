#include "kerncast/support/memo.hpp"

#include <gtest/gtest.h>
#include <stdexcept>
#include <thread>
#include <vector>

namespace kerncast::support {
namespace {

TEST(Memo, ComputesEachKeyOnceAndKeepsIt) {
    Memo<int> memo;
    int calls = 0;
    const auto square = [&](int x) {
        return [&calls, x] {
            ++calls;
            return x * x;
        };
    };
    EXPECT_EQ(memo.get("3", square(3)), 9);
    EXPECT_EQ(memo.get("3", square(100)), 9); // kept: the second function is not called
    EXPECT_EQ(memo.get("4", square(4)), 16);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(memo.size(), 2u);
}

TEST(Memo, AThrowingComputationKeepsNothing) {
    Memo<int> memo;
    EXPECT_THROW(memo.get("k", []() -> int { throw std::runtime_error("no"); }),
                 std::runtime_error);
    EXPECT_EQ(memo.size(), 0u);
    EXPECT_EQ(memo.get("k", [] { return 7; }), 7);
}

TEST(Memo, EmptiesAtItsCapacity) {
    Memo<int> memo(2);
    memo.get("a", [] { return 1; });
    memo.get("b", [] { return 2; });
    EXPECT_EQ(memo.size(), 2u);
    memo.get("c", [] { return 3; }); // full: emptied, then c kept
    EXPECT_EQ(memo.size(), 1u);
    int calls = 0;
    EXPECT_EQ(memo.get("a", [&] { return ++calls; }), 1); // computed again
    EXPECT_EQ(calls, 1);
}

TEST(Memo, ThreadsShareTheValues) {
    Memo<long> memo;
    std::vector<std::thread> threads;
    std::vector<long> sums(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int k = 0; k < 1000; ++k)
                sums[static_cast<size_t>(t)] +=
                    memo.get(std::to_string(k % 50), [k] { return static_cast<long>(k % 50); });
        });
    for (auto& thread : threads)
        thread.join();
    for (long sum : sums)
        EXPECT_EQ(sum, 20 * (49 * 50 / 2));
    EXPECT_EQ(memo.size(), 50u);
}

} // namespace
} // namespace kerncast::support
