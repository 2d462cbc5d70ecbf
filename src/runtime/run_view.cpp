#include "kerncast/runtime/run_view.hpp"

namespace kerncast::runtime {

static std::string dims(const Dim3& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

static report::Cell optional_cell(const std::optional<double>& value) {
    if (value)
        return *value;
    return std::monostate{};
}

report::Document run_view(const Measurement& m) {
    report::Document doc;
    doc.schema = "kerncast.run/1";
    doc.title = "Kernel run: " + m.kernel.name;

    report::Table summary;
    summary.key = "summary";
    summary.title = "Timing (" + std::to_string(m.method.repetitions) + " repetitions after " +
                    std::to_string(m.method.warmup_count) + " warm-up launches, CUDA events" +
                    (m.method.l2_flush ? ", L2 flushed between repetitions)" : ")");
    summary.columns = {
        {"kernel", "kernel", "", -1},
        {"device", "device", "", -1},
        {"grid", "grid", "", -1},
        {"block", "block", "", -1},
        {"median_us", "median", "us", 3},
        {"min_us", "min", "us", 3},
        {"max_us", "max", "us", 3},
        {"mean_us", "mean", "us", 3},
        {"stddev_us", "stddev", "us", 3},
        {"sm_clock_start_mhz", "SM clock start", "MHz", 0},
        {"sm_clock_end_mhz", "SM clock end", "MHz", 0},
    };
    summary.rows.push_back({
        m.kernel.name,
        m.device.name,
        dims(m.kernel.launch.grid),
        dims(m.kernel.launch.block),
        m.results.median_s * 1e6,
        m.results.min_s * 1e6,
        m.results.max_s * 1e6,
        m.results.mean_s * 1e6,
        m.results.stddev_s * 1e6,
        optional_cell(m.device.sm_clock_start_mhz),
        optional_cell(m.device.sm_clock_end_mhz),
    });
    doc.tables.push_back(std::move(summary));

    report::Table times;
    times.key = "repetitions";
    times.title = "Time per repetition";
    times.columns = {{"repetition", "#", "", -1}, {"time_us", "time", "us", 3}};
    for (std::size_t i = 0; i < m.results.times_s.size(); ++i)
        times.rows.push_back({static_cast<std::int64_t>(i + 1), m.results.times_s[i] * 1e6});
    doc.tables.push_back(std::move(times));

    if (!m.results.throughput.empty()) {
        report::Table throughput;
        throughput.key = "throughput";
        throughput.title = "Derived throughput";
        throughput.columns = {
            {"quantity", "quantity", "", -1}, {"value", "value", "", -1}, {"unit", "unit", "", -1}};
        for (const auto& [name, v] : m.results.throughput)
            throughput.rows.push_back({name, v.value, v.unit});
        doc.tables.push_back(std::move(throughput));
    }

    if (!m.counters.empty()) {
        report::Table counters;
        counters.key = "counters";
        counters.title = "Nsight Compute counters (one profiled launch)";
        counters.columns = {
            {"metric", "metric", "", -1}, {"value", "value", "", -1}, {"unit", "unit", "", -1}};
        for (const auto& [name, v] : m.counters)
            counters.rows.push_back({name, v.value, v.unit});
        doc.tables.push_back(std::move(counters));
    }
    return doc;
}

} // namespace kerncast::runtime
