#include "kerncast/report/progress_bar.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

namespace kerncast::report {

namespace {

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// "3 s", "2 min 05 s", "1 h 02 min".
std::string duration_text(double seconds) {
    const auto s = static_cast<long long>(std::ceil(std::max(0.0, seconds)));
    if (s < 60)
        return fmt::format("{} s", s);
    if (s < 3600)
        return fmt::format("{} min {:02} s", s / 60, s % 60);
    return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

constexpr double redraw_interval_s = 0.1;

} // namespace

ProgressBar::ProgressBar(std::ostream& out, std::string label, std::string unit, bool enabled,
                         Clock clock)
    : out_(out), label_(std::move(label)), unit_(std::move(unit)), enabled_(enabled),
      clock_(clock ? std::move(clock) : Clock(steady_seconds)) {
    start_s_ = clock_();
}

ProgressBar::~ProgressBar() {
    finish();
}

std::string ProgressBar::render(std::string_view label, std::string_view unit, std::size_t done,
                                std::size_t total, double elapsed_s, int width) {
    done = std::min(done, total);
    const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
    const auto filled = static_cast<int>(std::floor(fraction * width));
    std::string text = fmt::format("{} [{}{}] {}/{}", label, std::string(filled, '#'),
                                   std::string(width - filled, '.'), done, total);
    if (!unit.empty())
        text += fmt::format(" {}", unit);
    if (done > 0 && done < total)
        text += ", " +
                duration_text(elapsed_s / static_cast<double>(done) *
                              static_cast<double>(total - done)) +
                " left";
    return text;
}

void ProgressBar::update(std::size_t done, std::size_t total) {
    if (!enabled_)
        return;
    const std::lock_guard lock(mutex_);
    if (finished_)
        return;
    done = std::max(done, most_done_);
    most_done_ = done;
    const double now = clock_();
    const bool last = done >= total;
    if (!last && last_draw_s_ >= 0 && now - last_draw_s_ < redraw_interval_s)
        return;
    last_draw_s_ = now;
    const std::string text = render(label_, unit_, done, total, now - start_s_);
    // Pad over a longer previous line.
    out_ << '\r' << text
         << std::string(drawn_width_ > text.size() ? drawn_width_ - text.size() : 0, ' ')
         << std::flush;
    drawn_width_ = std::max(drawn_width_, text.size());
}

void ProgressBar::finish() {
    if (!enabled_)
        return;
    const std::lock_guard lock(mutex_);
    if (finished_)
        return;
    finished_ = true;
    if (drawn_width_ > 0)
        out_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
}

} // namespace kerncast::report
