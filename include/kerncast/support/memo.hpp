// A process-wide memo of a pure function's results, safe to share between threads: explore
// analyses every configuration of a space afresh, and some of each analysis depends only on
// the kernel and its parameter values (the domain's emptiness, its extents, whether it is a
// box), the same for every configuration. Bounded: emptied when it reaches its capacity.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace kerncast::support {

template <class Value> class Memo {
public:
    explicit Memo(std::size_t capacity = 4096) : capacity_(capacity) {}

    // The value kept for `key`, or compute() made and kept (outside the lock: two threads may
    // both compute a missing key; the function is pure, so either result is the one). An
    // exception from compute() keeps nothing.
    template <class Compute> Value get(const std::string& key, Compute&& compute) {
        {
            std::lock_guard lock(mutex_);
            if (const auto found = values_.find(key); found != values_.end())
                return found->second;
        }
        Value value = compute();
        std::lock_guard lock(mutex_);
        if (values_.size() >= capacity_)
            values_.clear();
        values_.emplace(key, value);
        return value;
    }

    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return values_.size();
    }

private:
    std::size_t capacity_;
    mutable std::mutex mutex_;
    std::map<std::string, Value> values_;
};

} // namespace kerncast::support
