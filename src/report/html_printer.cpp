// HTML: one self-contained page (no network): the title, each table, the notes, and each chart
// as a canvas drawn by Chart.js (embedded, html_assets.hpp) through src/report/html_report.js.
// The chart data travel as JSON in a <script type="application/json"> element.
#include "html_assets.hpp"
#include "kerncast/report/cell_format.hpp"
#include "kerncast/report/printers.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace kerncast::report {

namespace {

std::string escape_html(const std::string& text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&':
            escaped += "&amp;";
            break;
        case '<':
            escaped += "&lt;";
            break;
        case '>':
            escaped += "&gt;";
            break;
        case '"':
            escaped += "&quot;";
            break;
        default:
            escaped += ch;
        }
    }
    return escaped;
}

const char* kind_name(ChartKind kind) {
    switch (kind) {
    case ChartKind::scatter:
        return "scatter";
    case ChartKind::bar:
        return "bar";
    case ChartKind::stacked_bar:
        return "stacked_bar";
    }
    return "scatter";
}

nlohmann::json axis_json(const ChartAxis& axis) {
    return {{"label", axis.label}, {"unit", axis.unit}, {"logarithmic", axis.logarithmic}};
}

// JSON has no NaN or infinity: such a value becomes null, which Chart.js leaves undrawn (and
// the browser test then reports as a point not drawn).
nlohmann::json numbers_json(const std::vector<double>& values) {
    nlohmann::json array = nlohmann::json::array();
    for (double value : values)
        array.push_back(std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr));
    return array;
}

nlohmann::json charts_json(const std::vector<Chart>& charts) {
    nlohmann::json array = nlohmann::json::array();
    for (size_t index = 0; index < charts.size(); ++index) {
        const Chart& chart = charts[index];
        nlohmann::json series = nlohmann::json::array();
        for (const auto& s : chart.series)
            series.push_back({{"name", s.name},
                              {"x", numbers_json(s.x)},
                              {"y", numbers_json(s.y)},
                              {"point_labels", s.point_labels},
                              {"stack", s.stack},
                              {"highlight", s.highlight}});
        array.push_back({{"index", index},
                         {"key", chart.key},
                         {"title", chart.title},
                         {"kind", kind_name(chart.kind)},
                         {"x_axis", axis_json(chart.x_axis)},
                         {"y_axis", axis_json(chart.y_axis)},
                         {"categories", chart.categories},
                         {"series", std::move(series)},
                         {"diagonal", chart.diagonal},
                         {"x_markers", numbers_json(chart.x_markers)}});
    }
    return array;
}

// JSON inside <script>: "</" would end the element early.
std::string script_safe(const std::string& json) {
    std::string safe;
    safe.reserve(json.size());
    for (size_t i = 0; i < json.size(); ++i) {
        safe += json[i];
        if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/')
            safe += "\\";
    }
    return safe;
}

void print_table(std::ostream& out, const Table& table) {
    if (!table.title.empty())
        out << "<h2>" << escape_html(table.title) << "</h2>\n";
    out << "<table id=\"table-" << escape_html(table.key) << "\">\n<thead><tr>";
    for (const auto& column : table.columns)
        out << "<th>" << escape_html(header_with_unit(column)) << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (const auto& row : table.rows) {
        out << "<tr>";
        for (size_t c = 0; c < table.columns.size(); ++c) {
            const Cell cell = c < row.size() ? row[c] : Cell{};
            out << (is_numeric(cell) ? "<td class=\"num\">" : "<td>")
                << escape_html(format_cell(cell, table.columns[c].precision)) << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
}

constexpr const char* style = R"(body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin-bottom: 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
canvas { display: block; margin-bottom: 2em; border: 1px solid #eee; }
.notes li { margin-bottom: 0.3em; }
)";

} // namespace

void print_html(std::ostream& out, const Document& doc) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"generator\" content=\"kerncast\">\n"
        << "<meta name=\"kerncast-schema\" content=\"" << escape_html(doc.schema) << "\">\n"
        << "<title>" << escape_html(doc.title) << "</title>\n<style>\n"
        << style << "</style>\n</head>\n<body>\n";
    out << "<h1>" << escape_html(doc.title) << "</h1>\n";
    for (size_t index = 0; index < doc.charts.size(); ++index)
        out << "<canvas id=\"kerncast-chart-" << index
            << "\" width=\"960\" height=\"480\" aria-label=\""
            << escape_html(doc.charts[index].title) << "\" role=\"img\"></canvas>\n";
    for (const auto& table : doc.tables)
        print_table(out, table);
    if (!doc.notes.empty()) {
        out << "<ul class=\"notes\">\n";
        for (const auto& note : doc.notes)
            out << "<li>" << escape_html(note) << "</li>\n";
        out << "</ul>\n";
    }
    out << "<div id=\"kerncast-chart-check\" hidden></div>\n";
    out << "<script type=\"application/json\" id=\"kerncast-charts\">\n"
        << script_safe(charts_json(doc.charts)
                           .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        << "\n</script>\n<script>\n";
    for (size_t part = 0; part < html_assets::chart_library_part_count; ++part)
        out << html_assets::chart_library_parts[part];
    out << "\n</script>\n<script>\n";
    for (size_t part = 0; part < html_assets::glue_part_count; ++part)
        out << html_assets::glue_parts[part];
    out << "\n</script>\n</body>\n</html>\n";
}

} // namespace kerncast::report
