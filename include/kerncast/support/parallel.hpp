// Work shared by a few threads: explore's configurations and the batched register counts each
// run one work loop on several threads, the calling one among them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace kerncast::support {

// The threads to run `tasks` tasks on: `requested`, or every hardware thread when 0; at least
// one, at most one a task.
inline unsigned worker_count(unsigned requested, std::size_t tasks) {
    const unsigned wanted =
        requested ? requested : std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, std::min<unsigned>(
                            wanted, static_cast<unsigned>(std::min<std::size_t>(tasks, 1u << 16))));
}

// Runs `work` on `threads` threads (the caller is one of them) and returns when every one has
// finished. `work` takes its tasks itself (e.g. from an atomic counter) and must not throw.
template <class Work> void run_on_threads(unsigned threads, const Work& work) {
    std::vector<std::thread> others;
    for (unsigned t = 1; t < threads; ++t)
        others.emplace_back(work);
    work();
    for (auto& thread : others)
        thread.join();
}

} // namespace kerncast::support
