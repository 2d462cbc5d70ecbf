// A progress bar for long work on a terminal (stderr): "explore [#######.......] 45/168
// configurations, 3 s left". It draws only when enabled (the CLI enables it when stderr is a
// terminal and --quiet is not given), redraws at most every 100 ms, may be updated from
// several threads at once, and erases itself when done, so reports and error messages that
// follow start on a clean line.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace kerncast::report {

class ProgressBar {
public:
    using Clock = std::function<double()>; // seconds since any fixed point

    ProgressBar(std::ostream& out, std::string label, std::string unit, bool enabled,
                Clock clock = {});
    ~ProgressBar(); // finish()
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    // `done` of `total` items are finished. Thread-safe; a smaller `done` than already shown
    // (workers finishing out of order) never moves the bar back.
    void update(std::size_t done, std::size_t total);
    // Erases the bar (once; later calls do nothing).
    void finish();

    // The bar's text for `done` of `total` after `elapsed_s` seconds, `width` characters of
    // bar: the time left is elapsed / done x (total - done), shown once something is done.
    static std::string render(std::string_view label, std::string_view unit, std::size_t done,
                              std::size_t total, double elapsed_s, int width = 30);

private:
    std::ostream& out_;
    std::string label_;
    std::string unit_;
    bool enabled_;
    Clock clock_;
    std::mutex mutex_;
    double start_s_ = 0;
    double last_draw_s_ = -1;
    std::size_t most_done_ = 0; // the largest done reported so far
    std::size_t drawn_width_ = 0;
    bool finished_ = false;
};

} // namespace kerncast::report
