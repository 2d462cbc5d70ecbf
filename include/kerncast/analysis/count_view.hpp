// View: a CountReport as a report::Document (schema "kerncast.count/1").
#pragma once

#include "kerncast/analysis/count_report.hpp"
#include "kerncast/report/document.hpp"

namespace kerncast::analysis {

report::Document count_view(const CountReport& report);

} // namespace kerncast::analysis
