// probe_view: the probe report. From a hand-built analysis: the device row, each value's cells
// (device-wide values under "device", blank p-values and clocks, note before detail), the notes
// (out-of-bounds values said not to be written), and one latency chart per size search with a
// series per repetition and each change point once. From the synthetic record: every value.
#include "kerncast/probe/analysis.hpp"
#include "synthetic_record.hpp"

#include <gtest/gtest.h>
#include <map>

namespace kerncast::probe {
namespace {

using testing::synthetic_record;

const report::Cell& cell(const report::Table& table, size_t row, const std::string& key) {
    for (size_t k = 0; k < table.columns.size(); ++k)
        if (table.columns[k].key == key)
            return table.rows.at(row).at(k);
    throw std::runtime_error("no column " + key);
}

template <class T> T as(const report::Cell& c) {
    return std::get<T>(c);
}

ProbeAnalysis hand_built() {
    ProbeAnalysis a;
    a.device.name = "NVIDIA H100";
    a.device.cc_major = 9;
    a.device.cc_minor = 0;
    a.device.sm_count = 132;
    a.device.sm_clock_peak_mhz = 1980;
    a.device.driver_version = 13000;
    a.date = "2026-01-02";
    a.notes = {"tlb: no step found"};

    ProbeValue size;
    size.memory = "l1";
    size.quantity = "size_bytes";
    size.unit = "B";
    size.benchmark = "l1.size";
    size.detail = "bracket 196608..204800";
    size.estimate = {229376, 0, 3, 0.0004, Confidence::high, true, ""};
    ProbeValue clock;
    clock.quantity = "sm_clock_mhz";
    clock.unit = "MHz";
    clock.benchmark = "clock";
    clock.estimate = {1755, 2.5, 5, -1, Confidence::medium, true, "spread over 0.1 %"};
    ProbeValue wrapped;
    wrapped.memory = "dram";
    wrapped.quantity = "latency_cycles";
    wrapped.unit = "cycles";
    wrapped.benchmark = "dram.latency";
    wrapped.estimate = {-4e9, 0, 5, -1, Confidence::low, false, "below 1 latency in cycles"};
    a.values = {size, clock, wrapped};

    a.latency_curves = {
        {"l1.size", "l1", 0, {1024, 2048}, {30, 200}, "cycles", 1536.0},
        {"l1.size", "l1", 1, {1024, 2048}, {31, 201}, "cycles", 1536.0},
        {"l2.size", "l2", 0, {4096, 8192}, {200, 500}, "cycles", std::nullopt},
    };
    return a;
}

TEST(ProbeView, DeviceAndSettings) {
    ProbeAnalysis a = hand_built();
    const report::Document doc = probe_view(a);
    EXPECT_EQ(doc.schema, "kerncast.probe/1");
    EXPECT_EQ(doc.title, "GPU topology probe: NVIDIA H100");
    const report::Table& device = doc.table_at("device");
    ASSERT_EQ(device.rows.size(), 1u);
    EXPECT_EQ(as<std::string>(cell(device, 0, "name")), "NVIDIA H100");
    EXPECT_EQ(as<std::string>(cell(device, 0, "compute_capability")), "9.0");
    EXPECT_EQ(as<std::int64_t>(cell(device, 0, "sm_count")), 132);
    EXPECT_EQ(as<double>(cell(device, 0, "sm_clock_peak_mhz")), 1980);
    EXPECT_EQ(as<std::int64_t>(cell(device, 0, "driver_version")), 13000);
    EXPECT_EQ(as<std::string>(cell(device, 0, "date")), "2026-01-02");
    // Not measured, no carve-out forced: blank.
    EXPECT_TRUE(std::holds_alternative<std::monostate>(cell(device, 0, "sm_clock_measured_mhz")));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(cell(device, 0, "carveout_percent")));

    a.sm_clock_measured_mhz = 1755;
    a.carveout_percent = 100;
    const report::Document set = probe_view(a);
    EXPECT_EQ(as<double>(cell(set.table_at("device"), 0, "sm_clock_measured_mhz")), 1755);
    EXPECT_EQ(as<std::int64_t>(cell(set.table_at("device"), 0, "carveout_percent")), 100);
}

TEST(ProbeView, OneRowPerValue) {
    const report::Document doc = probe_view(hand_built());
    const report::Table& values = doc.table_at("values");
    ASSERT_EQ(values.rows.size(), 3u);
    EXPECT_EQ(as<std::string>(cell(values, 0, "memory")), "l1");
    EXPECT_EQ(as<std::string>(cell(values, 0, "quantity")), "size_bytes");
    EXPECT_EQ(as<double>(cell(values, 0, "value")), 229376);
    EXPECT_EQ(as<std::string>(cell(values, 0, "unit")), "B");
    EXPECT_EQ(as<std::int64_t>(cell(values, 0, "repetitions")), 3);
    EXPECT_EQ(as<double>(cell(values, 0, "p_value")), 0.0004);
    EXPECT_EQ(as<std::string>(cell(values, 0, "confidence")), "high");
    EXPECT_TRUE(as<bool>(cell(values, 0, "within_bounds")));
    EXPECT_EQ(as<std::string>(cell(values, 0, "detail")), "bracket 196608..204800");
    // A device-wide value, no test: "device", a blank p, the note before the (empty) detail.
    EXPECT_EQ(as<std::string>(cell(values, 1, "memory")), "device");
    EXPECT_EQ(as<double>(cell(values, 1, "spread")), 2.5);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(cell(values, 1, "p_value")));
    EXPECT_EQ(as<std::string>(cell(values, 1, "confidence")), "medium");
    EXPECT_EQ(as<std::string>(cell(values, 1, "detail")), "spread over 0.1 %");
    // Out of bounds: still listed, flagged.
    EXPECT_FALSE(as<bool>(cell(values, 2, "within_bounds")));
    EXPECT_EQ(as<std::string>(cell(values, 2, "detail")), "below 1 latency in cycles");
}

TEST(ProbeView, NoteAndDetailJoined) {
    ProbeAnalysis a = hand_built();
    a.values[0].estimate.note = "one repetition disagrees";
    const report::Document doc = probe_view(a);
    EXPECT_EQ(as<std::string>(cell(doc.table_at("values"), 0, "detail")),
              "one repetition disagrees; bracket 196608..204800");
}

TEST(ProbeView, NotesSayWhatIsNotWritten) {
    const report::Document doc = probe_view(hand_built());
    EXPECT_EQ(doc.notes, (std::vector<std::string>{
                             "tlb: no step found",
                             "dram.latency: below 1 latency in cycles; not written to the "
                             "machine file"}));
}

TEST(ProbeView, OneLatencyChartPerSizeSearch) {
    const report::Document doc = probe_view(hand_built());
    ASSERT_EQ(doc.charts.size(), 2u);
    const report::Chart& l1 = doc.charts[0];
    EXPECT_EQ(l1.key, "l1.size");
    EXPECT_EQ(l1.title, "l1.size: latency against footprint, detected change points");
    EXPECT_EQ(l1.kind, report::ChartKind::scatter);
    EXPECT_EQ(l1.x_axis.unit, "B");
    EXPECT_TRUE(l1.x_axis.logarithmic);
    EXPECT_EQ(l1.y_axis.unit, "cycles");
    EXPECT_FALSE(l1.y_axis.logarithmic);
    ASSERT_EQ(l1.series.size(), 2u);
    EXPECT_EQ(l1.series[0].name, "repetition 0");
    EXPECT_EQ(l1.series[1].name, "repetition 1");
    EXPECT_EQ(l1.series[1].x, (std::vector<double>{1024, 2048}));
    EXPECT_EQ(l1.series[1].y, (std::vector<double>{31, 201}));
    // Both repetitions found 1536 B: one marker.
    EXPECT_EQ(l1.x_markers, (std::vector<double>{1536}));
    const report::Chart& l2 = doc.charts[1];
    EXPECT_EQ(l2.key, "l2.size");
    ASSERT_EQ(l2.series.size(), 1u);
    EXPECT_TRUE(l2.x_markers.empty()); // no verified change point
}

TEST(ProbeView, ViewListsEveryValueOfTheSyntheticRecord) {
    const ProbeAnalysis a = analyse_probe_record(synthetic_record());
    const auto doc = probe_view(a);
    EXPECT_EQ(doc.schema, "kerncast.probe/1");
    ASSERT_EQ(doc.tables.size(), 2u);
    EXPECT_EQ(doc.tables[1].rows.size(), a.values.size());
    for (const auto& row : doc.tables[1].rows)
        EXPECT_EQ(row.size(), doc.tables[1].columns.size());
    // A mix's row names its store fraction (one DRAM and one L2 mix at 0.25, and the DRAM mix's
    // bandwidth at one block an SM, by its loads in flight).
    std::map<std::string, int> mixes;
    for (size_t r = 0; r < a.values.size(); ++r)
        if (a.values[r].store_fraction == 0.25)
            ++mixes[as<std::string>(cell(doc.tables[1], r, "quantity"))];
    EXPECT_EQ(mixes,
              (std::map<std::string, int>{{"mixed_bandwidth_gbs (store fraction 0.25)", 2},
                                          {"in_flight_bandwidth_gbs (store fraction 0.25)", 1}}));
    // Every size-search repetition is one series of its benchmark's chart.
    ASSERT_FALSE(a.latency_curves.empty());
    size_t series = 0;
    for (const auto& chart : doc.charts)
        series += chart.series.size();
    EXPECT_EQ(series, a.latency_curves.size());
}

} // namespace
} // namespace kerncast::probe
