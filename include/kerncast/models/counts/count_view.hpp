// View: a CountReport as a report::Document (schema "kerncast.count/1").
#pragma once

#include "kerncast/models/counts/count_report.hpp"
#include "kerncast/report/document.hpp"

namespace kerncast::models::counts {

report::Document count_view(const CountReport& report);

} // namespace kerncast::models::counts
