// The progress bar: its text (counts, fill, time left), silence when disabled, rate limiting,
// never moving back, and erasing itself.
#include "kerncast/report/progress_bar.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

using kerncast::report::ProgressBar;

TEST(ProgressBar, RendersCountsFillAndTimeLeft) {
    // 45 of 180 in 15 s: 4 s per item... 135 left x (15/45) s = 45 s.
    EXPECT_EQ(ProgressBar::render("explore", "configurations", 45, 180, 15.0, 8),
              "explore [##......] 45/180 configurations, 45 s left");
    EXPECT_EQ(ProgressBar::render("fit", "", 1, 3, 100.0, 4), "fit [#...] 1/3, 3 min 20 s left");
    EXPECT_EQ(ProgressBar::render("probe", "benchmarks", 1, 1000, 4.0, 4),
              "probe [....] 1/1000 benchmarks, 1 h 06 min left");
    // Nothing done: no estimate; all done: full bar, no estimate.
    EXPECT_EQ(ProgressBar::render("x", "", 0, 10, 5.0, 4), "x [....] 0/10");
    EXPECT_EQ(ProgressBar::render("x", "", 10, 10, 5.0, 4), "x [####] 10/10");
}

TEST(ProgressBar, SilentWhenDisabled) {
    std::ostringstream out;
    {
        ProgressBar bar(out, "explore", "", false, [] { return 0.0; });
        bar.update(1, 2);
        bar.update(2, 2);
    }
    EXPECT_EQ(out.str(), "");
}

TEST(ProgressBar, RedrawsAtMostEveryTenthOfASecondAndErasesItself) {
    std::ostringstream out;
    double now = 0;
    {
        ProgressBar bar(out, "run", "", true, [&] { return now; });
        bar.update(1, 4); // drawn
        now = 0.05;
        bar.update(2, 4); // too soon: skipped
        now = 0.2;
        bar.update(1, 4); // out of order: shows 2 (never moves back)
        now = 0.21;
        bar.update(4, 4); // the last one is always drawn
    }
    const std::string text = out.str();
    EXPECT_NE(text.find("run [#######.......................] 1/4"), std::string::npos);
    EXPECT_NE(text.find("run [###############...............] 2/4"), std::string::npos);
    EXPECT_NE(text.find("4/4"), std::string::npos);
    // Three draws, then one erase: four carriage-return starts plus the erase's final \r.
    EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 5);
    EXPECT_EQ(text.back(), '\r');
}
