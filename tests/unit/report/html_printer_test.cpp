// The HTML printer: a self-contained page with every table, note and chart, escaped; the chart
// data as JSON that round-trips; Chart.js embedded (no network). Drawing is tested in a real
// browser by tests/browser/.
#include "kerncast/report/printers.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace kerncast::report;

namespace {

Document charted_document() {
    Document doc;
    doc.schema = "kerncast.sample/1";
    doc.title = "Sample <b>&</b>";
    Table table;
    table.key = "values";
    table.title = "Values";
    table.columns = {{"name", "quantity", "", -1}, {"value", "value", "cycles", 2}};
    table.rows = {{std::string("<script>alert(1)</script>"), 730.0}, {std::string("MWP"), Cell{}}};
    doc.tables.push_back(table);
    doc.notes = {"a note with </script> inside"};
    Chart scatter;
    scatter.key = "predicted";
    scatter.title = "Predicted against measured";
    scatter.kind = ChartKind::scatter;
    scatter.x_axis = {"measured", "B", true};
    scatter.y_axis = {"predicted", "B", true};
    scatter.diagonal = true;
    scatter.series = {{"kerncast", {1.0, 2.0}, {1.5, 2.5}, {"a</script>", "b"}, ""}};
    Chart bars;
    bars.key = "volumes";
    bars.title = "Volumes";
    bars.kind = ChartKind::stacked_bar;
    bars.categories = {"L2", "DRAM"};
    bars.series = {{"src", {}, {8.0, 4.0}, {}, "load"}, {"dst", {}, {0.0, 8.0}, {}, "store"}};
    doc.charts = {scatter, bars};
    return doc;
}

std::string render(const Document& doc) {
    std::ostringstream out;
    print_html(out, doc);
    return out.str();
}

// The JSON between the chart-data script tags, with the "<\/" escape undone by the parser.
nlohmann::json chart_data(const std::string& html) {
    const std::string open = "<script type=\"application/json\" id=\"kerncast-charts\">";
    const auto begin = html.find(open);
    EXPECT_NE(begin, std::string::npos);
    const auto end = html.find("</script>", begin);
    return nlohmann::json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

size_t occurrences(const std::string& text, const std::string& what) {
    size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++count;
    return count;
}

} // namespace

TEST(HtmlPrinter, EscapesTextFromInputs) {
    const std::string html = render(charted_document());
    EXPECT_NE(html.find("<title>Sample &lt;b&gt;&amp;&lt;/b&gt;</title>"), std::string::npos);
    EXPECT_NE(html.find("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"), std::string::npos);
    EXPECT_NE(html.find("<li>a note with &lt;/script&gt; inside</li>"), std::string::npos);
    EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
    // Only the three script elements end a script: the data, Chart.js and the glue.
    EXPECT_EQ(occurrences(html, "</script>"), 3u);
}

TEST(HtmlPrinter, TablesWithUnitsAndFormattedCells) {
    const std::string html = render(charted_document());
    EXPECT_NE(html.find("<th>value (cycles)</th>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num\">730.00</td>"), std::string::npos);
    EXPECT_NE(html.find("<td>-</td>"), std::string::npos);
}

TEST(HtmlPrinter, ChartDataRoundTrip) {
    const std::string html = render(charted_document());
    const nlohmann::json charts = chart_data(html);
    ASSERT_EQ(charts.size(), 2u);
    EXPECT_EQ(charts[0]["key"], "predicted");
    EXPECT_EQ(charts[0]["kind"], "scatter");
    EXPECT_EQ(charts[0]["diagonal"], true);
    EXPECT_EQ(charts[0]["x_axis"]["logarithmic"], true);
    EXPECT_EQ(charts[0]["series"][0]["x"], nlohmann::json::array({1.0, 2.0}));
    EXPECT_EQ(charts[0]["series"][0]["y"], nlohmann::json::array({1.5, 2.5}));
    EXPECT_EQ(charts[0]["series"][0]["point_labels"][0], "a</script>");
    EXPECT_EQ(charts[1]["kind"], "stacked_bar");
    EXPECT_EQ(charts[1]["categories"], nlohmann::json::array({"L2", "DRAM"}));
    EXPECT_EQ(charts[1]["series"][1]["stack"], "store");
    EXPECT_NE(html.find("id=\"kerncast-chart-0\""), std::string::npos);
    EXPECT_NE(html.find("id=\"kerncast-chart-1\""), std::string::npos);
    EXPECT_EQ(html.find("id=\"kerncast-chart-2\""), std::string::npos);
}

TEST(HtmlPrinter, NonFiniteValuesBecomeNull) {
    Document doc = charted_document();
    doc.charts[0].series[0].y[1] = std::numeric_limits<double>::quiet_NaN();
    const nlohmann::json charts = chart_data(render(doc));
    EXPECT_TRUE(charts[0]["series"][0]["y"][1].is_null());
}

TEST(HtmlPrinter, SelfContained) {
    const std::string html = render(charted_document());
    EXPECT_NE(html.find("Chart.js v3"), std::string::npos); // the library, embedded
    EXPECT_NE(html.find("kerncast-chart-check"), std::string::npos);
    // Nothing is fetched: no external scripts, styles or images.
    EXPECT_EQ(html.find("src=\"http"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("<script src"), std::string::npos);
}
