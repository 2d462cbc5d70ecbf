#include "kerncast/runtime/run_view.hpp"

#include "kerncast/report/table_builder.hpp"

namespace kerncast::runtime {
namespace {

using report::TableBuilder;

std::string dims(const kernel::Dim3& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

report::Table summary_table(const Measurement& m) {
    const MethodRecord method = m.method.value_or(MethodRecord{});
    TableBuilder t("summary", "Timing (" + std::to_string(method.repetitions) +
                                  " repetitions after " + std::to_string(method.warmup_count) +
                                  " warm-up launches, CUDA events" +
                                  (method.l2_flush ? ", L2 flushed between repetitions)" : ")"));
    t.columns({"kernel", "device", "grid", "block"});
    t.columns_in_unit("us", 3,
                      {{"median_us", "median"},
                       {"min_us", "min"},
                       {"max_us", "max"},
                       {"mean_us", "mean"},
                       {"stddev_us", "stddev"}});
    t.columns_in_unit(
        "MHz", 0, {{"sm_clock_start_mhz", "SM clock start"}, {"sm_clock_end_mhz", "SM clock end"}});
    const auto& r = m.results;
    t.row(m.kernel.name, m.device.name, dims(m.kernel.launch.grid.value_or(kernel::Dim3{0, 0, 0})),
          dims(m.kernel.launch.block), r.median_s * 1e6, r.min_s * 1e6, r.max_s * 1e6,
          r.mean_s * 1e6, r.stddev_s * 1e6, m.device.sm_clock_start_mhz, m.device.sm_clock_end_mhz);
    return t.build();
}

report::Table repetitions_table(const Measurement& m) {
    TableBuilder t("repetitions", "Time per repetition");
    t.columns({{"repetition", "#"}, {"time_us", "time", "us", 3}});
    for (std::size_t i = 0; i < m.results.times_s.size(); ++i)
        t.row(i + 1, m.results.times_s[i] * 1e6);
    return t.build();
}

// Named values with units (derived throughput, profiler counters): `name_column` says what
// the names are.
template <class Values>
report::Table named_values_table(std::string key, std::string title, const char* name_column,
                                 const Values& values) {
    TableBuilder t(std::move(key), std::move(title));
    t.columns({name_column, "value", "unit"});
    for (const auto& [name, v] : values)
        t.row(name, v.value, v.unit);
    return t.build();
}

} // namespace

report::Document run_view(const Measurement& m) {
    report::Document doc;
    doc.schema = "kerncast.run/1";
    doc.title = "Kernel run: " + m.kernel.name;
    doc.tables.push_back(summary_table(m));
    doc.tables.push_back(repetitions_table(m));
    if (!m.results.throughput.empty())
        doc.tables.push_back(named_values_table("throughput", "Derived throughput", "quantity",
                                                m.results.throughput));
    if (!m.counters.empty())
        doc.tables.push_back(named_values_table(
            "counters", "Nsight Compute counters (one profiled launch)", "metric", m.counters));
    return doc;
}

} // namespace kerncast::runtime
