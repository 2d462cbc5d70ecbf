// The scripts an HTML report embeds (generated at build time by embed_html_assets.cmake):
// Chart.js from Debian's libjs-chart.js, and kerncast's glue, src/report/html_report.js.
#pragma once

#include <cstddef>
#include <iterator>
#include <string_view>

namespace kerncast::report::html_assets {

// Each script in pieces (compilers need support only 64 KiB literals); write them in order.
extern const std::string_view chart_library_parts[];
extern const std::size_t chart_library_part_count;
extern const std::string_view glue_parts[];
extern const std::size_t glue_part_count;

} // namespace kerncast::report::html_assets
