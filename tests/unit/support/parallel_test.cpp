#include "kerncast/support/parallel.hpp"

#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <thread>

namespace kerncast::support {
namespace {

TEST(Parallel, WorkerCountIsTheRequestWithinOneAndTheTasks) {
    EXPECT_EQ(worker_count(4, 100), 4u);
    EXPECT_EQ(worker_count(4, 3), 3u);
    EXPECT_EQ(worker_count(4, 0), 1u);
    EXPECT_EQ(worker_count(1, 100), 1u);
    const unsigned all = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(worker_count(0, 1000000), all);
}

TEST(Parallel, EveryThreadRunsTheWorkAndTheTasksAreSharedOnce) {
    std::atomic<int> next{0};
    std::atomic<int> sum{0};
    std::mutex mutex;
    std::set<std::thread::id> ran;
    run_on_threads(3, [&] {
        {
            std::lock_guard lock(mutex);
            ran.insert(std::this_thread::get_id());
        }
        for (int task; (task = next++) < 1000;)
            sum += task;
    });
    EXPECT_EQ(ran.size(), 3u);
    EXPECT_TRUE(ran.count(std::this_thread::get_id())); // the caller is one of them
    EXPECT_EQ(sum.load(), 999 * 1000 / 2);
}

} // namespace
} // namespace kerncast::support
