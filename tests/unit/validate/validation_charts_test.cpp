// validation_charts: the charts of the validation report, from a hand-built report: which
// charts appear and in what order, their points (microseconds, GFlop/s), the peer's series,
// log scales only when every value is positive, and the relative errors in 5 % bins.
#include "kerncast/validate/validation.hpp"

#include <gtest/gtest.h>

namespace kerncast::validate {
namespace {

const std::string dram = "dram__bytes_read.sum";
const std::string lts = "lts__t_bytes.sum";

ValidationRow row(std::string configuration, std::string group, double predicted_time_s,
                  std::optional<double> measured_time_s) {
    ValidationRow r;
    r.configuration = std::move(configuration);
    r.group = std::move(group);
    r.predicted_time_s = predicted_time_s;
    r.measured_time_s = measured_time_s;
    return r;
}

// Three configurations: "a" 100 % slow and 12 % over in DRAM bytes, "b" 33 % fast, 60 % under
// in DRAM bytes and predicting a negative L2 volume, "c" never measured.
ValidationReport three_rows() {
    ValidationReport report;
    ValidationRow a = row("a", "g1", 2e-6, 1e-6);
    a.counters[dram] = {112, 100, 95};
    a.predicted_flops_per_s = 2e9;
    a.measured_flops_per_s = 1e9;
    ValidationRow b = row("b", "g2", 0.67e-6, 1e-6);
    b.counters[dram] = {40, 100, std::nullopt};
    b.counters[lts] = {-5, 10, std::nullopt};
    b.predicted_flops_per_s = 3e9;
    b.measured_flops_per_s = 4e9;
    ValidationRow c = row("c", "g1", 5e-6, std::nullopt);
    c.counters[dram] = {10, std::nullopt, std::nullopt};
    c.counters[lts] = {10, 0.0, std::nullopt}; // a zero measurement is not compared
    c.predicted_flops_per_s = 1e9;
    report.rows = {a, b, c};
    return report;
}

const report::Chart& chart(const std::vector<report::Chart>& charts, const std::string& key) {
    for (const auto& c : charts)
        if (c.key == key)
            return c;
    throw std::runtime_error("no chart " + key);
}

std::vector<double> one_hot(std::initializer_list<int> bins) {
    std::vector<double> counts(22, 0.0);
    for (int bin : bins)
        counts[static_cast<size_t>(bin)] += 1;
    return counts;
}

TEST(ValidationCharts, OneChartPerQuantityInOrder) {
    const auto charts = validation_charts(three_rows());
    std::vector<std::string> keys;
    for (const auto& c : charts)
        keys.push_back(c.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"time", "counter_" + dram, "counter_" + lts,
                                              "throughput", "error_distribution"}));
    for (const auto& c : charts)
        if (c.key != "error_distribution") {
            EXPECT_EQ(c.kind, report::ChartKind::scatter) << c.key;
            EXPECT_TRUE(c.diagonal) << c.key;
        }
}

TEST(ValidationCharts, TimeInMicrosecondsOnLogAxes) {
    const auto charts = validation_charts(three_rows());
    const report::Chart& time = chart(charts, "time");
    EXPECT_EQ(time.title, "Predicted against measured time");
    EXPECT_EQ(time.x_axis.label, "measured time");
    EXPECT_EQ(time.y_axis.label, "predicted time");
    EXPECT_EQ(time.x_axis.unit, "us");
    ASSERT_EQ(time.series.size(), 1u); // no time_extremes in the report: nothing marked
    const auto& kerncast = time.series[0];
    EXPECT_FALSE(kerncast.highlight);
    EXPECT_EQ(kerncast.name, "kerncast");
    EXPECT_EQ(kerncast.point_labels, (std::vector<std::string>{"a", "b"})); // c has no time
    ASSERT_EQ(kerncast.x.size(), 2u);
    EXPECT_DOUBLE_EQ(kerncast.x[0], 1.0);
    EXPECT_DOUBLE_EQ(kerncast.y[0], 2.0);
    EXPECT_DOUBLE_EQ(kerncast.x[1], 1.0);
    EXPECT_DOUBLE_EQ(kerncast.y[1], 0.67);
    EXPECT_TRUE(time.x_axis.logarithmic);
    EXPECT_TRUE(time.y_axis.logarithmic);
}

// The predicted and the measured best of the table time_extremes are marked on the time chart,
// the worst predicted rows are not.
TEST(ValidationCharts, TheTimeChartMarksTheBestsOfTimeExtremes) {
    ValidationReport report = three_rows();
    report.time_extremes = {{"predicted best (slowest of 2 tied)", "k", "b", 0.67e-6, 1e-6, -0.33},
                            {"measured best", "k", "a", 2e-6, 1e-6, 1.0},
                            {"worst predicted", "k", "a", 2e-6, 1e-6, 1.0}};
    const auto charts = validation_charts(report);
    const report::Chart& time = chart(charts, "time");
    ASSERT_EQ(time.series.size(), 3u);
    EXPECT_EQ(time.series[1].name, "predicted best");
    EXPECT_TRUE(time.series[1].highlight);
    EXPECT_EQ(time.series[1].point_labels, std::vector<std::string>{"b"});
    EXPECT_DOUBLE_EQ(time.series[1].x.at(0), 1.0);
    EXPECT_DOUBLE_EQ(time.series[1].y.at(0), 0.67);
    EXPECT_EQ(time.series[2].name, "measured best");
    EXPECT_TRUE(time.series[2].highlight);
    EXPECT_EQ(time.series[2].point_labels, std::vector<std::string>{"a"});
    EXPECT_FALSE(time.series[0].highlight);
}

TEST(ValidationCharts, CountersWithThePeerBesideKerncast) {
    const auto charts = validation_charts(three_rows());
    const report::Chart& d = chart(charts, "counter_" + dram);
    EXPECT_EQ(d.title, "Predicted against measured " + dram);
    ASSERT_EQ(d.series.size(), 2u);
    EXPECT_EQ(d.series[0].name, "kerncast");
    EXPECT_EQ(d.series[0].x, (std::vector<double>{100, 100}));
    EXPECT_EQ(d.series[0].y, (std::vector<double>{112, 40}));
    EXPECT_EQ(d.series[1].name, "peer (published prediction)");
    EXPECT_EQ(d.series[1].x, (std::vector<double>{100}));
    EXPECT_EQ(d.series[1].y, (std::vector<double>{95}));
    EXPECT_EQ(d.series[1].point_labels, (std::vector<std::string>{"a"}));
    EXPECT_TRUE(d.x_axis.logarithmic);
    // A negative prediction cannot go on a log axis: both axes stay linear.
    const report::Chart& l = chart(charts, "counter_" + lts);
    ASSERT_EQ(l.series.size(), 1u);
    EXPECT_EQ(l.series[0].point_labels, (std::vector<std::string>{"b"}));
    EXPECT_FALSE(l.x_axis.logarithmic);
    EXPECT_FALSE(l.y_axis.logarithmic);
}

TEST(ValidationCharts, ThroughputPerRankingGroupInGFlops) {
    const auto charts = validation_charts(three_rows());
    const report::Chart& t = chart(charts, "throughput");
    EXPECT_EQ(t.x_axis.unit, "GFlop/s");
    ASSERT_EQ(t.series.size(), 2u); // c has no measured throughput
    EXPECT_EQ(t.series[0].name, "g1");
    EXPECT_EQ(t.series[0].x, (std::vector<double>{1}));
    EXPECT_EQ(t.series[0].y, (std::vector<double>{2}));
    EXPECT_EQ(t.series[1].name, "g2");
    EXPECT_EQ(t.series[1].x, (std::vector<double>{4}));
    EXPECT_EQ(t.series[1].y, (std::vector<double>{3}));
}

TEST(ValidationCharts, RelativeErrorsInFivePercentBins) {
    const auto charts = validation_charts(three_rows());
    const report::Chart& e = chart(charts, "error_distribution");
    EXPECT_EQ(e.kind, report::ChartKind::bar);
    ASSERT_EQ(e.categories.size(), 22u);
    EXPECT_EQ(e.categories[0], "< -50 %");
    EXPECT_EQ(e.categories[1], "-50 to -45 %");
    EXPECT_EQ(e.categories[4], "-35 to -30 %");
    EXPECT_EQ(e.categories[11], "0 to 5 %");
    EXPECT_EQ(e.categories[13], "10 to 15 %");
    EXPECT_EQ(e.categories[20], "45 to 50 %");
    EXPECT_EQ(e.categories[21], ">= +50 %");
    ASSERT_EQ(e.series.size(), 3u);
    // time: +100 % (the open top bin) and -33 %.
    EXPECT_EQ(e.series[0].name, "time");
    EXPECT_EQ(e.series[0].y, one_hot({21, 4}));
    // DRAM bytes: +12 % and -60 % (the open bottom bin).
    EXPECT_EQ(e.series[1].name, dram);
    EXPECT_EQ(e.series[1].y, one_hot({13, 0}));
    // L2 bytes: -150 %.
    EXPECT_EQ(e.series[2].name, lts);
    EXPECT_EQ(e.series[2].y, one_hot({0}));
}

TEST(ValidationCharts, NothingMeasuredNoCharts) {
    ValidationReport report;
    report.rows.push_back(row("c", "g1", 5e-6, std::nullopt));
    EXPECT_TRUE(validation_charts(report).empty());
    EXPECT_TRUE(validation_charts(ValidationReport{}).empty());
}

} // namespace
} // namespace kerncast::validate
